package reduction_test

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

// TestUnreplayableCycleIsUnknown: where representatives are not exact the
// engine explores concrete states up to symmetry, and a lasso found among
// the stored states need not replay as a concrete run. Here two db pods
// nominated to the two (non-interchangeable) nodes wait together and are
// retried in slot order (docs/divergences.md, "Pod priority and
// preemption"), which the reduction permutes: the depth-first search's
// no_oscillation_eviction lasso does not replay. The property is Unknown
// with its reason, not an error and not a violation.
func TestUnreplayableCycleIsUnknown(t *testing.T) {
	in := unreplayableInput
	p := inputProblem(t, in, compose.Options{})
	if p.System.Symmetry.ExactRepresentatives() {
		t.Fatal("representatives are exact: the test needs an input where they are not")
	}
	res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties,
		checker.Options{CollectAll: true, Workers: 1, MaxStates: randomMaxStates, Strategy: checker.DFS, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range res.Properties {
		if r.Name == "no_oscillation_eviction" {
			found = true
			if r.Verdict != checker.Unknown || r.Reason != checker.ReasonUnreplayable {
				t.Errorf("no_oscillation_eviction: %v (%v), want Unknown (%v)", r.Verdict, r.Reason, checker.ReasonUnreplayable)
			}
		}
	}
	if !found {
		t.Fatal("no no_oscillation_eviction result")
	}
	// Without symmetry the search is exact: on this input the cycle is a
	// concrete run, which is what the Unknown's hint promises.
	full, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties,
		checker.Options{CollectAll: true, Workers: 1, MaxStates: randomMaxStates, NoSymmetry: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range full.Properties {
		if r.Name == "no_oscillation_eviction" {
			if r.Verdict != checker.Violated {
				t.Errorf("no_oscillation_eviction without symmetry: %v (%v), want violated", r.Verdict, r.Reason)
			}
		}
	}
}

// TestUnreplayableIsSettledWithoutSymmetry: a verification (Problem.Check)
// whose exhaustive search leaves a loop intent Unknown because the lasso
// found up to symmetry does not replay searches again without symmetry,
// within the same bounds, and reports that search's verdict and
// counterexample as its own phase's.
func TestUnreplayableIsSettledWithoutSymmetry(t *testing.T) {
	p := inputProblem(t, unreplayableInput, compose.Options{NoQuickPass: true})
	r, err := p.Check(context.Background(), checker.Options{CollectAll: true, Workers: 1, MaxStates: randomMaxStates, Strategy: checker.DFS, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	x := r.Result("no_oscillation_eviction")
	if x.Verdict != checker.Violated || x.FoundBy != report.PhaseSymmetryOff || x.Trace == nil || x.Trace.LoopStart < 0 {
		t.Fatalf("no_oscillation_eviction: %v (%v) found by %q, trace %v; want violated by %q with a loop", x.Verdict, x.Reason, x.FoundBy, x.Trace != nil, report.PhaseSymmetryOff)
	}
	if n := len(r.Phases); n != 2 || r.Phases[0].Name != report.PhaseExhaustive || r.Phases[1].Name != report.PhaseSymmetryOff || r.Phases[1].Violations == 0 {
		t.Errorf("phases %+v, want the exhaustive search then the search without symmetry", r.Phases)
	}
	// With symmetry off from the start there is nothing to retry.
	off, err := p.Check(context.Background(), checker.Options{CollectAll: true, Workers: 1, MaxStates: randomMaxStates, Strategy: checker.DFS, Seed: 1, NoSymmetry: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(off.Phases) != 1 || off.Result("no_oscillation_eviction").Verdict != checker.Violated {
		t.Errorf("symmetry off: phases %d, verdict %v", len(off.Phases), off.Result("no_oscillation_eviction").Verdict)
	}
}

// unreplayableInput: two db pods nominated to the two
// (non-interchangeable) nodes wait together and are retried in slot order
// (docs/divergences.md, "Pod priority and preemption"), which the
// reduction permutes.
var unreplayableInput = randomInput{nodes: `apiVersion: v1
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
