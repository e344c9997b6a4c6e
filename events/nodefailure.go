package events

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// Program counter of nodeFailure (its first byte of event memory; a
// failure with the operator's out-of-service remedy has a second byte,
// the taint: model/nodeloss.go).
const (
	nodeFailureUp       uint8 = iota // before the failure
	nodeFailureDown                  // node NotReady, not yet reported
	nodeFailureReported              // reported to the node controller
	nodeFailureDone                  // node Ready again, or lost for good (and tainted out-of-service)
)

// NodeFailure is nodeFailure(i): three separate
// transitions (node down; reported to the node controller; node up), so
// that both a blip the node controller never sees as NotReady and a
// failure that evicts every pod are explored. A node lost for good
// (recovers: false) has the first two only; with the operator's remedy
// (outOfService) the third taints it out-of-service instead of bringing
// it back, at any time after it is reported.
type NodeFailure struct {
	event int
	unanalysed
}

var _ model.Process = NodeFailure{}

func (NodeFailure) Name() string { return "nodeFailure" }

func (f NodeFailure) Enabled(u *model.Universe, s *model.State) bool {
	return mayStart(u, s, f.event) && vars(u, s, f.event)[0] < nodeFailureDone
}

func (f NodeFailure) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	e := &u.Events[f.event]
	n := e.Node
	pc := &vars(u, s, f.event)[0]
	name := u.Nodes[n].Name
	if model.NodeGone(s, n) {
		// A deleteNode of a node lost for good came first: the control
		// plane sees nothing of the machine, and kubectl taint would find
		// no Node object.
		*pc = nodeFailureDone
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s failed after its Node object was deleted: nothing to report", name)
		}
		afterStep(u, s, f.event)
		return
	}
	switch *pc {
	case nodeFailureUp:
		model.SetNodeStatus(u, s, n, model.NotReady)
		if tx.Tracing() {
			if e.Permanent {
				tx.Log(NodeComponent, "Node %s failed for good: it is NotReady and never comes back", name)
			} else {
				tx.Log(NodeComponent, "Node %s failed: it is NotReady", name)
			}
		}
	case nodeFailureDown:
		s.Enqueue(model.NodeControllerQueue, n)
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s reported NotReady to the node-lifecycle-controller", name)
		}
		if e.Permanent && !e.OutOfService {
			// Nothing more happens to a lost node.
			*pc = nodeFailureDone
			afterStep(u, s, f.event)
			return
		}
	case nodeFailureReported:
		if e.Permanent {
			taintOutOfService(tx, s, n)
			break
		}
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s recovered: it is Ready", name)
		}
		model.SetNodeReady(tx, s, n)
	}
	*pc++
	afterStep(u, s, f.event)
}

// taintOutOfService is the operator's remedy for node n, lost for good:
// kubectl taint nodes n node.kubernetes.io/out-of-service=nodeshutdown:NoExecute.
func taintOutOfService(tx *model.Tx, s *model.State, n int) {
	u := tx.U
	collected, judged := model.SetOutOfService(u, s, n)
	if tx.Tracing() {
		t := model.OutOfServiceTaint()
		tx.Log(KubectlComponent, "Tainted node %s %s=%s:%s: it is shut down for good (%s to the pod-garbage-collector-controller, %s to the taint-eviction-controller)",
			u.Nodes[n].Name, t.Key, t.Value, t.Effect, podCount(collected, "terminating pod"), podCount(judged, "pod"))
	}
}

// podCount is "no pods", "1 pod" or "n pods" of the given kind.
func podCount(n int, what string) string {
	switch n {
	case 0:
		return "no " + what + "s"
	case 1:
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
