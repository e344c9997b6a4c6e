package descheduler

import "github.com/kivi-go/kivi/model"

// The order of a walk under PodDisruptionBudgets.
//
// RemoveDuplicates walks each owner's nodes in map order (for nodeName,
// pods := range podNodes) and the owners in map order too;
// RemovePodsViolatingNodeTaints and RemovePodsViolatingNodeAffinity walk
// the node list the informer's lister returned. None of these orders is
// one an operator can rely on, and without budgets none of them matters:
// each node's evictions depend on that node alone (the per-node limit is
// per node). A budget couples them: it lets through only so many
// evictions, so the units visited first take them and the later ones are
// refused. The cycle therefore branches over the order, where and only
// where it matters, and the outcome never depends on node indices or
// pod slots:
//
//   - a unit (a node of a walk, an owner of RemoveDuplicates) whose pods
//     every budget either lets through entirely with some allowance to
//     spare, or refuses entirely (its allowance is used up), commutes with
//     any other such unit: visiting two of them in either order ends in
//     the same state. Runs of such units are taken in index order, so
//     that a set of them is one branch, not one per order;
//   - a unit that uses up some budget's allowance (it draws at least what
//     is left) is where that budget runs out: it can come at any point,
//     and which of its pods go is a choice (model.Tx.ThroughFirst);
//   - once no budget can run out among the units left (each either
//     allows all that draw on it or nothing), they are visited in index
//     order with no choice.
//
// Every order upstream may take is, up to swapping adjacent commuting
// units, one of these branches, and each branch is such an order, so the
// reachable evictions are exactly upstream's. Nodes are chosen up to
// symmetry (model.Tx.ChooseNodeIndex: one node per orbit); owners are not
// nodes and are never merged. With Kivi's tie-break the first offered
// unit is taken, which is the index order. Eviction limits are applied
// as the walk goes, in the order chosen (a total or namespace limit
// cutting the walk is DeschedulerLimitedNodeWalk's business).

// budgetUnit is one unit of an ordered walk: the pods it will try to
// evict, and the node it stands for (-1: not one node).
type budgetUnit struct {
	node int
	pods []int
}

// allowance is what is left of budget b's disruptionsAllowed in this
// cycle: the disruption controller's status less the evictions admitted
// and not yet carried out (refusedByBudget counts them the same way).
func (c *cycle) allowance(b int) int {
	st := c.u.Disruption(c.s, b)
	taken := 0
	for _, q := range c.ev.pending {
		if c.s.Pods[q].Ready() && c.u.PDBs[b].Selects(c.s, q) {
			taken++
		}
	}
	return max(0, st.DisruptionsAllowed-taken)
}

// draws counts, per budget, the pods of ps whose eviction uses up one of
// its disruptions.
func (c *cycle) draws(ps []int, into []int) []int {
	into = append(into[:0], make([]int, len(c.u.PDBs))...)
	for _, p := range ps {
		if b := c.u.DrawnBudget(c.s, p); b >= 0 {
			into[b]++
		}
	}
	return into
}

// inBudgetOrder visits units in an order upstream may take (see above).
// visit gets the unit and its pods and returns true to stop the walk (a
// total limit). With through, a unit where a budget runs out gets its
// pods reordered so that the ones the budget lets through come first
// (model.Tx.ThroughFirst); without, the unit's own visit decides that
// (an owner of RemoveDuplicates walks its nodes in budget order in turn).
func (c *cycle) inBudgetOrder(units []budgetUnit, through bool, visit func(i int, pods []int) bool) {
	left := make([]int, 0, len(units))
	for i := range units {
		if len(units[i].pods) > 0 {
			left = append(left, i)
		}
	}
	if len(c.u.PDBs) == 0 {
		for _, i := range left {
			if visit(i, units[i].pods) {
				return
			}
		}
		return
	}
	draws := make([][]int, len(units))
	for _, i := range left {
		draws[i] = c.draws(units[i].pods, nil)
	}
	allow := make([]int, len(c.u.PDBs))
	sum := make([]int, len(c.u.PDBs))
	last := -1
	var offer, nodes []int
	for len(left) > 0 {
		for b := range allow {
			allow[b] = c.allowance(b)
			sum[b] = 0
		}
		for _, i := range left {
			for b, k := range draws[i] {
				sum[b] += k
			}
		}
		// Once no budget can run out among the units left, their order
		// changes nothing.
		contested := false
		for b, a := range allow {
			contested = contested || a > 0 && sum[b] > a
		}
		if !contested {
			for _, i := range left {
				if visit(i, units[i].pods) {
					return
				}
			}
			return
		}
		cuts := func(i int) bool {
			for b, k := range draws[i] {
				if k > 0 && allow[b] > 0 && k >= allow[b] {
					return true
				}
			}
			return false
		}
		offer, nodes = offer[:0], nodes[:0]
		for _, i := range left {
			if i > last || cuts(i) {
				offer = append(offer, i)
				nodes = append(nodes, units[i].node)
			}
		}
		if len(offer) == 0 {
			// Every unit left commutes and lies below the run so far:
			// this order's evictions are another branch's; finish it
			// all the same.
			last = -1
			continue
		}
		pick := 0
		if c.u.Options.TieBreak != model.LowestIndex {
			pick = c.tx.ChooseNodeIndex(nodes)
		}
		i := offer[pick]
		pods := units[i].pods
		if cuts(i) {
			last = -1
			if through {
				pods = c.tx.ThroughFirst(c.s, pods, func(b int) int { return allow[b] })
			}
		} else {
			last = i
		}
		for k, j := range left {
			if j == i {
				left = append(left[:k], left[k+1:]...)
				break
			}
		}
		if visit(i, pods) {
			return
		}
	}
}
