package descheduler

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// What a cycle sees of crashing containers.
//
// The kubelet restarts a crashed container at once the first time and
// after a back-off from the second crash on. Until the container runs
// again it is terminated (an OOM kill: reason OOMKilled, exit code 137)
// or waiting in CrashLoopBackOff, and the pod's Ready condition is False.
// The model restarts a container in the step that kills it, so whether a
// pod that ran and restarted (mayShowCrash) is in such a window when a
// cycle runs is unknown; a Pending pod whose init containers restarted
// may likewise wait in CrashLoopBackOff before its app containers start.
//
// A cycle sees one instant. A crashing pod is crashing for every
// plugin's filters (states CrashLoopBackOff and OOMKilled, exitCodes 137)
// and for the Eviction API and the disruption controller, to which it is
// not Ready: it is not healthy in its budget's currentHealthy, and its
// own eviction passes under AlwaysAllow, or under IfHealthyBudget while
// the budget is otherwise satisfied, without using a disruption
// (model.EvictionDecision).
//
// The cycle decides where and only where it matters, and branches over
// the outcomes:
//   - a filter asks about one pod (showsCrash): running, waiting in
//     CrashLoopBackOff, or terminated OOMKilled, merged where neither the
//     cycle's filters nor the pod's budgets can tell them apart;
//   - a budget's status needs only how many of its restarted Ready pods
//     are crashing (crashPool): the cycle chooses that number, from none
//     to all, and which ones later, one pod at a time as an eviction or a
//     filter asks about it; every set of that size is one sequence of
//     such answers.

// crashView is what the cycle has decided about one pod's containers.
type crashView uint8

const (
	// crashUnknown: not decided yet.
	crashUnknown crashView = iota
	// crashNone: its containers run; Ready.
	crashNone
	// crashDown: a container crashed and has not run again, so the pod is
	// not Ready; whether it waits in CrashLoopBackOff or shows its OOM
	// kill is not decided yet.
	crashDown
	// crashBackOff: a container waits in CrashLoopBackOff.
	crashBackOff
	// crashOOMKilled: a container is terminated, OOMKilled, exit code 137.
	crashOOMKilled
)

// crashViews is the cycle's instant for the pods that may be crashing.
type crashViews struct {
	// tracked: the state keeps restart counts (model.Universe.TracksRestarts);
	// without them no pod may be crashing.
	tracked bool
	view    []crashView
	// poolOf is 1 + the budget whose pool holds the pod undecided, 0 for
	// none.
	poolOf []int
	pools  []crashPool
	// oneByOne decides every pod on its own, never by a budget's count:
	// the plain reference the pools are compared with in tests.
	oneByOne bool
	// readsOOM: some profile's filter reads an OOM kill (PodLifeTime's
	// states OOMKilled or exitCodes 137), so a pod terminated OOMKilled
	// differs from a running one even where readiness does not matter.
	readsOOM bool
}

// crashPool is one budget's restarted pods whose readiness is decided
// as a count: members of them are still undecided, down of those are
// crashing.
type crashPool struct {
	formed        bool
	members, down int
}

// initCrash allocates the views on first use.
func (c *cycle) initCrash() {
	if c.crash.view != nil {
		return
	}
	c.crash.view = make([]crashView, len(c.s.Pods))
	c.crash.poolOf = make([]int, len(c.s.Pods))
	c.crash.pools = make([]crashPool, len(c.u.PDBs))
	for i := range c.u.Descheduler.Profiles {
		d := &c.u.Descheduler.Profiles[i].Deschedule
		if d.Has(model.PodLifeTime) && (slices.Contains(d.PodLifeTime.States, "OOMKilled") || slices.Contains(d.PodLifeTime.ExitCodes, model.OOMKilledExitCode)) {
			c.crash.readsOOM = true
		}
	}
}

// showsCrash reports whether the pod's containers show, at the cycle's
// instant, a crash the filter matches: backOff, a container waiting in
// CrashLoopBackOff; oomKilled, one terminated OOMKilled (exit code 137).
// For a Pending pod it is its init containers' CrashLoopBackOff. The
// caller has checked that the pod may show one (mayShowCrash, or a
// Pending pod with init restarts).
func (c *cycle) showsCrash(pod int, backOff, oomKilled bool) bool {
	c.initCrash()
	v := &c.crash.view[pod]
	before := *v
	switch {
	case *v != crashUnknown:
	case c.crash.poolOf[pod] != 0:
		before = c.resolve(pod)
	case c.s.Pods[pod].Phase == model.Pending:
		*v = []crashView{crashNone, crashBackOff}[c.tx.Choose(2)]
	case backOff && oomKilled:
		*v = []crashView{crashNone, crashDown}[c.tx.Choose(2)]
	case !c.crash.readsOOM && !c.budgetSelects(pod):
		// Running and terminated OOMKilled look alike to every filter
		// and budget of the cycle.
		*v = []crashView{crashNone, crashBackOff}[c.tx.Choose(2)]
	default:
		*v = []crashView{crashNone, crashBackOff, crashOOMKilled}[c.tx.Choose(3)]
	}
	if *v == crashDown && backOff != oomKilled {
		*v = []crashView{crashBackOff, crashOOMKilled}[c.tx.Choose(2)]
	}
	if *v != before {
		c.logCrash(pod)
	}
	switch *v {
	case crashDown:
		return backOff // == oomKilled
	case crashBackOff:
		return backOff
	case crashOOMKilled:
		return oomKilled
	}
	return false
}

