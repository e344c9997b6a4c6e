package descheduler

import (
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/model"
)

var _ model.SymmetryBreaker = (*Controller)(nil)

// SymmetryFacts of the descheduler:
//   - RemoveDuplicates lists duplicates walking the Ready nodes in index
//     order and evicts in that order (removeduplicates.go); with a total
//     or namespace eviction limit the walk is cut short, so the nodes with
//     the lowest indices lose their duplicates first. Without those limits
//     every node's evictions depend on that node alone (the per-node limit
//     is per node) and the order only changes trace lines.
//   - It branches over which tied pods it evicts, then evicts its plan by
//     owner and in slot order (evictor.go); a per-node, namespace or total
//     limit cuts that order short, so which of the chosen pods go depends
//     on their slots.
//   - LowNodeUtilization and HighNodeUtilization need no fact of their
//     own: they branch over which of the equally used source nodes comes
//     next (orbits merged) and over every set of a node's pods some walk
//     order evicts, cut to the limits before it is chosen
//     (nodeutilization.go); node indices only order the choices, and pods
//     are counted by identical groups. Kivi's tie-break (node index order,
//     the slot-order walk) switches symmetry off anyway.
func (*Controller) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	d := u.Descheduler
	if d == nil {
		return nil
	}
	var out []model.SymmetryFact
	if d.MaxTotal != 0 || d.MaxPerNamespace != 0 {
		for _, p := range d.Profiles {
			if slices.Contains(p.Balance, model.RemoveDuplicates) {
				out = append(out, model.SymmetryFact{Rule: "DeschedulerLimitedNodeWalk", NodesInIndexOrder: true, Reason: fmt.Sprintf(
					"profile %q runs RemoveDuplicates in node index order under a total (%d) or namespace (%d) eviction limit",
					p.Name, d.MaxTotal, d.MaxPerNamespace)})
				break
			}
		}
	}
	if d.MaxPerNode != 0 || d.MaxPerNamespace != 0 || d.MaxTotal != 0 {
		out = append(out, model.SymmetryFact{Rule: "DeschedulerEvictionLimits", PodSlotsInOrder: true, Reason: fmt.Sprintf(
			"eviction limits (node %d, namespace %d, total %d) cut the descheduler's slot-ordered evictions short",
			d.MaxPerNode, d.MaxPerNamespace, d.MaxTotal)})
	}
	return append(out, budgetSymmetryFacts(u)...)
}
