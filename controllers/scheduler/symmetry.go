package scheduler

import "github.com/kivi-go/kivi/model"

var _ model.SymmetryBreaker = Scheduler{}

// SymmetryFacts: with model.LowestIndex the scheduler binds to the first
// top-scoring node in index order (pickHost), so a pod lands on a
// different node's content after a permutation.
func (Scheduler) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	if u.Options.TieBreak != model.LowestIndex {
		return nil
	}
	return []model.SymmetryFact{{Rule: "LowestIndexTieBreak", NodesInIndexOrder: true,
		Reason: "the scheduler takes the lowest-index node among ties"}}
}
