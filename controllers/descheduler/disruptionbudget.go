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
	ev := c.u.CheckEviction(c.s, pod)
	if ev.Outcome == model.EvictionAllowed && ev.Budget >= 0 {
		// The API server decrements the budget with every eviction it
		// grants; pods admitted in this cycle whose deletion is still to
		// come are still Running in the state.
		taken := 0
		for _, q := range c.ev.pending {
			if c.s.Pods[q].Ready() && c.u.PDBs[ev.Budget].Selects(c.s, q) {
				taken++
			}
		}
		if ev.Status.DisruptionsAllowed-taken <= 0 {
			ev.Status.DisruptionsAllowed = 0
			ev.Outcome = model.EvictionBudgetExhausted
		}
	}
	if ev.Outcome == model.EvictionAllowed {
		return ""
	}
	msg := ev.Reason(c.u)
	c.note("    pod %d: eviction refused: %s\n", pod+1, msg)
	return msg
}

// logRefusal writes the descheduler's line for an eviction the API
// refused with msg.
func (c *cycle) logRefusal(pod int, msg string) {
	if c.tx.Tracing() {
		c.tx.Log(Component, "Error evicting pod %s from node %s: %s", c.s.PodRef(pod), c.nodeName(c.s.Pods[pod].NodeOf()), msg)
	}
}
