package events

import "github.com/kivi-go/kivi/model"

// Program counter of nodeFailure (one byte of event memory).
const (
	nodeFailureUp       uint8 = iota // before the failure
	nodeFailureDown                  // node NotReady, not yet reported
	nodeFailureReported              // reported to the node controller
	nodeFailureDone                  // node Ready again
)

// NodeFailure is nodeFailure(i): three separate
// transitions (node down; reported to the node controller; node up), so
// that both a blip the node controller never sees as NotReady and a
// failure that evicts every pod are explored.
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
	n := u.Events[f.event].Node
	pc := &vars(u, s, f.event)[0]
	name := u.Nodes[n].Name
	switch *pc {
	case nodeFailureUp:
		model.SetNodeStatus(u, s, n, model.NotReady)
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s failed: it is NotReady", name)
		}
	case nodeFailureDown:
		s.Enqueue(model.NodeControllerQueue, n)
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s reported NotReady to the node-lifecycle-controller", name)
		}
	case nodeFailureReported:
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s recovered: it is Ready", name)
		}
		model.SetNodeReady(tx, s, n)
	}
	*pc++
	afterStep(u, s, f.event)
}
