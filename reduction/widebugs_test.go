package reduction_test

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
)

// twoNodes is a nodes.yaml of two 1-cpu nodes.
const twoNodes = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
  status: {allocatable: {cpu: "1", memory: 2Gi, pods: "110"}}
- apiVersion: v1
  kind: Node
  metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b}}
  status: {allocatable: {cpu: "1", memory: 2Gi, pods: "110"}}
`

// fataler is what inputProblem needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// inputProblem loads in as `kivi verify` does, with opts.
func inputProblem(t fataler, in randomInput, opts compose.Options) *compose.Problem {
	t.Helper()
	c, err := in.load()
	if err != nil {
		t.Fatalf("%v\n%s", err, in)
	}
	p, err := compose.NewProblem(c, opts)
	if err != nil {
		t.Fatalf("%v\n%s", err, in)
	}
	return p
}

// footprintsHold runs checkFootprints on every reachable state of in (up
// to randomStates).
func footprintsHold(t *testing.T, in randomInput) {
	t.Helper()
	p := inputProblem(t, in, compose.Options{})
	sys, r := p.System, p.System.Reduction
	if r == nil {
		t.Fatal("no partial-order reduction")
	}
	forStates(sys, randomStates, func(s *model.State) {
		if msg := checkFootprints(sys, r, s); msg != "" {
			t.Fatalf("%s\n%s", msg, model.Describe(sys.U, s))
		}
	})
}

// TestOutOfServiceTaintIsTheNodes: the out-of-service taint a nodeFailure
// (recovers: false, outOfService: true) puts on its node lives in the
// event's memory, yet it is the node's: the kubelet, which confirms the
// deletion of a pod Terminating there once the taint is on
// (model.ForceDeletedOutOfService), reads it with the node's component
// (model.Changed counts the byte as the node's).
// TestReductionsSoundOnWideClusters found the kubelet's step reads
// missing it on its first, unseeded run; this is the input it shrank to.
func TestOutOfServiceTaintIsTheNodes(t *testing.T) {
	footprintsHold(t, randomInput{nodes: twoNodes, manifests: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeName: node-a
      containers:
      - name: web
        resources: {requests: {cpu: 250m, memory: 256Mi}}
`, intents: `intents:
- {name: pod_always_schedulable}
events:
- {kind: nodeFailure, node: node-a, recovers: false, outOfService: true, when: main}
`})
}

// TestDeletedPodsLeaveThePodQueues: a pod deleted while it waits in a pod
// queue leaves it (model.State.ForgetPod). Here pods pinned to a node
// whose NoExecute taint they tolerate for a while join the taint
// manager's queue when they start; the kubelet's preemption for a Job's
// system-node-critical pod pinned there, or its admission, fails some;
// the pod garbage collector deleted them and left their ids in the queue,
// which then named whatever pod took the slot next and made that free
// slot unlike the others, so a state and its canonical form stepped to
// different orbits (TestReductionsSoundOnWideClusters -rapid.seed=1
// -rapid.checks=3000: a no_oscillation_rejection counterexample under
// symmetry that did not replay).
func TestDeletedPodsLeaveThePodQueues(t *testing.T) {
	p := inputProblem(t, randomInput{nodes: `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
  spec: {taints: [{key: dedicated, value: batch, effect: NoExecute}]}
  status: {allocatable: {cpu: "1", memory: 2Gi, pods: "110"}}
- apiVersion: v1
  kind: Node
  metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b}}
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
      nodeName: node-a
      tolerations: [{key: dedicated, operator: Exists, effect: NoExecute, tolerationSeconds: 10}]
      containers:
      - name: web
        resources: {requests: {cpu: 1, memory: 256Mi}}
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
      nodeName: node-a
      containers:
      - name: db
        resources: {requests: {cpu: 500m, memory: 256Mi}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  completions: 2
  parallelism: 2
  template:
    metadata: {labels: {app: batch}}
    spec:
      restartPolicy: Never
      nodeName: node-a
      priorityClassName: system-node-critical
      tolerations: [{key: dedicated, operator: Exists, effect: NoExecute, tolerationSeconds: 10}]
      containers:
      - name: batch
        resources: {requests: {cpu: 1, memory: 256Mi}}
`, intents: "intents:\n- {name: job_completes, params: {deployment: batch}}\n"}, compose.Options{})
	sys := p.System
	c := sys.Symmetry
	if c == nil || !c.PodsMove() {
		t.Fatal("pod slots do not move here")
	}
	key := func(s *model.State) string { return string(c.AppendCanonical(nil, s)) }
	orbits := func(s *model.State) []string {
		var out []string
		sys.Next(s, func(_ checker.Step, x *model.State) { out = append(out, key(x)) })
		slices.Sort(out)
		return slices.Compact(out)
	}
	forStates(sys, 5000, func(s *model.State) {
		for _, q := range model.PodQueues() {
			for _, id := range s.Queues[q] {
				if int(id) < len(s.Pods) && s.Pods[id].Phase == model.Free {
					t.Fatalf("queue %v names free slot %d\n%s", q, id, model.Describe(sys.U, s))
				}
			}
		}
		if a, b := orbits(s), orbits(c.Canonical(s)); !slices.Equal(a, b) {
			t.Fatalf("a state and its canonical form step to other orbits\nstate:\n%s\ncanonical form:\n%s",
				model.Describe(sys.U, s), model.Describe(sys.U, c.Canonical(s)))
		}
	})
}
