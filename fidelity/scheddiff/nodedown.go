package scheddiff

import (
	v1 "k8s.io/api/core/v1"

	"github.com/kivi-go/kivi/model"
)

// NodeDown is what the node lifecycle controller has done with a node that
// is not Ready: which Ready condition the node has (False: the kubelet
// reports it not Ready; Unknown: it stopped reporting) and whether the
// controller's NoExecute taint is on it or held back by the zone states.
// Upstream taints the node NoSchedule by its condition at once
// (doNoScheduleTaintingPass), not-ready for False, unreachable for
// Unknown, and NoExecute with the same key unless the zone states hold it
// back.
type NodeDown uint8

const (
	// DownUnhandled: the node controller has not handled the node yet.
	// The model reads it as carrying both not-ready taints
	// (model.NotReadyTaints), a node whose kubelet reported it not Ready;
	// so is the real node.
	DownUnhandled NodeDown = iota
	// DownNotReady: Ready False, tainted not-ready NoSchedule and NoExecute.
	DownNotReady
	// DownUnreachable: Ready Unknown, tainted unreachable NoSchedule and
	// NoExecute.
	DownUnreachable
	// DownNotReadyHeld: Ready False, tainted not-ready NoSchedule, its
	// NoExecute taint held back.
	DownNotReadyHeld
	// DownUnreachableHeld: Ready Unknown, tainted unreachable NoSchedule,
	// its NoExecute taint held back.
	DownUnreachableHeld
	numNodeDown
)

func (d NodeDown) String() string {
	return [...]string{"unhandled", "not-ready", "unreachable", "not-ready held back", "unreachable held back"}[d]
}

// unreachable reports whether the node's Ready condition is Unknown.
func (d NodeDown) unreachable() bool { return d == DownUnreachable || d == DownUnreachableHeld }

// condition is the node's Ready condition.
func (d NodeDown) condition() v1.ConditionStatus {
	if d.unreachable() {
		return v1.ConditionUnknown
	}
	return v1.ConditionFalse
}

// taints are the node lifecycle controller's taints on the node.
func (d NodeDown) taints() []model.Taint {
	key := model.TaintNodeNotReady
	if d.unreachable() {
		key = model.TaintNodeUnreachable
	}
	out := []model.Taint{{Key: key, Effect: model.NoSchedule}}
	if d != DownNotReadyHeld && d != DownUnreachableHeld {
		out = append(out, model.Taint{Key: key, Effect: model.NoExecute})
	}
	return out
}

// modelStatus is the model's status of a node that is not Ready so
// handled: the Ready condition the node controller decided, and its
// NoExecute taint placed or held back (model.TaintQueued).
func (d NodeDown) modelStatus() model.NodeStatus {
	switch d {
	case DownNotReady:
		return model.NotReady.WithNodeDownTaint(0)
	case DownUnreachable:
		return model.NotReady.WithNodeDownTaint(1)
	case DownNotReadyHeld:
		return model.NotReady.WithHeldNodeDownTaint(0)
	case DownUnreachableHeld:
		return model.NotReady.WithHeldNodeDownTaint(1)
	}
	return model.NotReady
}

// downOf is the NodeDown of a model node of status st that is not Ready.
// A node whose NoExecute taint the zone states hold back before the node
// controller decided its condition (it does so only where no template
// tolerates the two keys differently) stopped reporting, as the model's
// node failures do.
func downOf(st model.NodeStatus) NodeDown {
	k, decided := st.NodeDownCondition()
	switch {
	case st.TaintIsQueued() && (!decided || k == 1):
		return DownUnreachableHeld
	case st.TaintIsQueued():
		return DownNotReadyHeld
	case decided && k == 1:
		return DownUnreachable
	case decided:
		return DownNotReady
	}
	return DownUnhandled
}
