package model

// Evictions sent together. kubectl drain sends the evictions of a node's
// pods at once (one goroutine per pod), and the descheduler's plugins send
// theirs in map or informer order: which of them a PodDisruptionBudget lets
// through, when it allows fewer than draw on it, is up to the order in
// which the API server sees them, which nobody controls. Controllers
// branch over it (ThroughFirst), so that the outcome is a function of the
// pods' contents, not of their slots.

// EvictionView is what an Eviction API check reads besides the pods'
// phases and labels: pod slot i's readiness (IsPodReady) and budget b's
// status at the instant of the check. StateView reads both from the
// state; the descheduler's cycle also reads pods that may be
// crash-looping and the disruptions its earlier evictions took.
type EvictionView interface {
	PodReady(i int) bool
	BudgetStatus(b int) DisruptionStatus
}

// StateView is the EvictionView of a state: readiness as the state holds
// it, and the status an up-to-date disruption controller computes
// (Universe.Disruption).
type StateView struct {
	U *Universe
	S *State
}

func (v StateView) PodReady(i int) bool                 { return v.S.Pods[i].Ready() }
func (v StateView) BudgetStatus(b int) DisruptionStatus { return v.U.Disruption(v.S, b) }

// DrawnBudget is the budget whose disruptionsAllowed the eviction of pod
// slot i of s uses up (CheckEviction's checkAndDecrement), or -1 when the
// Eviction API decides without one: a pod that is not Running (deleted
// without looking at budgets), no budget selecting it (allowed), or more
// than one (always refused, 500), or a pod that is not Ready and that
// its budget's unhealthyPodEvictionPolicy lets go without it
// (EvictionDecision).
func (u *Universe) DrawnBudget(s *State, i int) int { return u.DrawnBudgetIn(s, i, StateView{u, s}) }

// DrawnBudgetIn is DrawnBudget with readiness and statuses read from v.
func (u *Universe) DrawnBudgetIn(s *State, i int, v EvictionView) int {
	b, multiple := u.BudgetOf(s, i)
	if b < 0 || multiple || !v.PodReady(i) && v.BudgetStatus(b).LetsUnhealthyGo(u.PDBs[b].UnhealthyPodEvictionPolicy) {
		return -1
	}
	return b
}

// ThroughFirst orders pods, evictions the caller is about to send one
// after another, so that the ones the budgets let through come first:
// for every budget that allows (allowance(b), what is left of its
// disruptionsAllowed) fewer evictions than draw on it here, which of its
// pods go is a choice (ChoosePods: identical pods are one choice, the
// lowest slots of a group go), and its other pods move to the end, in
// their order, where the budget, used up, refuses them. Pods of other
// budgets, or of none, keep their order; a budget allowing nothing
// refuses all of its pods wherever they stand. With Kivi's tie-break the
// choice is ChoosePods' choice 0. drawn(p) is the budget p's eviction
// uses up, or -1 (DrawnBudget, or the caller's view of the pods'
// readiness).
func (tx *Tx) ThroughFirst(s *State, pods []int, drawn, allowance func(b int) int) []int {
	u := tx.U
	if len(u.PDBs) == 0 {
		return pods
	}
	draws := make([][]int, len(u.PDBs))
	for _, p := range pods {
		if b := drawn(p); b >= 0 {
			draws[b] = append(draws[b], p)
		}
	}
	var last []bool
	for b, ps := range draws {
		a := allowance(b)
		if a <= 0 || len(ps) <= a {
			continue
		}
		through := tx.ChoosePods(s, ps, a)
		if last == nil {
			last = make([]bool, len(s.Pods))
		}
		for _, p := range ps {
			last[p] = true
		}
		for _, p := range through {
			last[p] = false
		}
	}
	if last == nil {
		return pods
	}
	out := make([]int, 0, len(pods))
	for _, p := range pods {
		if !last[p] {
			out = append(out, p)
		}
	}
	for _, p := range pods {
		if last[p] {
			out = append(out, p)
		}
	}
	return out
}
