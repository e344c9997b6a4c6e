package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestRuntimeClassAdmission: a pod naming a RuntimeClass gets the
// class's overhead and scheduling nodeSelector (the RuntimeClass
// admission plugin). Two 300m pods of a kata class with 250m overhead,
// restricted to the one sandbox node of 1 CPU, do not both fit; without
// the class they go anywhere.
func TestRuntimeClassAdmission(t *testing.T) {
	const nodes = `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: sandbox, labels: {sandbox: "true"}}, status: {allocatable: {cpu: "1", memory: 4Gi}}}
- {apiVersion: v1, kind: Node, metadata: {name: big}, status: {allocatable: {cpu: "4", memory: 4Gi}}}
`
	const class = `---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m, memory: 160Mi}}
scheduling: {nodeSelector: {sandbox: "true"}}
`
	deployment := func(runtimeClass string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
` + runtimeClass + `      containers: [{name: c, resources: {requests: {cpu: 300m, memory: 64Mi}}}]
`
	}
	for _, c := range []struct {
		name, manifests string
		want            checker.Verdict
	}{
		{"no class", deployment("") + class, checker.Holds},
		{"kata", deployment("      runtimeClassName: kata\n") + class, checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := verifyManifests(t, c.manifests, nodes, "", false).Result("pod_always_schedulable")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("pod_always_schedulable %+v, want %v", r, c.want)
			}
			if c.want == checker.Violated {
				last := r.Trace.Lines()[len(r.Trace.Lines())-1]
				if !strings.Contains(last, "1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector") {
					t.Errorf("the counterexample ends %q", last)
				}
			}
		})
	}
}
