package descheduler

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// tooManyRestarts is the RemovePodsHavingTooManyRestarts Deschedule
// plugin (pkg/framework/plugins/removepodshavingtoomanyrestarts at
// v0.36): node by node, it lists the pods of every phase that pass the
// DefaultEvictor's filters, its namespaces and labelSelector, whose
// containers restarted at least podRestartThreshold times and, with
// states, that are in one of them; it sorts them by restarts, most first,
// and evicts them in that order until the node's eviction limit (the
// next node) or the total limit (the end).
//
// What the model can tell of a pod (tooManyRestartsMatches):
//
//   - its restarts (model.PodState.Restarts): the count a pod placed by
//     the input started with, plus one per OOM kill the kubelet restarted
//     in place; a count saturated at model.MaxRestarts under a higher
//     threshold is unknown (model.RestartsReach);
//   - its states, as PodLifeTime reads them (stateMatches): Running is
//     its phase; a container waits in CrashLoopBackOff between a crash
//     and its restart after a back-off. The model restarts a container
//     in the step that kills it, so whether a cycle falls in that wait is
//     unknown for a pod that ran and has restarted (mayShowCrash), and
//     impossible for one that never has (the kubelet restarts a
//     container's first crash at once; the back-off starts with the
//     second). With includingInitContainers, a Pending pod whose init
//     containers restarted may wait in it too. The cycle decides such a
//     pod's containers once, for its filters and for its readiness,
//     which its budget reads (crashview.go).
//
// A pod these leave undecided (a saturated count) is a maybe, and the
// plugin branches over which maybes match (chooseSubset, unknownage.go).
type tooManyRestarts struct{}

func (tooManyRestarts) Name() string { return model.RemovePodsHavingTooManyRestarts.String() }

// Deschedule decides, then walks the nodes in an order branched over
// where a budget or a total or namespace limit can run out among them
// (budgetorder.go: upstream walks the informer's node list), and each
// node's pods most restarts first: pods of equal restarts, which
// upstream's unstable sort leaves in any order, go in an order branched
// over where a limit or a budget cuts them (inLimitOrder,
// model.Tx.ThroughFirst).
func (tooManyRestarts) Deschedule(c *cycle, p *model.DeschedulerProfile) {
	args := &p.Deschedule.TooManyRestarts
	var out []violation
	defer func() { c.flush(out) }()
	units := c.matchingUnits(p, p.Deschedule.Filter(model.RemovePodsHavingTooManyRestarts), func(pod int) verdict {
		return tooManyRestartsMatches(c, args, pod)
	})
	for i := range units {
		slices.SortStableFunc(units[i].pods, func(a, b int) int {
			return cmp.Compare(c.s.Pods[b].Restarts, c.s.Pods[a].Restarts)
		})
	}
	threshold := args.PodRestartThreshold
	c.inBudgetOrder(units, false, func(_ int, pods []int) bool {
		for len(pods) > 0 {
			k := 1
			for k < len(pods) && c.s.Pods[pods[k]].Restarts == c.s.Pods[pods[0]].Restarts {
				k++
			}
			tied := pods[:k]
			pods = pods[k:]
			if c.budgetCuts(tied) {
				tied = c.tx.ThroughFirst(c.s, tied, c.drawnBudget, c.allowance)
			}
			nodeFull, stop := false, false
			c.inLimitOrder(tied, func(pod int) bool {
				o := c.tryEvict(violation{pod: pod, plugin: model.RemovePodsHavingTooManyRestarts, threshold: threshold}, &out)
				nodeFull, stop = o == nodeLimit, o == totalLimit
				return nodeFull || stop
			})
			if stop {
				return true
			}
			if nodeFull {
				return false
			}
		}
		return false
	})
}

// tooManyRestartsMatches is upstream's validateCanEvict and states filter
// for a listed pod (see tooManyRestarts for what the model can tell).
func tooManyRestartsMatches(c *cycle, a *model.TooManyRestartsArgs, pod int) verdict {
	ps := &c.s.Pods[pod]
	m := sureMatch
	switch reach, known := model.RestartsReach(ps.Restarts, a.PodRestartThreshold); {
	case !known:
		m = maybeMatch
	case !reach:
		return noMatch
	}
	if len(a.States) == 0 {
		return m
	}
	return m.and(c.stateMatches(pod, a.States, a.IncludingInitContainers))
}

// restartsWords prints a pod's restart count and the threshold it reached.
func restartsWords(ps *model.PodState, threshold int32) string {
	if ps.Restarts == model.MaxRestarts {
		return fmt.Sprintf("restarted %d or more times (podRestartThreshold %d)", ps.Restarts, threshold)
	}
	if ps.Restarts == 1 {
		return fmt.Sprintf("restarted once (podRestartThreshold %d)", threshold)
	}
	return fmt.Sprintf("restarted %d times (podRestartThreshold %d)", ps.Restarts, threshold)
}
