package descheduler

import "github.com/kivi-go/kivi/model"

// nodeAffinity is the RemovePodsViolatingNodeAffinity Deschedule plugin
// (pkg/framework/plugins/removepodsviolatingnodeaffinity/node_affinity.go
// at v0.36). It makes one pass per nodeAffinityType value, in order, over
// the cycle's nodes and their listed pods:
//
//   - requiredDuringSchedulingIgnoredDuringExecution: a pod with required
//     node affinity whose node fails its nodeSelector or required terms is
//     evicted if it fits some cycle node (PodFitsAnyNode);
//   - preferredDuringSchedulingIgnoredDuringExecution: a pod with
//     preferred terms is evicted if it fits some cycle node and some cycle
//     node matches more weight of its terms than its own does. The best
//     weight is taken over every cycle node, whether the pod fits there or
//     not; and since the pod's own node counts for PodFitsAnyNode, only the
//     DefaultEvictor's nodeFit makes the plugin look for room elsewhere.
//
// Nodes' labels never change in the model, and the scheduler and the
// kubelet's admission both enforce required affinity, so the required
// pass finds only pods the input placed. The preferred pass fires
// whenever the scheduler's other scores outweighed the affinity score, or
// the preferred node was full or tainted: an eviction loop when the
// scheduler decides the same way again.
type nodeAffinity struct{}

func (nodeAffinity) Name() string { return model.RemovePodsViolatingNodeAffinity.String() }

// Deschedule runs the passes; each pass's evictions are carried out
// before the next pass lists pods. Whether that listing sees them is up
// to the descheduler's informer (informerLag).
func (a nodeAffinity) Deschedule(c *cycle, p *model.DeschedulerProfile) {
	from := len(c.ev.deleted) // this plugin's deletions start there
	for i, typ := range p.Deschedule.NodeAffinityType {
		c.note("    pass %s\n", typ)
		if i > 0 {
			c.unseen = a.informerLag(c, typ, c.ev.deleted[from:])
		}
		c.flush(a.pass(c, p, typ))
	}
	c.unseen = nil
}

// informerLag decides whether the pass of typ lists the pods the passes
// before it evicted as they were. Upstream lists pods from its informer
// again for each pass, and the informer may not have seen those
// deletions yet: a pod that still violates is then evicted again, which
// the Eviction API answers with success (a pod being deleted) and the
// PodEvictor counts against its limits. That changes what the pass
// evicts only under an eviction limit, and only when such a pod violates
// this pass's type (a terminating pod with the evict annotation is listed
// anyway: terminatingListed); there the cycle branches: choice 0 is an
// informer that caught up (the pods are terminating, and not listed),
// choice 1 one that has not. It returns the pods listed as they were,
// nil for none.
func (a nodeAffinity) informerLag(c *cycle, typ model.NodeAffinityType, evicted []int) []bool {
	if c.tx == nil || c.u.Options.TieBreak == model.LowestIndex || !c.ev.limited() {
		return nil
	}
	var unseen []bool
	for _, pod := range evicted {
		ps := &c.s.Pods[pod]
		n := ps.NodeOf()
		if ps.Phase != model.Terminating || c.terminatingListed(ps) || n < 0 || !c.isReady[n] {
			continue
		}
		if _, ok := a.violates(c, typ, pod, n); !ok {
			continue
		}
		if unseen == nil {
			unseen = make([]bool, len(c.s.Pods))
		}
		unseen[pod] = true
	}
	if unseen == nil || c.tx.Choose(2) == 0 {
		return nil
	}
	c.note("    the informer has not seen the earlier passes' evictions\n")
	return unseen
}

// pass walks the nodes and their listed pods in slot order, the nodes in
// index order unless a disruption budget makes the order matter
// (budgetorder.go), a node's pods in an order branched over where an
// eviction limit cuts them (inLimitOrder). A node whose eviction limit is reached is left for
// the next one; the total limit ends the pass (the next pass's evictions
// are refused by the same limit).
func (a nodeAffinity) pass(c *cycle, p *model.DeschedulerProfile, typ model.NodeAffinityType) []violation {
	var out []violation
	units := make([]budgetUnit, len(c.ready))
	found := map[int]violation{}
	for i, n := range c.ready {
		units[i].node = n
		for _, pod := range c.listedOn(p, p.Deschedule.Filter(model.RemovePodsViolatingNodeAffinity), n) {
			if v, ok := a.violates(c, typ, pod, n); ok {
				units[i].pods = append(units[i].pods, pod)
				found[pod] = v
			}
		}
	}
	c.tryEvictInBudgetOrder(units, found, &out)
	return out
}

// violates is the pass's filter function for pod on its node n.
func (nodeAffinity) violates(c *cycle, typ model.NodeAffinityType, pod, n int) (violation, bool) {
	t := &c.u.Templates[c.s.Pods[pod].Template]
	v := violation{pod: pod, plugin: model.RemovePodsViolatingNodeAffinity}
	switch typ {
	case model.RequiredDuringSchedulingIgnoredDuringExecution:
		// PodHasNodeAffinity(required): the pod has required node
		// affinity terms; a nodeSelector alone does not qualify.
		if len(t.Required) == 0 || t.Fit[n].Affinity || !c.fitsAnyNode(pod) {
			return v, false
		}
		return v, true
	case model.PreferredDuringSchedulingIgnoredDuringExecution:
		if len(t.Preferred) == 0 || !c.fitsAnyNode(pod) {
			return v, false
		}
		v.preferred, v.ownW, v.best = true, t.Fit[n].Preferred, -1
		for _, m := range c.ready {
			if w := t.Fit[m].Preferred; w > v.bestW {
				v.best, v.bestW = m, w
			}
		}
		return v, v.bestW > v.ownW
	}
	return v, false
}
