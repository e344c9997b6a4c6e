package descheduler

import "github.com/kivi-go/kivi/model"

// highNodeUtilization is the HighNodeUtilization Balance plugin
// (pkg/framework/plugins/nodeutilization/highnodeutilization.go at v0.36):
// pods are evicted from underutilised nodes, least used first, while the
// other schedulable nodes have room left, so that a scheduler scoring by
// MostAllocated packs them onto fewer nodes. Utilisation is the pods'
// requests against allocatable.
type highNodeUtilization struct{}

func (highNodeUtilization) Name() string { return model.HighNodeUtilization.String() }

// Plan classifies the cycle's nodes: underutilised when every resource
// with a threshold is at or below it (unschedulable nodes included: they
// are sources), schedulable when not underutilised and not cordoned. It
// does nothing when no node or at most numberOfNodes nodes are
// underutilised, when every node is, or when no node can take pods.
// The destinations' headroom is their allocatable minus their usage; the
// walk goes on while every resource of it is above zero.
func (h highNodeUtilization) Plan(c *cycle, p *model.DeschedulerProfile) []candidate {
	w, under := h.setup(c, p)
	if w == nil {
		return nil
	}
	w.order(under, w.source)
	return w.plan
}

// setup classifies the nodes and returns the walk and its sources, least
// used first (nil when the plugin has nothing to do).
func (highNodeUtilization) setup(c *cycle, p *model.DeschedulerProfile) (*walk, []nodeUsage) {
	a := p.HighNodeUtilization
	if a == nil {
		c.note("    no arguments, skipped\n")
		return nil, nil
	}
	nodes := c.snapshot()
	// Upstream sets the upper threshold of every resource with a
	// threshold to 100 %, which caps nothing.
	var full model.ResourceThresholds
	for k := range nRes {
		if _, ok := a.Thresholds.Get(k); ok {
			full.Set(k, 100)
		}
	}
	c.note("    thresholds %s\n", fmtThresholds(a.Thresholds))
	var under, schedulable []nodeUsage
	for i := range nodes {
		nu := &nodes[i]
		nu.capAvailable(full)
		switch {
		case belowThreshold(nu.pct, a.Thresholds):
			under = append(under, *nu)
			c.noteUsage(nu, "underutilized")
		case !c.unschedulable(nu.node):
			schedulable = append(schedulable, *nu)
			c.noteUsage(nu, "schedulable")
		default:
			c.noteUsage(nu, "unschedulable")
		}
	}
	switch {
	case !c.enoughUnderutilized(len(under), len(nodes), a.NumberOfNodes):
		return nil, nil
	case len(schedulable) == 0:
		c.note("    no node is available to schedule the pods, nothing to do\n")
		return nil, nil
	}
	w := &walk{c: c, p: p, kind: reasonHighNodeUtilization, dest: schedulable, perNode: map[int]int{}, nodeLimit: -1,
		stopReason: "no headroom left on the schedulable nodes",
		filter: func(pod int) bool {
			return c.filter(p, pod) && (!a.OnlyThresholdingResources || c.requestsAny(pod, a.Thresholds)) &&
				!c.u.InExcludedNamespace(a.ExcludedNamespaces, int(c.s.Pods[pod].Template))
		},
		cont: func(_ *nodeUsage, _, avail resources) bool { return headroomLeft(avail) }}
	w.avail = headroom(schedulable)
	c.note("    headroom on the schedulable nodes: cpu %d memory %d pods %d\n", w.avail[rCPU], w.avail[rMem], w.avail[rPods])
	sortSources(under, false)
	return w, under
}

// Balance evicts the plan.
func (h highNodeUtilization) Balance(c *cycle, p *model.DeschedulerProfile) {
	evictPlan(c, h.Plan(c, p))
}

// requestsAny is withResourceRequestForAny: the pod requests one of the
// thresholds' resources. No container requests `pods`; a request of 0 is
// taken as no request.
func (c *cycle) requestsAny(pod int, t model.ResourceThresholds) bool {
	tm := &c.u.Templates[c.s.Pods[pod].Template]
	_, cpu := t.Get(rCPU)
	_, mem := t.Get(rMem)
	return cpu && tm.CPU > 0 || mem && tm.Memory > 0
}
