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
	ev := c.checkEviction(pod)
	if ev.Outcome == model.EvictionAllowed {
		if ev.Budget >= 0 && !c.podReady(pod) && !ev.Status.LetsUnhealthyGo(c.u.PDBs[ev.Budget].UnhealthyPodEvictionPolicy) {
			// checkAndDecrement took one of the budget's disruptions for
			// a pod the disruption controller does not count as healthy:
			// its deletion will not give it back.
			c.ev.drewUnhealthy[ev.Budget]++
		}
		return ""
	}
	msg := ev.Reason(c.u)
	c.note("    pod %d: eviction refused: %s\n", pod+1, msg)
	return msg
}

// checkEviction is the Eviction API's decision for the pod
// (model.Universe.CheckEviction) at the cycle's instant: the pod's and
// its budget's pods' readiness as the cycle sees them (crashview.go),
// and the budget's disruptionsAllowed less what the cycle's earlier
// evictions took (taken).
func (c *cycle) checkEviction(pod int) model.Eviction {
	b, multiple := c.u.BudgetOf(c.s, pod)
	switch {
	case multiple:
		return model.Eviction{Outcome: model.EvictionMultipleBudgets, Budget: b}
	case b < 0:
		return model.Eviction{Budget: -1}
	}
	st := c.disruption(b)
	st.DisruptionsAllowed = max(0, st.DisruptionsAllowed-c.taken(b))
	return model.Eviction{Outcome: model.EvictionDecision(st, c.u.PDBs[b].UnhealthyPodEvictionPolicy, c.podReady(pod)), Budget: b, Status: st}
}

// disruption is budget b's status at the cycle's instant: the
// disruption controller's, less the pods that are crashing
// (crashingIn).
func (c *cycle) disruption(b int) model.DisruptionStatus {
	return c.u.DisruptionLess(c.s, b, c.crashingIn(b))
}

// taken is how many of budget b's disruptions the cycle's admitted
// evictions used that the state does not show yet: the API server
// decrements disruptionsAllowed with every eviction it grants, while the
// state counts a pod out of currentHealthy only once it is deleted, and
// never counts one that was not Ready.
func (c *cycle) taken(b int) int {
	n := c.ev.drewUnhealthy[b]
	for _, q := range c.ev.pending {
		if c.s.Pods[q].Ready() && c.u.PDBs[b].Selects(c.s, q) && c.podReady(q) {
			n++
		}
	}
	return n
}

// drawnBudget is the budget whose disruptions the pod's eviction uses
// up at the cycle's instant, or -1 (model.Universe.DrawnBudget).
func (c *cycle) drawnBudget(pod int) int {
	b, multiple := c.u.BudgetOf(c.s, pod)
	if b < 0 || multiple || !c.podReady(pod) && c.disruption(b).LetsUnhealthyGo(c.u.PDBs[b].UnhealthyPodEvictionPolicy) {
		return -1
	}
	return b
}

// logRefusal writes the descheduler's line for an eviction the API
// refused with msg.
func (c *cycle) logRefusal(pod int, msg string) {
	if c.tx.Tracing() {
		c.tx.Log(Component, "Error evicting pod %s from node %s: %s", c.s.PodRef(pod), c.nodeName(c.s.Pods[pod].NodeOf()), msg)
	}
}
