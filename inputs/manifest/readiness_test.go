package manifest_test

import (
	"os"
	"testing"

	"github.com/kivi-go/kivi/inputs/manifest"
)

// TestReadinessFields: a readinessProbe, a sidecar's startupProbe or
// readinessGates make a template's pods start not Ready, and a
// Deployment's or StatefulSet's spec.minReadySeconds is recorded on its
// template (testdata/fuzz/manifests/readiness.yaml); a livenessProbe
// alone delays nothing, and no field is warned about.
func TestReadinessFields(t *testing.T) {
	data, err := os.ReadFile("testdata/fuzz/manifests/readiness.yaml")
	if err != nil {
		t.Fatal(err)
	}
	extra := `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: plain}
spec:
  selector: {matchLabels: {app: plain}}
  template:
    metadata: {labels: {app: plain}}
    spec:
      containers: [{name: c, livenessProbe: {httpGet: {path: /, port: 80}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: gated}
spec:
  selector: {matchLabels: {app: gated}}
  template:
    metadata: {labels: {app: gated}}
    spec:
      readinessGates: [{conditionType: example.com/ready}]
      containers: [{name: c}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: sidecar}
spec:
  selector: {matchLabels: {app: sidecar}}
  template:
    metadata: {labels: {app: sidecar}}
    spec:
      initContainers: [{name: s, restartPolicy: Always, startupProbe: {tcpSocket: {port: 1}}}]
      containers: [{name: c}]
`
	nodes, err := os.ReadFile("testdata/c3/nodes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := manifest.LoadStream([]manifest.File{{Name: "m.yaml", Data: append(data, extra...)}}, &manifest.File{Name: "nodes.yaml", Data: nodes}, nil, cliOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) > 0 {
		t.Errorf("warnings: %v", r.Warnings)
	}
	want := map[string]struct {
		probe bool
		min   int32
	}{"web": {true, 10}, "db": {true, 5}, "plain": {false, 0}, "gated": {true, 0}, "sidecar": {true, 0}}
	seen := 0
	for _, td := range r.Cluster.Templates {
		w, ok := want[td.Name]
		if !ok {
			continue
		}
		seen++
		if td.ReadinessProbe != w.probe || td.MinReadySeconds != w.min {
			t.Errorf("template %s: readinessProbe %v minReadySeconds %d, want %v %d", td.Name, td.ReadinessProbe, td.MinReadySeconds, w.probe, w.min)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d templates found", seen, len(want))
	}
}
