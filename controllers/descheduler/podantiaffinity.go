package descheduler

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// podAntiAffinity is the RemovePodsViolatingInterPodAntiAffinity
// Deschedule plugin (pkg/framework/plugins/
// removepodsviolatinginterpodantiaffinity/pod_antiaffinity.go at v0.36).
// It lists every pod bound to a cycle node (Pending, Running or being
// deleted) that its own pod filter (namespaces, labelSelector) admits,
// then node by node, pods in
// eviction order, evicts a pod whose required anti-affinity term matches
// another listed pod in its domain, if the evictor's Filter and
// PreEvictionFilter pass; an evicted pod is struck from the list, so the
// pods it conflicted with may stay.
//
// Its domain test is upstream's hasSameLabelValue, which differs from
// the scheduler's: two pods on the same node share a domain even when the
// node lacks the term's topology key (the scheduler then ignores the
// term). Only the pod's own terms count, not the terms of the pods it
// matches.
//
// The scheduler enforces required anti-affinity both ways, so in the
// model a violation needs a pod the scheduler did not place (nodeName,
// the input's placement) or a term whose key the node lacks.
type podAntiAffinity struct{}

func (podAntiAffinity) Name() string { return model.RemovePodsViolatingInterPodAntiAffinity.String() }

// Deschedule walks the cycle's nodes in an order upstream's node list may
// take, where it matters: where a violating pod conflicts only with pods
// on other nodes that the walk may evict (a term over a key several nodes
// share, such as a zone), the node visited first loses its pod and
// spares the other's, and a disruption budget or an eviction limit may
// run out among the nodes; there the walk branches over the next node,
// one per orbit, as budgetorder.go does (walkState); otherwise it takes
// the nodes in index order. Upstream sorts a
// node's pods by priority, lowest first, then QoS class, BestEffort
// first (SortPodsBasedOnPriorityLowToHigh: podClass), and keeps the listing order
// among equals, which the model does not know. Which pod of a class goes
// first matters only when pods conflict with each other, or a disruption
// budget runs out or an eviction limit cuts among them (they refuse the
// ones picked last): then the plugin branches over it (identical pods are
// one choice; choice 0 is the lowest slot). When every violating pod
// conflicts with a pod that stays anyway and neither a budget nor a limit
// cuts, all of them go whatever the order, and they are taken in slot
// order. A node whose eviction limit is
// reached is left for the next one; the total limit ends the plugin.
func (a podAntiAffinity) Deschedule(c *cycle, p *model.DeschedulerProfile) {
	listed := make([]bool, len(c.s.Pods))
	for pod := range c.s.Pods {
		ps := &c.s.Pods[pod]
		listed[pod] = bound(ps) && c.isReady[ps.NodeOf()] && c.admits(p.Deschedule.Filter(model.RemovePodsViolatingInterPodAntiAffinity), pod)
	}
	var out []violation
	defer func() { c.flush(out) }()
	visited := make([]bool, len(c.s.Nodes))
	res := c.walkResources()
	order := walkOrder{last: -1}
	for {
		// The nodes left with a pod that violates now: evictions only
		// strike pods off the list, so a node without one never gets
		// one.
		units := a.units(c, p, listed, visited)
		if len(units) == 0 {
			return
		}
		w := a.walkState(c, units, listed, res)
		if !w.contested {
			// Each node's evictions depend on that node alone: index
			// order.
			for _, u := range units {
				if a.node(c, p, u.node, listed, &out) == totalLimit {
					return
				}
			}
			return
		}
		// As in budgetorder.go: a node whose visit may decide another's
		// pods (it evicts the last conflicts of a pod elsewhere, or uses
		// up a budget or a limit) can come next at any point; runs of the
		// others commute and go in index order.
		nodes := make([]int, len(units))
		for i, u := range units {
			nodes[i] = u.node
		}
		n := nodes[order.next(c, nodes, nodes, func(i int) bool { return w.cuts[i] })]
		visited[n] = true
		if a.node(c, p, n, listed, &out) == totalLimit {
			return
		}
	}
}

// antiWalk is where the order of the anti-affinity walk's nodes matters:
// contested, the order of the units left can change what is evicted;
// cuts[i], unit i's visit may decide the fate of pods on another unit's
// node.
type antiWalk struct {
	contested bool
	cuts      []bool
}

