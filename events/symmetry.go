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

// SymmetryFacts: podCpuChangeWithPattern applies every due pod's next
// usage in slot order and queues each owner for the HPA (cpupattern.go);
// with two or more deployments the HPA queue order, which decides which
// rescale ends the HPA's drain, follows pod slots.
func (CPUPattern) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	if !u.HasPatterns || !u.HasHPA || len(u.Deployments) < 2 {
		return nil
	}
	return []model.SymmetryFact{{Rule: "CPUPatternSlotOrder", PodSlotsInOrder: true, Reason: fmt.Sprintf(
		"CPU patterns queue the owners of %d deployments for the HPA in pod slot order", len(u.Deployments))}}
}

var _ model.SymmetryBreaker = Drain{}

// SymmetryFacts: a drain names its nodes (and drains them in the event's
// order). When a disruption budget selects pods, a drain's round of
// evictions on one node, checked pod slot by pod slot, lets the budget's
// last allowed disruption go to the lowest slot, so pod slots stay in
// place, as for the descheduler's evictions. Without a budget, a round
// still evicts a node's pods in slot order, and with two or more
// deployments their owners reach the deployment queue in that order (as
// with the node controller's evictions): pod slots stay in place too.
func (d Drain) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	e := &u.Events[d.event]
	out := []model.SymmetryFact{{Rule: "DrainTarget", PinnedNodes: slices.Clone(e.Nodes), Reason: "a drain event names the nodes it drains"}}
	switch {
	case !e.Drain.DisableEviction && u.BudgetsSelectPods():
		out = append(out, model.SymmetryFact{Rule: "DrainDisruptionBudgets", PodSlotsInOrder: true, Reason: fmt.Sprintf(
			"%d PodDisruptionBudget(s) can refuse a drain's slot-ordered evictions part way", len(u.PDBs))})
	case len(u.Deployments) > 1:
		out = append(out, model.SymmetryFact{Rule: "DrainSlotOrder", PodSlotsInOrder: true, Reason: fmt.Sprintf(
			"a drain evicts a node's pods of %d deployments in slot order, which queues their owners in that order", len(u.Deployments))})
	}
	return out
}
