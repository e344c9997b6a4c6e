package reduction_test

import (
	"testing"

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

// inputProblem loads in as `kivi verify` does.
func inputProblem(t *testing.T, in randomInput) *compose.Problem {
	t.Helper()
	c, err := in.load()
	if err != nil {
		t.Fatalf("%v\n%s", err, in)
	}
	p, err := compose.NewProblem(c, compose.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, in)
	}
	return p
}

// footprintsHold runs checkFootprints on every reachable state of in (up
// to randomStates).
func footprintsHold(t *testing.T, in randomInput) {
	t.Helper()
	p := inputProblem(t, in)
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