// walkState finds where the order of units matters. A violating pod
// whose every conflict is with candidates (pods the walk may evict), one
// of them on another unit's node, stays if those go first: the units are
// contested, and a unit holding all of such a pod's conflicts off its own
// node cuts (its visit spares the pod). A candidate that also conflicts
// with a pod that stays (not a candidate: it violates nothing, the
// evictor protects it, or its node was visited) goes whatever the order;
// one whose conflicts are all on its own node is decided there (node).
// A budget or an eviction limit that may run out among the units makes
// them contested too, and a unit that may use it up cuts (budgetorder.go,
// walkResources).
func (podAntiAffinity) walkState(c *cycle, units []budgetUnit, listed []bool, res walkResources) antiWalk {
	w := antiWalk{cuts: make([]bool, len(units))}
	unitOf := make([]int, len(c.s.Pods))
	for i := range unitOf {
		unitOf[i] = -1
	}
	for i, u := range units {
		for _, pod := range u.pods {
			unitOf[pod] = i
		}
	}
	for i, u := range units {
		for _, pod := range u.pods {
			ps := &c.s.Pods[pod]
			anchored, outside := false, -1 // outside: the one other unit holding its conflicts off its node, -2 several
			for _, k := range c.u.Templates[ps.Template].PodAntiAffinity {
				for q := range c.s.Pods {
					if q == pod || !listed[q] || !k.DeschedulerMatches(ps, &c.s.Pods[q]) || !c.sameDomain(u.node, c.s.Pods[q].NodeOf(), k.Key) {
						continue
					}
					switch j := unitOf[q]; {
					case j < 0:
						anchored = true
					case j == i:
					case outside == -1:
						outside = j
					case outside != j:
						outside = -2
					}
				}
			}
			if anchored || outside == -1 {
				continue
			}
			w.contested = true
			if outside >= 0 {
				w.cuts[outside] = true
			}
		}
	}
	if n := res.count(); n > 0 {
		draws := make([][]int, len(units))
		allow := make([]int, n)
		all := make([]int, len(units))
		for i := range units {
			draws[i] = res.draws(c, units[i], nil)
			all[i] = i
		}
		for r := range allow {
			allow[r] = res.allowance(c, r)
		}
		runsOut := make([]bool, n)
		if scarce(allow, draws, all, runsOut) {
			w.contested = true
			for i := range units {
				w.cuts[i] = w.cuts[i] || usesUp(allow, draws[i], func(r int) bool { return runsOut[r] })
			}
		}
	}
	return w
}

// units lists, in index order, the cycle's nodes not yet visited that
// hold a listed pod violating now and evictable: what each may evict is
// bounded by those pods.
func (a podAntiAffinity) units(c *cycle, p *model.DeschedulerProfile, listed, visited []bool) []budgetUnit {
	var units []budgetUnit
	for _, n := range c.ready {
		if visited[n] {
			continue
		}
		u := budgetUnit{node: n}
		for pod := range c.s.Pods {
			if listed[pod] && c.s.Pods[pod].NodeOf() == n {
				if _, ok := a.conflict(c, pod, listed); ok && c.filter(p, pod) && c.preEvictionFilter(p, pod) {
					u.pods = append(u.pods, pod)
				}
			}
		}
		if len(u.pods) > 0 {
			units = append(units, u)
		}
	}
	return units
}

// podClass is a pod's place in SortPodsBasedOnPriorityLowToHigh
// (descheduler v0.36, pkg/descheduler/pod): its priority, lowest first;
// then its QoS class, BestEffort, Burstable, Guaranteed; then, among
// equals, a pod without the descheduler.alpha.kubernetes.io/
// prefer-no-eviction annotation before one with it. Upstream's order
// within a class is its listing order, which the plugins branch over.
type podClass struct {
	priority         int32
	qos              model.QoSClass
	preferNoEviction bool
}

func (a podClass) less(b podClass) bool {
	switch {
	case a.priority != b.priority:
		return a.priority < b.priority
	case a.qos != b.qos:
		return a.qos < b.qos
	}
	return !a.preferNoEviction && b.preferNoEviction
}

func classOf(c *cycle, pod int) podClass {
	t := &c.u.Templates[c.s.Pods[pod].Template]
	return podClass{priority: c.u.PodPriority(c.s, pod), qos: t.QoS(), preferNoEviction: t.PreferNoEviction}
}

