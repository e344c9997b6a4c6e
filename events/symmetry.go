package events

import (
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/model"
)

var (
	_ model.SymmetryBreaker = NodeFailure{}
	_ model.SymmetryBreaker = CPUPattern{}
)

// SymmetryFacts: nodeFailure(i) takes one given node down.
func (f NodeFailure) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	return []model.SymmetryFact{{Rule: "NodeFailureTarget", PinnedNodes: []int{u.Events[f.event].Node},
		Reason: "a nodeFailure event names the node"}}
}

// SymmetryFacts: under Kivi's lifecycle podCpuChangeWithPattern applies
// every due pod's next usage in slot order and queues each owner for the
// HPA (cpupattern.go); with two or more deployments the HPA queue order,
// which decides which rescale ends the HPA's drain, follows pod slots.
// Under Kubernetes' lifecycle it goes in owner order, which pod slots do
// not decide.
func (CPUPattern) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	if !u.HasPatterns || !u.HasHPA || len(u.Deployments) < 2 || !u.Options.KiviLifecycle {
		return nil
	}
	return []model.SymmetryFact{{Rule: "CPUPatternSlotOrder", PodSlotsInOrder: true, Reason: fmt.Sprintf(
		"CPU patterns queue the owners of %d deployments for the HPA in pod slot order", len(u.Deployments))}}
}

var _ model.SymmetryBreaker = Drain{}

// SymmetryFacts: a drain names its nodes (and drains them in the event's
// order). Which pods of a node a disruption budget lets through in one
// round of evictions is a choice over the pods' contents
// (model.Tx.ThroughFirst), so pod slots may move.
func (d Drain) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	e := &u.Events[d.event]
	return []model.SymmetryFact{{Rule: "DrainTarget", PinnedNodes: slices.Clone(e.Nodes), Reason: "a drain event names the nodes it drains"}}
}

var _ model.SymmetryBreaker = DeleteNode{}

// SymmetryFacts: deleteNode names its node.
func (d DeleteNode) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	return []model.SymmetryFact{{Rule: "DeleteNodeTarget", PinnedNodes: []int{u.Events[d.event].Node},
		Reason: "a deleteNode event names the node"}}
}
