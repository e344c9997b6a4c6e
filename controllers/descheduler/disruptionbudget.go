package descheduler

import (
	"github.com/kivi-go/kivi/model"
)

// The descheduler evicts through the Eviction API
// (pkg/descheduler/evictions: evictPod posts a policy/v1 Eviction), so
// every eviction is checked against the PodDisruptionBudgets first
// (model.Universe.CheckEviction). A refused eviction (429 TooManyRequests
// when the budget allows no disruption, 500 when several budgets select
// the pod) is logged as the descheduler logs it ("Error evicting pod"),
// does not count against the per-node, namespace or total limits (the
// PodEvictor increments them only after a successful eviction), and the
// plugin goes on with its next candidate.
//
// The check reads the pods the budget selects and the spec.replicas of
// their deployments; the descheduler's footprint (ClusterWide) already
// covers every pod and deployment, so partial-order reduction needs
// nothing more.

// refusedByBudget asks the Eviction API about the pod and, when it
// refuses, writes the explanation line and returns the API's message
// ("" when the eviction is allowed); logRefusal writes its trace line.
func (c *cycle) refusedByBudget(pod int) string {
	if len(c.u.PDBs) == 0 {
		return ""
	}
	ev := c.u.CheckEvictionIn(c.s, pod, c)
	if ev.Outcome == model.EvictionAllowed {
		if b := c.drawnBudget(pod); b >= 0 && !c.PodReady(pod) {
			// checkAndDecrement took one of the budget's disruptions for
			// a pod the disruption controller does not count as healthy:
			// its deletion will not give it back.
			c.ev.drewUnhealthy[b]++
		}
		return ""
	}
	msg := ev.Reason(c.u)
	c.note("    pod %d: eviction refused: %s\n", pod+1, msg)
	return msg
}

// The cycle is the Eviction API's view (model.EvictionView) at the
// cycle's instant: pods' readiness as the cycle sees them
// (crashview.go), and budgets' statuses less the pods that are crashing
// (crashingIn) and less the disruptions the cycle's earlier evictions
// took (taken).

// BudgetStatus is budget b's status at the cycle's instant.
func (c *cycle) BudgetStatus(b int) model.DisruptionStatus {
	st := c.u.DisruptionLess(c.s, b, c.crashingIn(b))
	st.DisruptionsAllowed = max(0, st.DisruptionsAllowed-c.taken(b))
	return st
}

// taken is how many of budget b's disruptions the cycle's admitted
// evictions used that the state does not show yet: the API server
// decrements disruptionsAllowed with every eviction it grants, while the
// state counts a pod out of currentHealthy only once it is deleted, and
// never counts one that was not Ready.
func (c *cycle) taken(b int) int {
	n := c.ev.drewUnhealthy[b]
	for _, q := range c.ev.pending {
		if c.u.PDBs[b].Selects(c.s, q) && c.PodReady(q) {
			n++
		}
	}
	return n
}

// drawnBudget is the budget whose disruptions the pod's eviction uses
// up at the cycle's instant, or -1 (model.Universe.DrawnBudget).
func (c *cycle) drawnBudget(pod int) int { return c.u.DrawnBudgetIn(c.s, pod, c) }

// logRefusal writes the descheduler's line for an eviction the API
// refused with msg.
func (c *cycle) logRefusal(pod int, msg string) {
	if c.tx.Tracing() {
		c.tx.Log(Component, "Error evicting pod %s from node %s: %s", c.s.PodRef(pod), c.nodeName(c.s.Pods[pod].NodeOf()), msg)
	}
}
