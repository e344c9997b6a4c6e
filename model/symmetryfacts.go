package model

// SymmetryFact is one way a process's behaviour refers to nodes or pod
// slots by identity or index order in a universe, which the symmetry
// reduction (reduction/symmetry) must respect: states that differ by
// permuting such nodes or slots are not interchangeable for it.
// Controllers and events declare their facts next to their behaviour
// (SymmetryBreaker), as they declare footprints for partial-order
// reduction.
// LowestIndexTieBreakRule is the rule of the scheduler's fact under
// LowestIndex (Kivi's tie-break among nodes and pods): the quick pass
// of a verification relaxes it (compose).
const LowestIndexTieBreakRule = "LowestIndexTieBreak"

type SymmetryFact struct {
	// Rule names the fact (for reports and tests); Reason says it for
	// people.
	Rule, Reason string
	// NodesInIndexOrder: the process reads nodes in index order in a way
	// that changes what is reachable (no node symmetry at all).
	NodesInIndexOrder bool
	// PinnedNodes are nodes the process names by identity: they keep
	// their place.
	PinnedNodes []int
	// PodSlotsInOrder: the process reads pod slots in an order that
	// changes what is reachable (pod slots stay fixed; nodes may still be
	// permuted).
	PodSlotsInOrder bool
	// JobIndexesByValue: the process reads Indexed Jobs' completion
	// indexes by value, not only by their order among the indexes not
	// finished (reduction/symmetry relabels them otherwise).
	JobIndexesByValue bool
}

// SymmetryBreaker is an optional interface of a Process: the symmetry
// facts of its behaviour in u (none when it returns nil).
type SymmetryBreaker interface {
	SymmetryFacts(u *Universe) []SymmetryFact
}

// SymmetryFactsOf gathers the facts of every process that declares some.
func SymmetryFactsOf(u *Universe, ps []Process) []SymmetryFact {
	var out []SymmetryFact
	for _, p := range ps {
		if b, ok := p.(SymmetryBreaker); ok {
			out = append(out, b.SymmetryFacts(u)...)
		}
	}
	return out
}
