package scheduler

// Filtering and scoring once per orbit. When the checker explores states
// up to symmetry, the nodes of one orbit of the state (model.Tx's node
// orbit labels) are swapped by a symmetry that fixes the pod being
// scheduled (the head of the scheduling queue, which every symmetry of
// the state keeps in place). The plugins are equivariant (the reduction
// rests on it), so such nodes get the same verdict and the same raw
// scores: the cycle computes them for the first node of each orbit and
// copies them to the others. On a cluster of hundreds of alike nodes
// that is a handful of evaluations instead of hundreds. The
// normalisations still see every feasible node, so the totals are those
// of every node evaluated (TestSchedulerOncePerOrbit compares the
// two on reachable states of the symmetric clusters).

// orbitFirsts returns, for the cycle's filter, a table from orbit label
// to the first node of that label filtered so far (-1 while none), or nil
// when every node is to be filtered: no orbits, or a profile other than
// the default one.
func (c *cycle) orbitFirsts(pr *profile) []int32 {
	if c.orbits == nil || !pr.standard || len(c.orbits) != len(c.u.Nodes) {
		return nil
	}
	return c.labelTable()
}

// scoreReps fills raw with default-profile score plugin k's raw scores
// of the feasible nodes (standardScores), computing them for the nodes
// orbitReps listed and copying them to the rest of their orbits.
func (c *cycle) scoreReps(k int, raw []int64) {
	all := c.feasible
	c.feasible = c.reps
	c.repRaw = grow(c.repRaw, len(c.reps))
	c.standardScores(k, c.repRaw)
	c.feasible = all
	for j := range raw {
		raw[j] = c.repRaw[c.repOf[j]]
	}
}

// orbitReps lists in c.reps the first feasible node of each orbit and in
// c.repOf, for each feasible node, its orbit's position in c.reps. It
// reports false when scoring once per orbit saves nothing (no orbits, or
// no two feasible nodes share one).
func (c *cycle) orbitReps() bool {
	if c.orbits == nil || len(c.orbits) != len(c.u.Nodes) {
		return false
	}
	// at[l] is label l's position in reps (-1 while it has none).
	at := c.labelTable()
	c.reps = c.reps[:0]
	c.repOf = grow(c.repOf, len(c.feasible))
	for j, n := range c.feasible {
		l := c.orbits[n]
		if at[l] < 0 {
			at[l] = int32(len(c.reps))
			c.reps = append(c.reps, n)
		}
		c.repOf[j] = at[l]
	}
	return len(c.reps) < len(c.feasible)
}

// labelTable returns c.orbitFirst sized for the cycle's labels, every
// entry -1.
func (c *cycle) labelTable() []int32 {
	top := 0
	for _, l := range c.orbits {
		top = max(top, l)
	}
	c.orbitFirst = grow(c.orbitFirst, top+1)
	for i := range c.orbitFirst {
		c.orbitFirst[i] = -1
	}
	return c.orbitFirst
}
