package reduction_test

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
)

// TestNominatedTwinsReplayUnderSymmetry: waiting pods that differ only in
// the node they are nominated to are taken by the scheduler in any order
// (model.NominatedTwins), and the symmetry reduction treats their run in
// the scheduling queue as a set. When the scheduler took them in slot
// order, which the reduction permutes, two states of one orbit stepped to
// different orbits, and on this input (found by
// TestReductionsSoundOnWideClusters; representatives not exact) the
// depth-first search's lasso for no_oscillation_eviction had no concrete
// run. Now a state and its canonical form step alike, and, breadth- and
// depth-first, with symmetry the intent is violated, as without.
func TestNominatedTwinsReplayUnderSymmetry(t *testing.T) {
	p := inputProblem(t, nominatedTwinsInput, compose.Options{})
	if p.System.Symmetry.ExactRepresentatives() {
		t.Fatal("representatives are exact: the test needs an input where they are not")
	}
	// Every reachable state and its canonical form step to the same
	// canonical keys (up to the kubelet queue's order alone).
	if s, a, b := stepsApart(p.System, 20_000); s != nil {
		t.Fatalf("a state and its canonical form step apart (%d and %d keys):\n%s", a, b, model.Describe(p.System.U, s))
	}
	for _, o := range []checker.Options{{Strategy: checker.DFS, Seed: 1}, {Strategy: checker.DFS, Seed: 2}, {}, {NoSymmetry: true}} {
		o.CollectAll, o.Workers, o.MaxStates = true, 1, randomMaxStates
		res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties, o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		found := false
		for _, r := range res.Properties {
			if r.Name == "no_oscillation_eviction" {
				found = true
				if r.Verdict != checker.Violated {
					t.Errorf("%v, seed %d, no symmetry %v: no_oscillation_eviction %v (%v), want violated", o.Strategy, o.Seed, o.NoSymmetry, r.Verdict, r.Reason)
				}
			}
		}
		if !found {
			t.Fatal("no no_oscillation_eviction result")
		}
	}
}

// nominatedTwinsInput: two db pods nominated to the two
// (non-interchangeable) nodes wait together in the scheduling queue, and
// a pinned template keeps the kubelet queue in order, so representatives
// are not exact.
var nominatedTwinsInput = randomInput{nodes: `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a, topology.kubernetes.io/zone: z0}}
  status: {allocatable: {cpu: "1", memory: 2Gi, pods: "110"}}
- apiVersion: v1
  kind: Node
  metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b, topology.kubernetes.io/zone: z1}}
  spec: {taints: [{key: dedicated, value: batch, effect: NoExecute}]}
  status: {allocatable: {cpu: "1", memory: 2Gi, pods: "110"}}
`, manifests: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeName: node-b
      containers:
      - name: web
        resources: {requests: {cpu: 500m, memory: 256Mi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: db}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      priorityClassName: system-node-critical
      tolerations: [{key: dedicated, operator: Exists, effect: NoExecute, tolerationSeconds: 10}]
      containers:
      - name: db
        resources: {requests: {cpu: 250m, memory: 256Mi}}
        ports: [{containerPort: 8080, hostPort: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: batch}
spec:
  replicas: 1
  selector: {matchLabels: {app: batch}}
  template:
    metadata: {labels: {app: batch}}
    spec:
      nodeName: node-a
      containers:
      - name: batch
        resources: {requests: {cpu: 250m, memory: 256Mi}}
        ports: [{containerPort: 8080, hostPort: 80}]
        readinessProbe: {httpGet: {path: /healthz, port: 8080}}
`, intents: `intents:
- {name: no_oscillation_eviction, params: {deployment: db}}
events:
- {kind: nodeFailure, node: node-b, recovers: false, outOfService: true, when: afterStable}
`}
