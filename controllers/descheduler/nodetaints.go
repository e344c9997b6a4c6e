package descheduler

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// nodeTaints is the RemovePodsViolatingNodeTaints Deschedule plugin
// (pkg/framework/plugins/removepodsviolatingnodetaints/node_taint.go at
// v0.36): node by node, every listed pod that does not tolerate one of
// its node's NoSchedule taints (PreferNoSchedule too with
// includePreferNoSchedule), restricted by excludedTaints and
// includedTaints, is evicted. NoExecute taints are the taint manager's,
// not this plugin's.
//
// In the model a node's taints change only when a drain cordons it (the
// node lifecycle controller then taints it
// node.kubernetes.io/unschedulable:NoSchedule, which this plugin counts
// unless excludedTaints leaves it out) and while the node is under memory
// pressure (node.kubernetes.io/memory-pressure:NoSchedule), so a pod
// violates when it runs on a node being drained or under pressure, or when nothing checked the taint before it ran
// there: it was pinned with nodeName (the kubelet admits a pod whatever
// its node's NoSchedule taints), it was placed on the node by the input,
// or the taint is a PreferNoSchedule one the scheduler only scores. The node lifecycle's
// not-ready and unreachable taints are never seen: their nodes are not
// Ready and so not in the cycle, and a node that becomes Ready loses them
// at once in the model.
type nodeTaints struct{}

func (nodeTaints) Name() string { return model.RemovePodsViolatingNodeTaints.String() }

// Deschedule walks the cycle's nodes and each node's listed pods in slot
// order, the nodes in index order unless a disruption budget makes the
// order matter (budgetorder.go), a node's pods in an order branched over
// where an eviction limit cuts them (inLimitOrder). A node whose eviction limit is reached
// is left for the next one; the total limit ends the plugin.
func (nodeTaints) Deschedule(c *cycle, p *model.DeschedulerProfile) {
	args := &p.Deschedule.NodeTaints
	var out []violation
	defer func() { c.flush(out) }()
	units := make([]budgetUnit, len(c.ready))
	found := map[int]violation{}
	for i, n := range c.ready {
		units[i].node = n
		for _, pod := range c.listedOn(p, p.Deschedule.Filter(model.RemovePodsViolatingNodeTaints), n) {
			if taint, ok := c.untoleratedTaint(args, pod, n); ok {
				units[i].pods = append(units[i].pods, pod)
				found[pod] = violation{pod: pod, plugin: model.RemovePodsViolatingNodeTaints, taint: taint}
			}
		}
	}
	c.tryEvictInBudgetOrder(units, found, &out)
}

// untoleratedTaint returns the first of node n's taints that the args
// count and that no toleration of pod's template tolerates
// (TolerationsTolerateTaintsWithFilter). The tolerations the API server
// adds (DefaultTolerationSeconds) are NoExecute ones and cannot tolerate
// the taints this plugin counts.
func (c *cycle) untoleratedTaint(args *model.NodeTaintsArgs, pod, n int) (model.Taint, bool) {
	tols := c.u.Templates[c.s.Pods[pod].Template].Tolerations
	taints := c.u.Nodes[n].Taints
	if cordon := model.UnschedulableTaint(); c.s.Nodes[n].Cordoned && !slices.Contains(taints, cordon) {
		taints = append(slices.Clip(taints), cordon)
	}
	if pressure := model.MemoryPressureTaint(); c.s.Nodes[n].MemoryPressure && !slices.Contains(taints, pressure) {
		taints = append(slices.Clip(taints), pressure)
	}
	for _, taint := range taints {
		if !args.Counts(taint) {
			continue
		}
		tolerated := false
		for _, tol := range tols {
			if tol.Tolerates(taint) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			return taint, true
		}
	}
	return model.Taint{}, false
}
