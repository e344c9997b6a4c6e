package model

// Choosing among interchangeable nodes.
//
// When the checker stores states up to symmetry (reduction/symmetry), two
// successors that differ only in which of two interchangeable nodes a
// choice picked have the same canonical form: exploring one of them is
// enough. The System then gives the Tx the node orbits of the state the
// step starts from, and a process that branches over nodes branches over
// one node per orbit (Tx.ChooseNode), over pods up to the same symmetry
// (Tx.ChoosePods). Without symmetry the Tx has no orbits and every node
// stays a branch.
//
// A step may choose several times. After a choice, the nodes it told
// apart are no longer interchangeable for the rest of the run: the Tx
// refines its labels to the symmetries that fix what was chosen (the
// chosen node gets a label of its own; nodes that lost different pods
// are split), so that every later choice of the run is pruned only by
// symmetries that still hold. The orbit labels of the state are those of
// a product of symmetric groups (every permutation within a label class
// is a symmetry), and such refinements are exactly the stabilisers.

// NodeOrbits returns, for a state, each node's orbit label (in dst's
// array when it is large enough): two nodes have the same label when a
// symmetry of the state swaps them.
type NodeOrbits func(s *State, dst []int) []int

// SetNodeOrbits makes the coming runs of the Tx branch over one node per
// orbit of pre, the state the step starts from (nil orbits: every node
// is its own branch). Orbits are computed on first use.
func (tx *Tx) SetNodeOrbits(orbits NodeOrbits, pre *State) {
	tx.orbits, tx.orbitsOf, tx.orbitsKnown, tx.labelsFresh = orbits, pre, false, false
}

// SetKnownNodeOrbits is SetNodeOrbits for a state whose orbit labels
// are already known (labels, which the Tx copies): orbits is then never
// called for pre.
func (tx *Tx) SetKnownNodeOrbits(orbits NodeOrbits, pre *State, labels []int) {
	tx.SetNodeOrbits(orbits, pre)
	tx.baseLabels = append(tx.baseLabels[:0], labels...)
	tx.orbitsKnown = true
}

// orbitLabels returns the current run's labels: the state's orbits,
// refined by the run's earlier choices. nil when the Tx has no orbits.
func (tx *Tx) orbitLabels() []int {
	if tx.orbits == nil {
		return nil
	}
	if !tx.orbitsKnown {
		tx.baseLabels = tx.orbits(tx.orbitsOf, tx.baseLabels)
		tx.orbitsKnown = true
		tx.labelsFresh = false
	}
	if !tx.labelsFresh {
		tx.labels = append(tx.labels[:0], tx.baseLabels...)
		tx.nextLabel = 0
		for _, l := range tx.labels {
			tx.nextLabel = max(tx.nextLabel, l+1)
		}
		tx.labelsFresh = true
	}
	return tx.labels
}

// NodeOrbitLabels returns the run's node orbit labels as they stand
// (nil when the Tx has no orbits): two nodes with the same label are
// swapped by a symmetry of the state as the run has left it so far, the
// state the step started from refined by the run's choices. Until the
// step writes something that tells nodes apart, a process may compute
// what is a function of a node once per label. The slice is the Tx's:
// read it, do not keep it.
func (tx *Tx) NodeOrbitLabels() []int { return tx.orbitLabels() }

// freshLabel returns a label no node of the run carries.
func (tx *Tx) freshLabel() int {
	tx.nextLabel++
	return tx.nextLabel - 1
}

// individualize gives node n a label of its own when it shares one.
func (tx *Tx) individualize(n int) {
	labels := tx.orbitLabels()
	if labels == nil || n < 0 || n >= len(labels) {
		return
	}
	for m, l := range labels {
		if m != n && l == labels[n] {
			labels[n] = tx.freshLabel()
			return
		}
	}
}

// ChooseNode branches over the nodes (node indices): over one node per
// orbit when the Tx has orbits, the first of each in the order given, so
// that choice 0 is nodes[0]. The chosen node is told apart from its
// orbit for the rest of the run. nodes must not be empty.
func (tx *Tx) ChooseNode(nodes []int) int {
	return nodes[tx.ChooseNodeIndex(nodes)]
}

