package nodelifecycle

import "github.com/kivi-go/kivi/model"

var (
	_ model.Footprinter = (*NodeController)(nil)
	_ model.Footprinter = (*TaintManager)(nil)
)

// DisabledBy: the node controller waits for its queue and, under
// Kubernetes' lifecycle, for the zone states (zones.go). Only the node
// controller taints a node or marks it TaintQueued, and a node is seen
// not Ready only once it is queued or so marked: so without a
// TaintQueued node nothing but its queue can give it work (the master
// disruption mode needs one more node seen not Ready, which its queue
// brings), and with one, a node seen not Ready that becomes Ready (an
// event writing its status) may let a queued node be tainted. A deleted
// Ready node changes the zone states too, outside the queue: with a
// deleteNode event and a tainted or held node, every node is read.
func (*NodeController) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	f := model.QueueFootprint(model.NodeControllerQueue)
	if u.Options.KiviLifecycle {
		return f
	}
	held, tainted := false, false
	for n := range s.Nodes {
		held = held || s.Nodes[n].Status.TaintIsQueued()
		_, ok := s.Nodes[n].Status.NodeDownTaint()
		tainted = tainted || ok
	}
	if (held || tainted) && hasNodeDeletion(u) {
		for n := range s.Nodes {
			f.AddNode(n)
		}
		return f
	}
	if !held {
		return f
	}
	for n := range s.Nodes {
		if s.Nodes[n].Status.SeenNotReady(false) {
			f.AddNodeWithoutReadiness(n)
		}
	}
	return f
}

// DisabledBy: the taint manager waits for its queue.
func (*TaintManager) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.QueueFootprint(model.TaintManagerQueue)
}

// hasNodeDeletion reports whether u has a deleteNode event: the one step
// outside the node controller's queue that can take a zone's last Ready
// node away.
func hasNodeDeletion(u *model.Universe) bool {
	for i := range u.Events {
		if u.Events[i].Kind == model.DeleteNode {
			return true
		}
	}
	return false
}