// PodReady is the pod's readiness at the cycle's instant (IsPodReady):
// Ready in the state and not crashing.
func (c *cycle) PodReady(pod int) bool {
	ps := &c.s.Pods[pod]
	if !ps.Ready() {
		return false
	}
	if !c.crash.tracked || !mayShowCrash(ps) {
		return true
	}
	c.initCrash()
	return c.resolve(pod) == crashNone
}

// resolve decides whether an undecided pod is crashing: from its
// budget's pool, or on its own; it returns the pod's view.
func (c *cycle) resolve(pod int) crashView {
	v := &c.crash.view[pod]
	if *v != crashUnknown {
		return *v
	}
	down := false
	if b := c.crash.poolOf[pod] - 1; b >= 0 {
		pl := &c.crash.pools[b]
		switch {
		case pl.down == 0:
		case pl.down == pl.members:
			down = true
		default:
			down = c.tx.Choose(2) == 1
		}
		pl.members--
		if down {
			pl.down--
		}
		c.crash.poolOf[pod] = 0
	} else {
		down = c.tx.Choose(2) == 1
	}
	*v = crashNone
	if down {
		*v = crashDown
	}
	c.logCrash(pod)
	return *v
}

// crashingIn is how many of the pods budget b selects are Ready in the
// state but crashing at the cycle's instant. The first call forms the
// budget's pool: its undecided restarted pods that no other budget
// selects, of which the cycle chooses how many are crashing; a pod that
// other budgets select too is decided on its own.
func (c *cycle) crashingIn(b int) int {
	if !c.crash.tracked {
		return 0
	}
	c.initCrash()
	pdb := &c.u.PDBs[b]
	pl := &c.crash.pools[b]
	if !pl.formed {
		pl.formed = true
		for i := range c.s.Pods {
			ps := &c.s.Pods[i]
			if !pdb.Selects(c.s, i) || !ps.Ready() || !mayShowCrash(ps) || c.crash.view[i] != crashUnknown || c.crash.poolOf[i] != 0 {
				continue
			}
			if _, multiple := c.u.BudgetOf(c.s, i); c.crash.oneByOne || multiple {
				c.resolve(i)
				continue
			}
			c.crash.poolOf[i] = b + 1
			pl.members++
		}
		pl.down = c.tx.Choose(pl.members + 1)
		if pl.down == 0 || pl.down == pl.members {
			// Nothing left to choose: every member is decided now, and the
			// crashing ones say so in the trace.
			for i := range c.s.Pods {
				if c.crash.poolOf[i] == b+1 {
					c.resolve(i)
				}
			}
		} else {
			c.note("    %d of the %d restarted pods budget %s selects are crashing (not Ready) at this cycle\n", pl.down, pl.members, pdb.Name)
			if c.tx.Tracing() {
				c.tx.Log(Component, "%d of the %d restarted pods of PodDisruptionBudget %s are crashing (a container in CrashLoopBackOff or OOMKilled: not Ready) at this cycle", pl.down, pl.members, pdb.Name)
			}
		}
	}
	n := pl.down
	for i := range c.s.Pods {
		if v := c.crash.view[i]; v != crashUnknown && v != crashNone && c.s.Pods[i].Ready() && pdb.Selects(c.s, i) {
			n++
		}
	}
	return n
}

// budgetSelects reports whether the Eviction API consults a budget for
// the pod, so that its readiness counts.
func (c *cycle) budgetSelects(pod int) bool {
	b, _ := c.u.BudgetOf(c.s, pod)
	return b >= 0
}

// logCrash writes the trace line of a pod decided crashing.
func (c *cycle) logCrash(pod int) {
	if !c.tx.Tracing() {
		return
	}
	what := ""
	switch c.crash.view[pod] {
	case crashDown:
		what = "has a crashed container that has not run again (CrashLoopBackOff or OOMKilled)"
	case crashBackOff:
		what = "has a container waiting in CrashLoopBackOff"
	case crashOOMKilled:
		what = "has a container terminated OOMKilled (exit code 137) before its restart"
	default:
		return
	}
	switch c.s.Pods[pod].Phase {
	case model.Running:
		what += ": not Ready"
	case model.Pending:
		what = "has an init container waiting in CrashLoopBackOff"
	}
	c.tx.Log(Component, "pod %s on node %s %s at this cycle", c.s.PodRef(pod), c.nodeName(c.s.Pods[pod].NodeOf()), what)
}
