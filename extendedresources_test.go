package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestExtendedResourcesBoundPlacement: three training pods asking for one
// nvidia.com/gpu each (as a limit, which defaults the request) on a node
// with two GPUs and a node with none. The node without GPUs has more room
// for everything else, yet no pod may go there, and the third pod finds
// no node: pod_always_schedulable is violated with Insufficient
// nvidia.com/gpu. With four GPUs on the GPU node it holds.
func TestExtendedResourcesBoundPlacement(t *testing.T) {
	const train = `apiVersion: apps/v1
kind: Deployment
metadata: {name: train}
spec:
  replicas: 3
  selector: {matchLabels: {app: train}}
  template:
    metadata: {labels: {app: train}}
    spec:
      containers:
      - name: c
        resources:
          requests: {cpu: 500m, memory: 1Gi}
          limits: {nvidia.com/gpu: 1}
`
	nodes := func(gpus string) string {
		return `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: gpu}, status: {allocatable: {cpu: "4", memory: 8Gi, nvidia.com/gpu: "` + gpus + `"}}}
- {apiVersion: v1, kind: Node, metadata: {name: cpu}, status: {allocatable: {cpu: "16", memory: 64Gi}}}
`
	}
	verdict := func(gpus string) (checker.Verdict, []string) {
		r := verifyManifests(t, train, nodes(gpus), "", false).Result("pod_always_schedulable")
		if r == nil {
			t.Fatal("no pod_always_schedulable result")
		}
		if r.Trace == nil {
			return r.Verdict, nil
		}
		return r.Verdict, r.Trace.Lines()
	}
	v, lines := verdict("2")
	if v != checker.Violated || len(lines) == 0 || !strings.Contains(lines[len(lines)-1], "2 Insufficient nvidia.com/gpu") {
		t.Fatalf("two GPUs: %v, trace ending %q; want violated with 2 Insufficient nvidia.com/gpu", v, lines)
	}
	for _, l := range lines {
		if strings.Contains(l, "Scheduled") && strings.Contains(l, "on node cpu") {
			t.Fatalf("a GPU pod was placed on the node without GPUs: %q", l)
		}
	}
	if v, lines := verdict("4"); v != checker.Holds {
		t.Fatalf("four GPUs: %v (%q), want holds", v, lines)
	}
}