// node processes node n's listed pods class by class (podClass order);
// it returns totalLimit when the plugin must stop.
func (a podAntiAffinity) node(c *cycle, p *model.DeschedulerProfile, n int, listed []bool, out *[]violation) evictOutcome {
	done := make([]bool, len(c.s.Pods))
	var classes []podClass
	for pod := range c.s.Pods {
		if listed[pod] && c.s.Pods[pod].NodeOf() == n && !slices.Contains(classes, classOf(c, pod)) {
			classes = append(classes, classOf(c, pod))
		}
	}
	slices.SortFunc(classes, func(a, b podClass) int {
		switch {
		case a.less(b):
			return -1
		case b.less(a):
			return 1
		}
		return 0
	})
	for _, class := range classes {
		for {
			var cands []int
			for pod := range c.s.Pods {
				ps := &c.s.Pods[pod]
				if !listed[pod] || done[pod] || ps.NodeOf() != n || classOf(c, pod) != class {
					continue
				}
				if _, ok := a.conflict(c, pod, listed); ok && c.filter(p, pod) && c.preEvictionFilter(p, pod) {
					cands = append(cands, pod)
				}
			}
			if len(cands) == 0 {
				break
			}
			pod := cands[0]
			if !a.orderFree(c, cands, listed) || c.budgetRunsOut(cands) || c.limitCuts(cands) {
				pod = c.tx.ChoosePods(c.s, cands, 1)[0]
			}
			other, _ := a.conflict(c, pod, listed)
			v := violation{pod: pod, plugin: model.RemovePodsViolatingInterPodAntiAffinity, other: other.pod, key: other.key}
			switch o := c.tryEvict(v, out); o {
			case evicted:
				listed[pod] = false
			case nodeLimit, totalLimit:
				return o
			}
			done[pod] = true
		}
	}
	return evicted
}

// match is a listed pod a term of key matches in a pod's domain.
type match struct {
	pod int
	key model.KeyID
}

// conflict is CheckPodsWithAntiAffinityExist: the first listed pod
// (other than pod) that one of pod's required anti-affinity terms matches
// in pod's domain of the term's key. The term reaches its `namespaces`,
// else pod's own; upstream does not read namespaceSelector
// (PodAffinityTerm.DeschedulerMatches).
func (podAntiAffinity) conflict(c *cycle, pod int, listed []bool) (match, bool) {
	ps := &c.s.Pods[pod]
	terms := c.u.Templates[ps.Template].PodAntiAffinity
	n := ps.NodeOf()
	for i := range terms {
		k := &terms[i]
		for q := range c.s.Pods {
			if q == pod || !listed[q] || !k.DeschedulerMatches(ps, &c.s.Pods[q]) {
				continue
			}
			if c.sameDomain(n, c.s.Pods[q].NodeOf(), k.Key) {
				return match{pod: q, key: k.Key}, true
			}
		}
	}
	return match{}, false
}

// orderFree reports whether every candidate conflicts with some listed
// pod that is not a candidate: such pods are never evicted while this
// class of this node is processed (they do not violate, cannot be
// evicted, or belong to another class or node), so every candidate is
// evicted whatever the order.
func (podAntiAffinity) orderFree(c *cycle, cands []int, listed []bool) bool {
	for _, pod := range cands {
		ps := &c.s.Pods[pod]
		terms := c.u.Templates[ps.Template].PodAntiAffinity
		n := ps.NodeOf()
		anchored := false
		for i := range terms {
			k := &terms[i]
			for q := range c.s.Pods {
				if q != pod && listed[q] && !slices.Contains(cands, q) && k.DeschedulerMatches(ps, &c.s.Pods[q]) &&
					c.sameDomain(n, c.s.Pods[q].NodeOf(), k.Key) {
					anchored = true
					break
				}
			}
			if anchored {
				break
			}
		}
		if !anchored {
			return false
		}
	}
	return true
}

// sameDomain is hasSameLabelValue: the same node, or two nodes that both
// carry key with the same value.
func (c *cycle) sameDomain(a, b int, key model.KeyID) bool {
	if a == b {
		return true
	}
	va := c.u.Nodes[a].LabelSet.Get(key)
	return va != 0 && va == c.u.Nodes[b].LabelSet.Get(key)
}

// budgetRunsOut reports whether some budget selects more running
// candidates than it lets through in this cycle: it refuses the ones
// picked last, so the order of the picks decides which pods go even when
// every candidate conflicts whatever the order (orderFree). Pending pods
// are evicted whatever the budget (the Eviction API ignores it for them).
func (c *cycle) budgetRunsOut(cands []int) bool {
	for b := range c.u.PDBs {
		n := 0
		for _, pod := range cands {
			if c.s.Pods[pod].Phase == model.Running && c.u.PDBs[b].Selects(c.s, pod) {
				n++
			}
		}
		if n > 0 && n > c.allowance(b) {
			return true
		}
	}
	return false
}
