package nodelifecycle

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

var _ model.SymmetryBreaker = (*NodeController)(nil)

// SymmetryFacts: under Kivi's lifecycle the node controller evicts a
// failed node's pods in slot order (nodecontroller.go), so with two or
// more deployments the owners reach the kubelet queue, and from there the
// deployment and HPA queues, in slot order. Only events that take a node
// down wake it. With one deployment the order only permutes Terminating
// pods of one owner in the kubelet queue, which the kubelet drains in one
// step with the same result. Under Kubernetes' lifecycle the evictions
// go in owner order (model.NodePodsInOwnerOrder), which slots do not decide.
func (*NodeController) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	if len(u.Deployments) < 2 || !u.Options.KiviLifecycle {
		return nil
	}
	for _, e := range u.Events {
		switch e.Kind {
		case model.KernelPanic, model.Maintenance, model.NodeFailure:
			return []model.SymmetryFact{{Rule: "NodeControllerSlotOrder", PodSlotsInOrder: true, Reason: fmt.Sprintf(
				"%s takes nodes down and the node controller evicts their pods of %d deployments in slot order",
				e.Kind, len(u.Deployments))}}
		}
	}
	return nil
}
