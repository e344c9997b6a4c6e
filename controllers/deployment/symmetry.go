package deployment

import "github.com/kivi-go/kivi/model"

var _ model.SymmetryBreaker = (*Controller)(nil)

// SymmetryFacts: a template's nodeName binds its pods to one node without
// the scheduler (replicaset.go), so that node is named by identity.
func (*Controller) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	var pinned []int
	for _, t := range u.Templates {
		if t.NodeName > 0 {
			pinned = append(pinned, t.NodeName-1)
		}
	}
	if len(pinned) == 0 {
		return nil
	}
	return []model.SymmetryFact{{Rule: "NodeNamePin", PinnedNodes: pinned, Reason: "a pod template's nodeName names the node"}}
}
