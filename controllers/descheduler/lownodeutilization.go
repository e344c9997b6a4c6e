package descheduler

import "github.com/kivi-go/kivi/model"

// lowNodeUtilization is the LowNodeUtilization Balance plugin
// (pkg/framework/plugins/nodeutilization/lownodeutilization.go at v0.36):
// pods are evicted from overutilised nodes, most used first, while the
// node stays above its target and the underutilised nodes have headroom
// left, so that the scheduler can put them on the underutilised nodes.
// Utilisation is the pods' requests against allocatable, upstream's
// default; metricsUtilization (actual usage) is not modelled.
type lowNodeUtilization struct{}

func (lowNodeUtilization) Name() string { return model.LowNodeUtilization.String() }

// Plan classifies the cycle's nodes: underutilised when schedulable and
// every resource with a threshold is at or below it, overutilised when
// some resource is above its target, appropriately utilised otherwise.
// It does nothing when no node or at most numberOfNodes nodes are
// underutilised, when every node is, or when none is overutilised.
// Otherwise the overutilised nodes are walked from the most used
// (walk.order, walk.source).
func (l lowNodeUtilization) Plan(c *cycle, p *model.DeschedulerProfile) []candidate {
	w, over := l.setup(c, p)
	if w == nil {
		return nil
	}
	w.order(over, w.source)
	return w.plan
}

// setup classifies the nodes and returns the walk and its sources, most
// used first (nil when the plugin has nothing to do).
func (lowNodeUtilization) setup(c *cycle, p *model.DeschedulerProfile) (*walk, []nodeUsage) {
	a := p.LowNodeUtilization
	if a == nil {
		c.note("    no arguments, skipped\n")
		return nil, nil
	}
	nodes := c.snapshot()
	low, high := a.Thresholds, a.TargetThresholds
	if a.UseDeviationThresholds {
		low, high = deviationThresholds(nodes, a.Thresholds, a.TargetThresholds)
	}
	c.note("    thresholds %s, targetThresholds %s\n", fmtThresholds(low), fmtThresholds(high))
	var under, over []nodeUsage
	for i := range nodes {
		nu := &nodes[i]
		nu.capAvailable(high)
		switch {
		case !c.unschedulable(nu.node) && belowThreshold(nu.pct, low):
			under = append(under, *nu)
			c.noteUsage(nu, "underutilized")
		case aboveThreshold(nu.pct, high):
			over = append(over, *nu)
			c.noteUsage(nu, "overutilized")
		default:
			c.noteUsage(nu, "appropriately utilized")
		}
	}
	switch {
	case !c.enoughUnderutilized(len(under), len(nodes), a.NumberOfNodes):
		return nil, nil
	case len(over) == 0:
		c.note("    no node is overutilized, nothing to do\n")
		return nil, nil
	}
	w := &walk{c: c, p: p, kind: reasonLowNodeUtilization, dest: under, perNode: map[int]int{}, nodeLimit: -1,
		stopReason: "not above its target or no headroom left on the underutilized nodes",
		filter: func(pod int) bool {
			return c.filter(p, pod) && !c.u.InExcludedNamespace(a.ExcludedNamespaces, int(c.s.Pods[pod].Template))
		},
		cont: func(nu *nodeUsage, used, avail resources) bool {
			above := false
			for k := range nRes {
				above = above || used[k] > nu.available[k]
			}
			return above && headroomLeft(avail)
		}}
	if n, ok := a.NodeLimit(); ok {
		w.nodeLimit = n
	}
	w.avail = headroom(under)
	c.note("    headroom on the underutilized nodes: cpu %d memory %d pods %d\n", w.avail[rCPU], w.avail[rMem], w.avail[rPods])
	sortSources(over, true)
	return w, over
}

// Balance evicts the plan.
func (l lowNodeUtilization) Balance(c *cycle, p *model.DeschedulerProfile) {
	evictPlan(c, l.Plan(c, p))
}

// deviationThresholds is assessNodesUsagesAndRelativeThresholds: the
// average utilisation of the cycle's nodes per resource with a
// threshold, minus the thresholds and plus the targets, each clamped to
// [0, 100]. Upstream sums the percentages in map order; the model sums in
// node index order (the last bit of a float64 may differ).
func deviationThresholds(nodes []nodeUsage, lowSpan, highSpan model.ResourceThresholds) (low, high model.ResourceThresholds) {
	for k := range nRes {
		lo, ok := lowSpan.Get(k)
		if !ok {
			continue
		}
		hi, _ := highSpan.Get(k)
		avg := 0.0
		for _, nu := range nodes {
			avg += nu.pct[k]
		}
		if len(nodes) > 0 {
			avg /= float64(len(nodes))
		}
		low.Set(k, clampPct(avg-lo))
		high.Set(k, clampPct(avg+hi))
	}
	return low, high
}

func clampPct(v float64) float64 { return min(max(v, 0), 100) }
