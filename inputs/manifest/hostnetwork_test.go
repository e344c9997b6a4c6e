package manifest

import (
	"strings"
	"testing"
)

// TestHostPortWarnings: a workload's host ports, written (hostPort) or
// implied by hostNetwork, keep two of its pods off one node upstream (the
// NodePorts filter) and are not modelled, so they are warned about; a
// DaemonSet's are not (one pod per node).
func TestHostPortWarnings(t *testing.T) {
	const daemonSet = `---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: exporter}
spec:
  selector: {matchLabels: {app: exporter}}
  template:
    metadata: {labels: {app: exporter}}
    spec:
      hostNetwork: true
      containers: [{name: e, ports: [{containerPort: 9100, hostPort: 9100}]}]
`
	for _, c := range []struct {
		name, spec string
		want       []string
	}{
		{"container ports", "      containers: [{name: a, ports: [{containerPort: 80, name: http, protocol: TCP}]}]\n", nil},
		{"hostPort", "      containers: [{name: a, ports: [{containerPort: 80, hostPort: 80}]}]\n",
			[]string{"spec.template.spec.containers[0].ports[0].hostPort: ignored: host ports"}},
		{"hostNetwork without ports", "      hostNetwork: true\n      containers: [{name: a}]\n", nil},
		{"hostNetwork with ports", "      hostNetwork: true\n      containers: [{name: a}, {name: b, ports: [{containerPort: 80}]}]\n",
			[]string{"spec.template.spec.hostNetwork: ignored: on the host's network the containers' ports are host ports"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, w := range load(t, webDeployment(c.spec)+daemonSet).Warnings {
				if strings.Contains(w.Msg, "host") {
					got = append(got, w.String())
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("warnings %q, want %q", got, c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %q, want %q", got[i], w)
				}
			}
		})
	}
}

// TestVolumeWarnings: a claim (persistentVolumeClaim, an ephemeral
// volume) can pin pods to a zone or a node upstream and is warned about;
// other volume sources are quiet.
func TestVolumeWarnings(t *testing.T) {
	spec := `      containers: [{name: a}]
      volumes:
      - {name: tmp, emptyDir: {}}
      - {name: cfg, configMap: {name: cfg}}
      - {name: data, persistentVolumeClaim: {claimName: data}}
      - name: scratch
        ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce]}}}
`
	var got []string
	for _, w := range load(t, webDeployment(spec)).Warnings {
		got = append(got, w.String())
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{"spec.template.spec.volumes[2].persistentVolumeClaim: ignored: volume binding",
		"spec.template.spec.volumes[3].ephemeral: ignored: volume binding"} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning %q in:\n%s", want, text)
		}
	}
	if len(got) != 2 {
		t.Errorf("%d warnings, want 2:\n%s", len(got), text)
	}
}
