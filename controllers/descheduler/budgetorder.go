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
// as the walk goes, in the order chosen; a total or namespace limit is
// one more thing that can run out among the units, as a budget's
// allowance does (walkResources), so the same branching covers it.

// budgetUnit is one unit of an ordered walk: the pods it will try to
// evict, and the node it stands for (-1: not one node).
type budgetUnit struct {
	node int
	pods []int
}

// allowance is what is left of budget b's disruptionsAllowed in this
// cycle, as the Eviction API checks it (BudgetStatus).
func (c *cycle) allowance(b int) int {
	return c.BudgetStatus(b).DisruptionsAllowed
}

// draws counts, per budget, the pods of ps whose eviction uses up one of
// its disruptions.
func (c *cycle) draws(ps []int, into []int) []int {
	into = append(into[:0], make([]int, len(c.u.PDBs))...)
	for _, p := range ps {
		if b := c.drawnBudget(p); b >= 0 {
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
// A total or namespace eviction limit couples the units as a budget
// does (walkResources), and the walk branches where one runs out.
func (c *cycle) inBudgetOrder(units []budgetUnit, through bool, visit func(i int, pods []int) bool) {
	left := make([]int, 0, len(units))
	for i := range units {
		if len(units[i].pods) > 0 {
			left = append(left, i)
		}
	}
	res := c.walkResources()
	if res.count() == 0 {
		for _, i := range left {
			if visit(i, units[i].pods) {
				return
			}
		}
		return
	}
	draws := make([][]int, len(units))
	for _, i := range left {
		draws[i] = res.draws(c, units[i], nil)
	}
	allow := make([]int, res.count())
	order := walkOrder{last: -1}
	var nodes []int
	for len(left) > 0 {
		for r := range allow {
			allow[r] = res.allowance(c, r)
		}
		// Once nothing can run out among the units left, their order
		// changes nothing.
		if !scarce(allow, draws, left, nil) {
			for _, i := range left {
				if visit(i, units[i].pods) {
					return
				}
			}
			return
		}
		// cuts reports whether unit i may use up what is left of some
		// resource (of a budget only, with budgets).
		cuts := func(i int, budgets bool) bool {
			return usesUp(allow, draws[i], func(r int) bool { return !budgets || r < res.budgets })
		}
		nodes = nodes[:0]
		for _, i := range left {
			nodes = append(nodes, units[i].node)
		}
		k := order.next(c, left, nodes, func(k int) bool { return cuts(left[k], false) })
		i := left[k]
		pods := units[i].pods
		if through && cuts(i, true) {
			pods = c.tx.ThroughFirst(c.s, pods, c.drawnBudget, func(b int) int { return allow[b] })
		}
		left = append(left[:k], left[k+1:]...)
		if visit(i, pods) {
			return
		}
	}
}

// walkOrder picks the units of a walk one at a time in an order upstream
// may take (see above): a unit that cuts may come at any point, and runs
// of the others go in ascending order of their keys, a run ending where a
// unit that cuts is taken. When every unit left lies below the run so
// far, a new run starts: that order's evictions are another branch's, but
// the walk finishes all the same.
type walkOrder struct {
	last         int
	offer, nodes []int
}

// next returns the position in keys (ascending) of the unit to visit
// next, branching over the units offered one node per orbit
// (model.Tx.ChooseNodeIndex; nodes[k] is unit k's node, -1 for a unit
// that is not one node); cuts(k) tells whether unit k cuts. With Kivi's
// tie-break the first unit offered is taken.
func (w *walkOrder) next(c *cycle, keys, nodes []int, cuts func(k int) bool) int {
	for {
		w.offer, w.nodes = w.offer[:0], w.nodes[:0]
		for k, key := range keys {
			if key > w.last || cuts(k) {
				w.offer = append(w.offer, k)
				w.nodes = append(w.nodes, nodes[k])
			}
		}
		if len(w.offer) > 0 {
			break
		}
		w.last = -1
	}
	pick := 0
	if c.u.Options.TieBreak != model.LowestIndex {
		pick = c.tx.ChooseNodeIndex(w.nodes)
	}
	k := w.offer[pick]
	if cuts(k) {
		w.last = -1
	} else {
		w.last = keys[k]
	}
	return k
}

// walkResources are what the units of a walk draw on and what may run
// out among them: each disruption budget (its disruptionsAllowed), then
// the cycle's total eviction limit, then each namespace's limit. A
// per-node limit is per node: it couples no two nodes.
type walkResources struct {
	budgets    int
	total      bool
	namespaces int
}

func (c *cycle) walkResources() walkResources {
	w := walkResources{budgets: len(c.u.PDBs)}
	if c.ev.zeroLimit {
		// Nothing is admitted: no order lets anything through.
		return walkResources{}
	}
	w.total = c.ev.maxTotal > 0
	if c.ev.maxPerNamespace > 0 {
		w.namespaces = len(c.ev.perNamespace)
	}
	return w
}

// count is the number of resources.
func (w walkResources) count() int { return w.firstNamespace() + w.namespaces }

// allowance is what is left of resource r.
func (w walkResources) allowance(c *cycle, r int) int {
	switch {
	case r < w.budgets:
		return c.allowance(r)
	case w.total && r == w.budgets:
		return max(0, c.ev.maxTotal-c.ev.total)
	}
	return c.ev.namespaceQuotaLeft(r - w.firstNamespace())
}

// draws counts, per resource, how much of it the unit's evictions may
// take at most: for a budget, its pods whose eviction uses one of its
// disruptions; for the limits, its pods (a node's no more than its
// per-node limit leaves). An upper bound is enough: a unit is taken as
// commuting with the others only when even that fits.
func (w walkResources) draws(c *cycle, u budgetUnit, into []int) []int {
	into = append(c.draws(u.pods, into)[:w.budgets], make([]int, w.count()-w.budgets)...)
	n := len(u.pods)
	if u.node >= 0 && c.ev.maxPerNode > 0 {
		n = min(n, max(0, c.ev.maxPerNode-c.ev.perNode[u.node]))
	}
	if w.total {
		into[w.budgets] = n
	}
	if w.namespaces > 0 {
		base := w.firstNamespace()
		for _, p := range u.pods {
			into[base+c.ev.nsOf[c.s.Pods[p].Template]]++
		}
		if n < len(u.pods) {
			for k := base; k < len(into); k++ {
				into[k] = min(into[k], n)
			}
		}
	}
	return into
}

// firstNamespace is the index of the first namespace's limit among the
// resources.
func (w walkResources) firstNamespace() int {
	if w.total {
		return w.budgets + 1
	}
	return w.budgets
}

// scarce reports whether some resource may run out among the units listed:
// something of it is left (allow) and their draws ask for more. With into
// (one entry per resource) it marks which.
func scarce(allow []int, draws [][]int, units []int, into []bool) bool {
	any := false
	for r, a := range allow {
		if a <= 0 {
			continue
		}
		sum := 0
		for _, i := range units {
			sum += draws[i][r]
		}
		if sum > a {
			any = true
			if into == nil {
				return true
			}
			into[r] = true
		}
	}
	return any
}

// usesUp reports whether a unit's draw may use up what is left (allow) of
// some resource r that counts.
func usesUp(allow, draw []int, counts func(r int) bool) bool {
	for r, k := range draw {
		if counts(r) && k > 0 && allow[r] > 0 && k >= allow[r] {
			return true
		}
	}
	return false
}
