package kivi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestApplyInOrder: --apply-in-order creates the Deployments in the order
// written. Deployment big (700m) fits only node n1 (1000m); small (500m)
// fits both, and the scheduler prefers the emptier n1. Written big
// first, every pod finds a node; created small first, small takes n1 and
// big finds none. In every order the run finds that; in the written
// order it holds, and the report says what it assumed.
func TestApplyInOrder(t *testing.T) {
	const nodes = `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: "1", memory: 8Gi}}}
- {apiVersion: v1, kind: Node, metadata: {name: n2}, status: {allocatable: {cpu: 600m, memory: 8Gi}}}
`
	deployment := func(name, cpu string) string {
		return `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `}
spec:
  replicas: 1
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata: {labels: {app: ` + name + `}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: ` + cpu + `}}}]
`
	}
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "manifests.yaml", Data: []byte(deployment("big", "700m") + deployment("small", "500m"))}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, inOrder := range []bool{false, true} {
		rep, err := kivi.Verify(context.Background(), c, kivi.Options{ApplyInOrder: inOrder, Checker: checker.Options{Workers: 1}})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Result("pod_always_schedulable")
		want := checker.Violated
		if inOrder {
			want = checker.Holds
		}
		if r == nil || r.Verdict != want {
			t.Fatalf("apply in order %v: pod_always_schedulable %+v, want %v", inOrder, r, want)
		}
		if got := len(rep.Assumptions) > 0; got != inOrder {
			t.Errorf("apply in order %v: assumptions %q", inOrder, rep.Assumptions)
		}
		var text strings.Builder
		rep.WriteFailures(&text)
		if got := strings.Contains(text.String(), "Assumed: the Deployments are created in the order written"); got != inOrder {
			t.Errorf("apply in order %v: the text report says the assumption: %v\n%s", inOrder, got, text.String())
		}
	}
}