// ChooseNodeIndex is ChooseNode returning the chosen position in nodes.
// An entry below zero stands for something that is not one node (a
// topology domain of several nodes, say): it is never merged with
// another entry.
func (tx *Tx) ChooseNodeIndex(nodes []int) int {
	if len(nodes) < 2 {
		if len(nodes) == 1 {
			tx.individualize(nodes[0])
		}
		return 0
	}
	labels := tx.orbitLabels()
	if labels == nil {
		return tx.Choose(len(nodes))
	}
	kept := tx.onePerOrbit(nodes, labels)
	i := kept[tx.Choose(len(kept))]
	tx.individualize(nodes[i])
	return i
}

// ChooseNodeSet branches over the sets of k of the nodes (distinct node
// indices; 0 <= k <= len(nodes)) and returns the chosen set in the order
// of nodes, valid until the next call. Without orbits every set is one
// branch: the picks ascend, each among the nodes after the previous pick
// that leave enough for the rest, and choice 0 is the first k nodes.
//
// With orbits, the sets a symmetry of the state maps onto each other are
// one branch: the choice is how many nodes of each orbit go (orbits in
// the order of their first node in nodes; choice 0 takes as many as it
// can from the earliest), and the first ones of each orbit go. Every
// permutation within the orbits is a symmetry of the state, so any set
// with those counts is mapped onto the one taken, and the successors
// have one canonical form. Of an orbit split by the choice, the chosen
// nodes are told apart from the others for the rest of the run.
func (tx *Tx) ChooseNodeSet(nodes []int, k int) []int {
	out := tx.nodeSet[:0]
	defer func() { tx.nodeSet = out }()
	labels := tx.orbitLabels()
	if labels == nil {
		from := 0
		for picked := range k {
			last := len(nodes) - (k - picked) // the highest position this pick may take
			j := from + tx.Choose(last-from+1)
			out = append(out, nodes[j])
			from = j + 1
		}
		return out
	}
	// The orbits in order of their first node; members[o] are orbit o's
	// positions in nodes, in order.
	var orbitOf []int // label of each orbit
	var members [][]int
	for i, n := range nodes {
		o := -1
		for x, l := range orbitOf {
			if l == labels[n] {
				o = x
				break
			}
		}
		if o < 0 {
			orbitOf = append(orbitOf, labels[n])
			members = append(members, nil)
			o = len(orbitOf) - 1
		}
		members[o] = append(members[o], i)
	}
	take := tx.chooseCounts(members, k)
	chosen := make([]bool, len(nodes))
	for o, m := range members {
		for _, i := range m[:take[o]] {
			chosen[i] = true
		}
		if take[o] > 0 && take[o] < len(m) {
			l := tx.freshLabel()
			for _, i := range m[:take[o]] {
				labels[nodes[i]] = l
			}
		}
	}
	for i, n := range nodes {
		if chosen[i] {
			out = append(out, n)
		}
	}
	return out
}

// onePerOrbit returns the positions in nodes of the first node of each
// orbit, in order, with every entry below zero kept (tx.distinct's
// array). Labels are stamped into labelSeen with this call's generation
// rather than compared pairwise; a label outside the stamps' range (no
// NodeOrbits returns one, but the type allows it) falls back to
// onePerOrbitReference, which the property test compares it with.
func (tx *Tx) onePerOrbit(nodes, labels []int) []int {
	if len(tx.labelSeen) < tx.nextLabel {
		tx.labelSeen = make([]uint32, tx.nextLabel+len(labels))
		tx.labelGen = 0
	}
	tx.labelGen++
	if tx.labelGen == 0 {
		clear(tx.labelSeen)
		tx.labelGen = 1
	}
	kept := tx.distinct[:0]
	for i, n := range nodes {
		if n >= 0 {
			l := labels[n]
			if l < 0 || l >= len(tx.labelSeen) {
				tx.distinct = onePerOrbitReference(kept[:0], nodes, labels)
				return tx.distinct
			}
			if tx.labelSeen[l] == tx.labelGen {
				continue
			}
			tx.labelSeen[l] = tx.labelGen
		}
		kept = append(kept, i)
	}
	tx.distinct = kept
	return kept
}

// onePerOrbitReference is onePerOrbit by pairwise comparison, appended
// to kept.
func onePerOrbitReference(kept, nodes, labels []int) []int {
	for i, n := range nodes {
		dup := false
		if n >= 0 {
			for _, j := range kept {
				if m := nodes[j]; m >= 0 && labels[m] == labels[n] {
					dup = true
					break
				}
			}
		}
		if !dup {
			kept = append(kept, i)
		}
	}
	return kept
}
