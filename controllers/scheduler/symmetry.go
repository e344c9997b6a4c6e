package scheduler

import "github.com/kivi-go/kivi/model"

var _ model.SymmetryBreaker = Scheduler{}

// SymmetryFacts: with model.LowestIndex the scheduler binds to the first
// top-scoring node in index order (pickHost), so a pod lands on a
// different node's content after a permutation; and every choice among
// tied pods that differ (the deployment controller's scale-down victims
// on different nodes, the descheduler's, the kubelet's preemption for a
// critical pod) takes the lowest slots (model.Tx.ChoosePods), so pod
// slots stay in place too.
func (Scheduler) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	if u.Options.TieBreak != model.LowestIndex {
		return nil
	}
	return []model.SymmetryFact{{Rule: model.LowestIndexTieBreakRule, NodesInIndexOrder: true, PodSlotsInOrder: true,
		Reason: "ties among nodes and among pods are broken by the lowest index and slot"}}
}
