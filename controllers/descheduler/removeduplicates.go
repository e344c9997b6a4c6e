package descheduler

import (
	"slices"
	"sort"

	"github.com/kivi-go/kivi/model"
)

// removeDuplicates is the RemoveDuplicates Balance plugin
// (pkg/framework/plugins/removeduplicates/removeduplicates.go): pods of one
// owner stacked on one node are spread so that no node keeps more than
// ⌈occurrences / target nodes⌉ of them.
type removeDuplicates struct{}

func (removeDuplicates) Name() string { return model.RemoveDuplicates.String() }

// ownerKey identifies an owner as upstream's (namespace, kind, name,
// images) does: a Deployment's pods are owned by a ReplicaSet, so the key
// is the ReplicaSet slot of the deployment, and the template stands for
// the container images.
type ownerKey struct {
	owner, rs, template uint8
}

func (k ownerKey) less(o ownerKey) bool {
	if k.owner != o.owner {
		return k.owner < o.owner
	}
	if k.rs != o.rs {
		return k.rs < o.rs
	}
	return k.template < o.template
}

// ownerPods is what the listing pass learns about one owner.
type ownerPods struct {
	key ownerKey
	// occurrence counts every listed pod of the owner.
	occurrence int
	// onNode[n] are the owner's listed pods on node n in slot order; all
	// but upper of them are duplicates to evict.
	onNode [][]int
}

// Plan lists the pods that pass Filter and PreEvictionFilter (upstream
// applies both at listing time, so the others are invisible), finds the
// owners with more than one pod on a node and keeps at most upper of an
// owner's pods on each node. Upstream keeps the first upper pods in
// listing (informer) order and evicts the rest; the model does not know
// that order, so it branches over which of the node's pods of the owner
// go, identical pods being one choice (ties.go). Choice 0 evicts the
// lowest slots.
func (r removeDuplicates) Plan(c *cycle, p *model.DeschedulerProfile) []candidate {
	owners := r.listOwners(c, p)
	var plan []candidate
	for i := range owners {
		o := &owners[i]
		if !o.hasDuplicates() {
			continue
		}
		targets := c.targetNodes(int(o.key.template))
		if c.explain != nil {
			c.note("    %s: %d pods, %d target nodes", c.ownerName(o.key), o.occurrence, targets)
		}
		if targets < 2 {
			c.note(": fewer than two feasible nodes, skipped\n")
			continue
		}
		upper := ceilDiv(o.occurrence, targets)
		c.note(", at most %d per node\n", upper)
		for n, pods := range o.onNode {
			if len(pods) < 2 {
				continue
			}
			var evict []int
			if len(pods) > upper {
				evict = c.tx.ChoosePods(c.s, pods, len(pods)-upper)
			}
			if c.explain != nil {
				c.note("      node %s: pods %v, evict %v\n", c.nodeName(n), plus1(pods), plus1(evict))
			}
			for _, pod := range evict {
				plan = append(plan, candidate{pod: pod, kind: reasonDuplicate})
			}
		}
	}
	if len(plan) == 0 {
		c.note("    no duplicates to evict\n")
	}
	return plan
}

// Balance evicts the plan owner by owner and, within an owner, node by
// node: a node whose quota is used up is skipped, the total limit stops
// the plugin. Upstream takes owners and an owner's nodes in map order,
// which matters only when a disruption budget lets through fewer
// evictions than the plan holds: the order is then a choice
// (budgetorder.go). An eviction limit may cut them too: then the owner
// order is a choice (ownersInLimitOrder), and so is the order of a node's
// duplicates, which go in listing order upstream (inLimitOrder).
func (r removeDuplicates) Balance(c *cycle, p *model.DeschedulerProfile) {
	plan := r.Plan(c, p)
	var owners [][]budgetUnit // per owner, its nodes' candidates
	var reasons []candidate   // by pod
	var ownerUnits []budgetUnit
	for i, cd := range plan {
		ps := &c.s.Pods[cd.pod]
		n := ps.NodeOf()
		if i == 0 || !sameOwner(&c.s.Pods[plan[i-1].pod], ps) {
			owners = append(owners, nil)
			ownerUnits = append(ownerUnits, budgetUnit{node: -1})
		}
		o := len(owners) - 1
		if k := len(owners[o]); k == 0 || owners[o][k-1].node != n {
			owners[o] = append(owners[o], budgetUnit{node: n})
		}
		k := len(owners[o]) - 1
		owners[o][k].pods = append(owners[o][k].pods, cd.pod)
		ownerUnits[o].pods = append(ownerUnits[o].pods, cd.pod)
		reasons = append(reasons, cd)
	}
	reason := func(pod int) *candidate {
		for i := range reasons {
			if reasons[i].pod == pod {
				return &reasons[i]
			}
		}
		return nil
	}
	visit := func(o int, _ []int) bool {
		stop := false
		c.inBudgetOrder(owners[o], true, func(_ int, pods []int) bool {
			c.inLimitOrder(pods, func(pod int) bool {
				if !c.nodeQuotaLeft(c.s.Pods[pod].NodeOf()) {
					return true
				}
				stop = c.evict(pod, reason(pod)) == totalLimit
				return stop
			})
			return stop
		})
		return stop
	}
	if c.ownersInLimitOrder(ownerUnits, visit) {
		return
	}
	c.inBudgetOrder(ownerUnits, false, visit)
}

