package manifest

import "testing"

// TestLocalStorageVolumes: a template with an emptyDir or hostPath volume
// has local storage, as the descheduler's IsPodWithLocalStorage reads
// it; other sources and a null emptyDir do not.
func TestLocalStorageVolumes(t *testing.T) {
	for _, c := range []struct {
		volumes string
		want    bool
	}{
		{"[]", false},
		{"[{name: a, configMap: {name: c}}, {name: b, secret: {secretName: s}}]", false},
		{"[{name: a, emptyDir: null}]", false},
		{"[{name: a, configMap: {name: c}}, {name: b, emptyDir: {}}]", true},
		{"[{name: a, hostPath: {path: /var/log}}]", true},
	} {
		r := load(t, webDeployment("      volumes: "+c.volumes+"\n      containers: [{name: c}]\n"))
		if got := r.Cluster.Templates[0].LocalStorage; got != c.want {
			t.Errorf("%s: local storage %v, want %v", c.volumes, got, c.want)
		}
	}
}
