package descheduler

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// failedPods is the RemoveFailedPods Deschedule plugin
// (pkg/framework/plugins/removefailedpods/failedpods.go at v0.36): node
// by node, every listed pod in phase Failed that passes the args is
// evicted. The DefaultEvictor's filters apply as to any plugin, except
// that a bare Failed pod passes with evictFailedBarePods.
//
// The model's Failed pods are the pods the kubelet rejected at admission
// (controllers/kubelet) or killed while they ran (evicted under memory
// pressure, preempted for a critical pod). A reasons filter reads the
// pod's status reason, which the state does not keep (failedReasons lists
// the candidates); an exitCodes filter reads the exit codes of its
// containers, which the model does not give (a rejected pod's never ran),
// so it matches none. Neither is the pod's age kept
// (minPodLifetimeSeconds, 3600 by default): a pod those filters cannot
// decide is a maybe, and the plugin branches over which maybes verdict
// (unknownage.go). Evicting a Failed pod deletes it at once
// (deleteFailed): what the pod garbage collector would do later, but it
// counts against the eviction limits like any eviction.
type failedPods struct{}

func (failedPods) Name() string { return model.RemoveFailedPods.String() }

// Deschedule walks the cycle's nodes, in an order branched over where a
// total or namespace eviction limit can run out among them
// (budgetorder.go: upstream walks the node list the informer returned),
// and each node's matching pods in slot order, or in an order branched
// over where an eviction limit cuts them (inLimitOrder: upstream lists a
// node's pods in informer order); a node whose eviction limit is reached
// is left for the next one, the total limit ends the plugin. Budgets
// never refuse the eviction of a Failed pod, so the order does not
// matter to them.
func (failedPods) Deschedule(c *cycle, p *model.DeschedulerProfile) {
	args := &p.Deschedule.FailedPods
	var out []violation
	defer func() { c.flush(out) }()
	reasons := map[int][]string{}
	units := c.matchingUnits(p, p.Deschedule.Filter(model.RemoveFailedPods), func(pod int) verdict {
		if c.s.Pods[pod].Phase != model.Failed {
			return noMatch
		}
		reasons[pod] = c.failedReasons(pod)
		return failedPodMatches(c, args, pod, reasons[pod])
	})
	c.inBudgetOrder(units, false, func(_ int, pods []int) bool {
		stop := false
		c.inLimitOrder(pods, func(pod int) bool {
			o := c.tryEvict(violation{pod: pod, plugin: model.RemoveFailedPods, reasons: reasons[pod]}, &out)
			stop = o == totalLimit
			return o == nodeLimit || stop
		})
		return stop
	})
}

// failedPodMatches is upstream's validateCanEvict for Failed pod with
// the given possible admission reasons.
func failedPodMatches(c *cycle, a *model.FailedPodsArgs, pod int, reasons []string) verdict {
	if k := c.ownerKind(pod); k != "" && slices.Contains(a.ExcludeOwnerKinds, k) {
		return noMatch
	}
	// No container of the model's Failed pods ever terminated.
	if len(a.ExitCodes) > 0 {
		return noMatch
	}
	m := sureMatch
	if len(a.Reasons) > 0 {
		m = matchOneOf(reasons, a.Reasons)
	}
	if a.MinPodLifetimeSeconds > 0 {
		m = m.and(maybeMatch)
	}
	return m
}
