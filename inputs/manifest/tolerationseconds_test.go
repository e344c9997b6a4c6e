package manifest

import "testing"

// TestTolerationSeconds: a NoExecute toleration keeps its
// tolerationSeconds (the taint manager reads them); one without keeps
// nil, which is forever.
func TestTolerationSeconds(t *testing.T) {
	r := load(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c}]
      tolerations:
      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}
      - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}
`)
	tols := r.Cluster.Templates[0].Tolerations
	if len(tols) != 2 || tols[0].TolerationSeconds == nil || *tols[0].TolerationSeconds != 30 || tols[1].TolerationSeconds != nil {
		t.Fatalf("tolerations: %+v", tols)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings: %v", r.Warnings)
	}
}
