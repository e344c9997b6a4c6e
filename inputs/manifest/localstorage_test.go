package manifest

import (
	"strings"
	"testing"
)

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

// TestPVCVolumes: a template with a persistentVolumeClaim volume, or a
// StatefulSet with claim templates (its controller gives every pod a
// claim), has a claim, as the descheduler's IsPodWithPVC reads it; the
// claim's volume is still warned about.
func TestPVCVolumes(t *testing.T) {
	r := load(t, webDeployment("      volumes: [{name: d, persistentVolumeClaim: {claimName: d}}]\n      containers: [{name: c}]\n"))
	if !r.Cluster.Templates[0].PVC || r.Cluster.Templates[0].LocalStorage {
		t.Errorf("a claim volume: PVC %v, local storage %v; want a claim only", r.Cluster.Templates[0].PVC, r.Cluster.Templates[0].LocalStorage)
	}
	if w := warningText(r.Warnings); !strings.Contains(w, "spec.template.spec.volumes[0].persistentVolumeClaim: ignored: volume binding and volume topology are not modelled") {
		t.Errorf("no warning about the claim's volume:\n%s", w)
	}
	sts := load(t, `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`)
	if !sts.Cluster.Templates[0].PVC {
		t.Error("a StatefulSet with claim templates: no claim")
	}
	if load(t, webDeployment("      containers: [{name: c}]\n")).Cluster.Templates[0].PVC {
		t.Error("no volume: a claim")
	}
}
