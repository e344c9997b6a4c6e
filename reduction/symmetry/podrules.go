package symmetry

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// podRule is one way in which the model still reads pod slots in an order
// that changes what is reachable. When one fires, pod slots stay fixed and
// only nodes are permuted (Decision.PodsFixed).
type podRule interface {
	Name() string
	Decide(u *model.Universe) Decision
}

// podRules are every pod-symmetry breaker, checked in this order.
func podRules() []podRule {
	return []podRule{
		deschedulerEvictionLimits{},
		nodeControllerSlotOrder{},
		cpuPatternSlotOrder{},
	}
}

// deschedulerEvictionLimits: the descheduler branches over which tied pods
// it evicts, then evicts its plan by owner and in slot order; a per-node,
// namespace or total limit cuts that order short, so which of the chosen
// pods go depends on their slots (controllers/descheduler/evictor.go).
type deschedulerEvictionLimits struct{}

func (deschedulerEvictionLimits) Name() string { return "DeschedulerEvictionLimits" }

func (r deschedulerEvictionLimits) Decide(u *model.Universe) Decision {
	d := u.Descheduler
	if d == nil || (d.MaxPerNode == 0 && d.MaxPerNamespace == 0 && d.MaxTotal == 0) {
		return Decision{}
	}
	return Decision{Rule: r.Name(), PodsFixed: true, Reason: fmt.Sprintf(
		"eviction limits (node %d, namespace %d, total %d) cut the descheduler's slot-ordered evictions short",
		d.MaxPerNode, d.MaxPerNamespace, d.MaxTotal)}
}

// nodeControllerSlotOrder: the node controller evicts a failed node's pods
// in slot order (controllers/nodelifecycle/nodecontroller.go), so with two
// or more deployments the owners reach the kubelet queue, and from there
// the deployment and HPA queues, in slot order. Only events that take a
// node down wake it. With one deployment the order only permutes
// Terminating pods of one owner in the kubelet queue, which the kubelet
// drains in one step with the same result (docs/divergences.md ("Node and pod-slot symmetry reduction")).
type nodeControllerSlotOrder struct{}

func (nodeControllerSlotOrder) Name() string { return "NodeControllerSlotOrder" }

func (r nodeControllerSlotOrder) Decide(u *model.Universe) Decision {
	if len(u.Deployments) < 2 {
		return Decision{}
	}
	for _, e := range u.Events {
		switch e.Kind {
		case model.KernelPanic, model.Maintenance, model.NodeFailure:
			return Decision{Rule: r.Name(), PodsFixed: true, Reason: fmt.Sprintf(
				"%s takes nodes down and the node controller evicts their pods of %d deployments in slot order",
				e.Kind, len(u.Deployments))}
		}
	}
	return Decision{}
}

// cpuPatternSlotOrder: podCpuChangeWithPattern applies every due pod's
// next usage in slot order and queues each owner for the HPA
// (events/cpupattern.go); with two or more deployments the HPA queue order,
// which decides which rescale ends the HPA's drain, follows pod slots.
type cpuPatternSlotOrder struct{}

func (cpuPatternSlotOrder) Name() string { return "CPUPatternSlotOrder" }

func (r cpuPatternSlotOrder) Decide(u *model.Universe) Decision {
	if !u.HasPatterns || !u.HasHPA || len(u.Deployments) < 2 {
		return Decision{}
	}
	return Decision{Rule: r.Name(), PodsFixed: true, Reason: fmt.Sprintf(
		"CPU patterns queue the owners of %d deployments for the HPA in pod slot order", len(u.Deployments))}
}