// ownersInLimitOrder visits owners, in map order upstream, in an order
// it branches over as long as an eviction limit may cut their pods left
// (a node's quota shared by two owners' duplicates, a namespace's, the
// total): which owner comes first then decides whose pods go. It empties
// the units it visits, leaving the rest to the budget order, and reports
// whether visit stopped the walk. With Kivi's tie-break the walk is left
// to the budget order, owner by owner.
func (c *cycle) ownersInLimitOrder(units []budgetUnit, visit func(o int, pods []int) bool) bool {
	if c.u.Options.TieBreak == model.LowestIndex || !c.ev.limited() {
		return false
	}
	for {
		var left, pods []int
		for o := range units {
			if len(units[o].pods) > 0 {
				left = append(left, o)
				pods = append(pods, units[o].pods...)
			}
		}
		if len(left) < 2 || !c.limitCuts(pods) {
			return false
		}
		o := left[c.tx.Choose(len(left))]
		ps := units[o].pods
		units[o].pods = nil
		if visit(o, ps) {
			return true
		}
	}
}

// sameOwner reports whether two pods have one owner key.
func sameOwner(a, b *model.PodState) bool {
	return a.Owner == b.Owner && a.RS == b.RS && a.Template == b.Template
}

// listOwners walks the Ready nodes in index order and their listed pods in
// slot order.
func (removeDuplicates) listOwners(c *cycle, p *model.DeschedulerProfile) []ownerPods {
	var owners []ownerPods
	find := func(k ownerKey) *ownerPods {
		for i := range owners {
			if owners[i].key == k {
				return &owners[i]
			}
		}
		owners = append(owners, ownerPods{key: k, onNode: make([][]int, len(c.s.Nodes))})
		return &owners[len(owners)-1]
	}
	for _, n := range c.ready {
		for pod := range c.s.Pods {
			ps := &c.s.Pods[pod]
			if ps.NodeOf() != n || !c.admits(&p.RemoveDuplicatesFilter, pod) || !c.filter(p, pod) || !c.preEvictionFilter(p, pod) {
				continue
			}
			if slices.Contains(p.RemoveDuplicatesExcludeOwnerKinds, c.u.OwnerKind(int(ps.Owner)-1)) {
				continue
			}
			k := ownerKey{owner: ps.Owner, rs: ps.RS, template: ps.Template}
			o := find(k)
			o.occurrence++
			o.onNode[n] = append(o.onNode[n], pod)
		}
	}
	// Upstream walks owners in map order; a fixed order keeps the cycle
	// deterministic (it matters only when limits cut the plan short).
	sort.Slice(owners, func(i, j int) bool { return owners[i].key.less(owners[j].key) })
	return owners
}

func (o *ownerPods) hasDuplicates() bool {
	for _, pods := range o.onNode {
		if len(pods) > 1 {
			return true
		}
	}
	return false
}

// targetNodes is getTargetNodes for the owner's template: the Ready nodes
// whose NoSchedule/NoExecute taints it tolerates and whose labels match its
// nodeSelector and required affinity, counted only when more than one
// node qualifies. Like Kivi we also honour a template's nodeName (upstream
// does not look at it): a pinned pod can land on its node only.
func (c *cycle) targetNodes(template int) int {
	t := &c.u.Templates[template]
	count := 0
	for _, n := range c.ready {
		f := t.Fit[n]
		if f.Affinity && f.NodeName && !f.NoSchedule && !f.NoExecute {
			count++
		}
	}
	if count > 1 {
		return count
	}
	return 0
}

func (c *cycle) ownerName(k ownerKey) string {
	return "deployment " + c.u.Deployments[k.owner-1].Name + " rs " + itoa(int(k.rs)) + " template " + c.u.Templates[k.template].Name
}
