package model

// Choosing among interchangeable nodes.
//
// When the checker stores states up to symmetry (model/symmetry), two
// successors that differ only in which of two interchangeable nodes a
// choice picked have the same canonical form: exploring one of them is
// enough. The System then gives the Tx the node orbits of the state the
// step starts from, and a process that branches over nodes branches over
// one node per orbit (Tx.DistinctNodes). Without symmetry the Tx has no
// orbits and every node stays a branch.

// NodeOrbits returns, for a state, each node's orbit label (in dst's
// array when it is large enough): two nodes have the same label when a
// symmetry of the state swaps them.
type NodeOrbits func(s *State, dst []int) []int

// SetNodeOrbits makes the coming runs of the Tx branch over one node per
// orbit of pre, the state the step starts from (nil orbits: every node
// is its own branch). Orbits are computed on first use.
func (tx *Tx) SetNodeOrbits(orbits NodeOrbits, pre *State) {
	tx.orbits, tx.orbitsOf, tx.orbitsKnown = orbits, pre, false
}

// DistinctNodes returns the first node of each orbit among nodes, in
// their order: nodes itself when the Tx has no orbits, otherwise a slice
// of the Tx's own that stays valid until the next call. nodes is not
// modified.
func (tx *Tx) DistinctNodes(nodes []int) []int {
	if tx.orbits == nil || len(nodes) < 2 {
		return nodes
	}
	if !tx.orbitsKnown {
		tx.orbitLabels = tx.orbits(tx.orbitsOf, tx.orbitLabels)
		tx.orbitsKnown = true
	}
	labels := tx.orbitLabels
	kept := tx.distinct[:0]
	for _, n := range nodes {
		dup := false
		for _, m := range kept {
			if labels[m] == labels[n] {
				dup = true
				break
			}
		}
		if !dup {
			kept = append(kept, n)
		}
	}
	tx.distinct = kept
	return kept
}
