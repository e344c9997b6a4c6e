package descheduler

// PodDisruptionBudgets inside the node-utilisation walk. Upstream's
// evictPods tries each pod of a source node in turn: a pod the Eviction
// API refuses is skipped, without taking its requests off the node's usage
// or the destinations' headroom and without counting against the node's
// limit, and the walk goes on with the next pod. The walk therefore plans
// with the budgets: a pod is refused when several budgets select it
// (500), or when the budget its eviction draws on has no disruption left
// after the walk's earlier evictions (429).
//
// The evictor's namespace limit acts the same way: a pod whose namespace
// has had its evictions is skipped uncharged and the walk goes on. So
// each namespace is a budget too, after the disruption budgets (index
// len(PDBs)+namespace), which every pod of the namespace draws on besides
// its disruption budget.

// Gates of a pod's eviction (walk.gate), besides a budget index ≥ 0 that
// it draws on.
const (
	gateFree    = -1 // the Eviction API decides without a budget: allowed
	gateRefused = -2 // always refused (several budgets select the pod)
)

// gate is what the Eviction API does with pod's eviction: gateFree,
// gateRefused, or the budget whose allowance it uses up.
func (w *walk) gate(pod int) int {
	if b := w.c.drawnBudget(pod); b >= 0 {
		return b
	}
	if _, multiple := w.c.u.BudgetOf(w.c.s, pod); multiple {
		return gateRefused
	}
	return gateFree
}

// budgetsLeft returns, per budget, how many more evictions the walk may
// plan that draw on it; the walk's earlier sources have used some. The
// disruption budgets come first, then the namespaces under the evictor's
// namespace limit.
func (w *walk) budgetsLeft() []int {
	if w.left == nil {
		e := &w.c.ev
		pdbs := len(w.c.u.PDBs)
		w.left = make([]int, pdbs+len(e.perNamespace))
		for b := range pdbs {
			w.left[b] = w.c.allowance(b)
		}
		for ns := range e.perNamespace {
			w.left[pdbs+ns] = e.namespaceQuotaLeft(ns)
		}
	}
	return w.left
}

// namespaceBudget is the budget of pod's namespace, -1 without a
// namespace limit.
func (w *walk) namespaceBudget(pod int) int {
	e := &w.c.ev
	if e.maxPerNamespace == 0 {
		return -1
	}
	return len(w.c.u.PDBs) + e.nsOf[w.c.s.Pods[pod].Template]
}

// refusedWith reports whether pod's eviction is refused once the node's
// walk has planned drawn[b] evictions drawing on each budget b.
func (w *walk) refusedWith(pod int, drawn []int) bool {
	left := w.budgetsLeft()
	if b := w.namespaceBudget(pod); b >= 0 && drawn[b] >= left[b] {
		return true
	}
	switch g := w.gate(pod); {
	case g == gateRefused:
		return true
	case g >= 0:
		return drawn[g] >= left[g]
	}
	return false
}

// draw counts pod's eviction against the budgets it draws on.
func (w *walk) draw(pod int, drawn []int) {
	if g := w.gate(pod); g >= 0 {
		drawn[g]++
	}
	if b := w.namespaceBudget(pod); b >= 0 {
		drawn[b]++
	}
}

// drawnBy counts, per budget, the pods of set whose evictions draw on it.
func (w *walk) drawnBy(set []int) []int {
	drawn := make([]int, len(w.budgetsLeft()))
	for _, pod := range set {
		w.draw(pod, drawn)
	}
	return drawn
}

// refusedAlong lists the eligible pods outside the evicted set that
// every walk order ending in set tries and sees refused: the pods left
// out of a class before set's last class (eligible's class ranks; they
// all come before); and when the walk ran out of pods rather than
// stopping (the condition still holds and no limit was reached), every
// pod left out. They are written as refused evictions after the set's.
func (w *walk) refusedAlong(nu *nodeUsage, pods []int, class []int, set []int, limit int) []int {
	in := make(map[int]bool, len(set))
	for _, pod := range set {
		in[pod] = true
	}
	lastClass := -1
	for i, pod := range pods {
		if in[pod] {
			lastClass = max(lastClass, class[i])
		}
	}
	used, avail := nu.used, w.avail
	for _, pod := range set {
		req := w.c.podRequests(pod)
		for k := range nRes {
			used[k] -= req[k]
			avail[k] -= req[k]
		}
	}
	ranOut := w.cont(nu, used, avail) && (limit < 0 || len(set) < limit)
	var out []int
	for i, pod := range pods {
		if !in[pod] && (ranOut || class[i] < lastClass) {
			out = append(out, pod)
		}
	}
	return out
}

// planBudgets records set's evictions against the budgets.
func (w *walk) planBudgets(set []int) {
	left := w.budgetsLeft()
	for b, k := range w.drawnBy(set) {
		left[b] -= k
	}
}
