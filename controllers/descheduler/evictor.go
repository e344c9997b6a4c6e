package descheduler

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// evictor is the DefaultEvictor plugin plus the PodEvictor's per-cycle
// limits (pkg/descheduler/evictions/evictions.go): evictions per node,
// per namespace and in total.
type evictor struct {
	maxPerNode, maxPerNamespace, maxTotal int
	// zeroLimit: some limit is 0, so no eviction is admitted
	// (model.Descheduler.EvictionLimitZero).
	zeroLimit bool
	perNode   []int
	// perNamespace counts the evictions of each namespace (nsOf's
	// indices); nsOf is the namespace index of each template.
	perNamespace []int
	nsOf         []int
	total        int
	// pending are the pods admitted in this cycle whose deletion is not
	// requested yet (a deschedule plugin removes its pods when its pass
	// ends): the Eviction API has already counted them against their
	// budgets.
	pending []int
	// drewUnhealthy counts, per budget, the admitted evictions of pods
	// that were not Ready and still used one of its disruptions
	// (refusedByBudget).
	drewUnhealthy []int
	// deleted are the Pending or Running pods this cycle's evictions
	// made Terminating, in order.
	deleted []int
}

func newEvictor(u *model.Universe, nodes int) evictor {
	e := evictor{perNode: make([]int, nodes), drewUnhealthy: make([]int, len(u.PDBs))}
	if d := u.Descheduler; d != nil {
		e.maxPerNode, e.maxPerNamespace, e.maxTotal = d.MaxPerNode, d.MaxPerNamespace, d.MaxTotal
		e.zeroLimit = d.EvictionLimitZero
	}
	if e.maxPerNamespace > 0 {
		e.nsOf = make([]int, len(u.Templates))
		index := map[string]int{}
		for t := range u.Templates {
			ns := u.Templates[t].Namespace
			i, ok := index[ns]
			if !ok {
				i = len(index)
				index[ns] = i
			}
			e.nsOf[t] = i
		}
		e.perNamespace = make([]int, len(index))
	}
	return e
}

// clone is a copy of the evictor that the original's evictions leave
// as it is (a dry run restores it).
func (e evictor) clone() evictor {
	e.perNode = slices.Clone(e.perNode)
	e.perNamespace = slices.Clone(e.perNamespace)
	e.pending = slices.Clone(e.pending)
	e.drewUnhealthy = slices.Clone(e.drewUnhealthy)
	e.deleted = slices.Clone(e.deleted)
	return e
}

// namespaceQuotaLeft is how many more pods of namespace ns the cycle may
// evict; -1 without a namespace limit.
func (e *evictor) namespaceQuotaLeft(ns int) int {
	if e.maxPerNamespace == 0 {
		return -1
	}
	return max(0, e.maxPerNamespace-e.perNamespace[ns])
}

// evictOutcome is what an eviction attempt did; the limit outcomes steer
// the plugins as the EvictionNodeLimitError / NamespaceLimit /
// TotalLimitError types do upstream.
type evictOutcome uint8

const (
	evicted evictOutcome = iota
	// nodeLimit: the pod's node had its quota; go on with another node.
	nodeLimit
	// namespaceLimit: the namespace had its quota; go on with the next pod.
	namespaceLimit
	// totalLimit: the cycle had its quota; the plugin stops.
	totalLimit
	// refused: the Eviction API refused (disruptionbudget.go); go on
	// with the next candidate.
	refused
)

// filter is DefaultEvictor.Filter reduced to the model: the pod is bound
// to a node of the cycle, not terminating (phase Pending or Running)
// unless it carries the evict annotation (terminatingListed) or the
// listing shows it as it was (cycle.unseen), owned by a controller (bare
// pods are protected by default: the FailedBarePods protection), not
// protected by its priority (model.DeschedulerProfile.Protects), and
// admitted by the evictor's constraints (labelSelector, PodsWithoutPDB,
// minReplicas, minPodAge: evictorconstraints.go). Mirror, static,
// DaemonSet and local-storage pods do not exist in the model.
func (c *cycle) filter(p *model.DeschedulerProfile, pod int) bool {
	ps := &c.s.Pods[pod]
	if !c.listable(pod) {
		return false
	}
	n := ps.NodeOf()
	if n < 0 || !c.isReady[n] {
		return false
	}
	return c.evictorAdmits(p, ps, ps.Owner != 0)
}

// listable reports whether the Filter's phase check lets the pod
// through: Pending or Running, or terminating but listed anyway (the
// evict annotation: terminatingListed; an informer that has not seen its
// deletion: cycle.unseen).
func (c *cycle) listable(pod int) bool {
	ps := &c.s.Pods[pod]
	switch ps.Phase {
	case model.Pending, model.Running:
		return true
	case model.Terminating:
		return c.terminatingListed(ps) || c.unseen != nil && c.unseen[pod]
	}
	return false
}

// terminatingListed reports whether a terminating pod passes
// DefaultEvictor.Filter: upstream admits a pod with the
// descheduler.alpha.kubernetes.io/evict annotation before it checks that
// the pod is not terminating, so such a pod is a candidate of every
// plugin that lists pods through the Filter (the topology plugin skips
// terminating pods itself). Its eviction goes through: the Eviction API
// ignores disruption budgets for a pod being deleted, and deleting it
// again changes nothing (model.State.RequestDeletion), but it counts
// against the eviction limits and the plugin takes it as gone.
func (c *cycle) terminatingListed(ps *model.PodState) bool {
	return ps.Phase == model.Terminating && c.u.Templates[ps.Template].DeschedulerEvict
}

// preEvictionFilter is DefaultEvictor.PreEvictionFilter: with nodeFit the
// pod must fit on some other Ready node, and the namespaceLabelSelector
// must admit its namespace.
func (c *cycle) preEvictionFilter(p *model.DeschedulerProfile, pod int) bool {
	return (!p.NodeFit || c.fitsAnyOtherNode(pod, c.ready)) && c.constrained(p).namespaceAdmits(&c.s.Pods[pod])
}

// nodeQuotaLeft reports whether node n can take one more eviction; plugins
// use it to skip a node's candidates (and their trace lines) as upstream
// skips to the next node after an EvictionNodeLimitError.
func (c *cycle) nodeQuotaLeft(n int) bool {
	return !c.ev.zeroLimit && (c.ev.maxPerNode == 0 || c.ev.perNode[n]+1 <= c.ev.maxPerNode)
}

// evict checks the limits in upstream's order (total, node, namespace)
// and the Eviction API (the pod's disruption budget, admit) and, when
// none refuses, requests the pod's deletion (remove). A non-nil reason is
// printed just before the evictor's own line (Kivi's RemoveDuplicates
// prints its reason at eviction time), or before the refusal.
func (c *cycle) evict(pod int, reason *candidate) evictOutcome {
	out, refusal := c.admit(pod)
	if out == namespaceLimit || out == nodeLimit || out == totalLimit {
		return out
	}
	if reason != nil {
		reason.log(c)
	}
	if out == refused {
		c.logRefusal(pod, refusal)
		return out
	}
	c.remove(pod)
	return evicted
}

// admit is the PodEvictor's check of one eviction of pod: the limits,
// then the Eviction API (refusedByBudget, whose message it returns with
// refused). It returns the limit or refusal that stops it, or evicted
// after counting it; the pod is then pending until remove.
func (c *cycle) admit(pod int) (evictOutcome, string) {
	n := c.s.Pods[pod].NodeOf()
	e := &c.ev
	switch {
	case e.zeroLimit:
		c.note("    pod %d: an eviction limit of 0 admits no eviction\n", pod+1)
		return totalLimit, ""
	case e.maxTotal > 0 && e.total+1 > e.maxTotal:
		c.note("    pod %d: total eviction limit %d reached\n", pod+1, e.maxTotal)
		return totalLimit, ""
	case !c.nodeQuotaLeft(n):
		c.note("    pod %d: eviction limit %d of node %s reached\n", pod+1, e.maxPerNode, c.nodeName(n))
		return nodeLimit, ""
	case e.maxPerNamespace > 0 && e.namespaceQuotaLeft(e.nsOf[c.s.Pods[pod].Template]) == 0:
		c.note("    pod %d: namespace eviction limit %d reached\n", pod+1, e.maxPerNamespace)
		return namespaceLimit, ""
	}
	if msg := c.refusedByBudget(pod); msg != "" {
		return refused, msg
	}
	e.total++
	e.perNode[n]++
	if e.maxPerNamespace > 0 {
		e.perNamespace[e.nsOf[c.s.Pods[pod].Template]]++
	}
	e.pending = append(e.pending, pod)
	return evicted, ""
}

// remove requests the deletion of an admitted pod: it turns Terminating
// (remembering whether it was running, so it still counts as a started
// replica until the kubelet removes it), goes to the kubelet, and its
// ReplicaSet is queued to replace it (model.State.RequestDeletion).
func (c *cycle) remove(pod int) {
	if c.s.Pods[pod].Phase == model.Failed {
		c.deleteFailed(pod)
		return
	}
	if i := slices.Index(c.ev.pending, pod); i >= 0 {
		c.ev.pending = slices.Delete(c.ev.pending, i, i+1)
	}
	ps := &c.s.Pods[pod]
	n := ps.NodeOf()
	// The eviction API adds the DisruptionTarget condition
	// (EvictionByEvictionAPI).
	model.AddDisruptionTarget(c.u, c.s, pod)
	if ps.Active() {
		c.ev.deleted = append(c.ev.deleted, pod)
	}
	c.s.RequestDeletion(pod)
	c.tx.Mark(model.MarkEvicted(int(ps.Owner) - 1))
	if c.tx.Tracing() {
		c.tx.Log(Component, "Evicting pod %s from node %s", c.s.PodRef(pod), c.nodeName(n))
	}
	c.note("    evicted pod %d from node %s\n", pod+1, c.nodeName(n))
}

// inLimitOrder visits pods, evictions a plugin sends one after another,
// in an order upstream may take, and stops when visit returns true.
// Upstream sends them in the order its listing or map gave (informer or
// map order, neither defined), so when a per-node, namespace or total
// limit can cut them short, which of them go is up to that order. The
// walk then branches over which pod comes next, identical pods being one
// choice (model.Tx.ChoosePods), until no limit can cut the pods left;
// from the first such choice on, a disruption budget that can run out
// among the pods left keeps the walk branching too (before it, the
// caller's order already put the pods a budget lets through first,
// model.Tx.ThroughFirst). Pods that no limit and no budget can cut go in
// the caller's order: each then has the same outcome in every order.
// Which pods go is thus a function of the pods' contents, never of their
// slots. With Kivi's tie-break the caller's order is kept.
func (c *cycle) inLimitOrder(pods []int, visit func(pod int) bool) {
	if c.u.Options.TieBreak == model.LowestIndex || !c.ev.limited() {
		for _, pod := range pods {
			if visit(pod) {
				return
			}
		}
		return
	}
	rest := slices.Clone(pods)
	chose := false
	for len(rest) > 0 {
		i := 0
		if c.limitCuts(rest) || chose && c.budgetCuts(rest) {
			i = slices.Index(rest, c.tx.ChoosePods(c.s, rest, 1)[0])
			chose = true
		}
		pod := rest[i]
		rest = slices.Delete(rest, i, i+1)
		if visit(pod) {
			return
		}
	}
}

// limited reports whether the evictor has any eviction limit.
func (e *evictor) limited() bool {
	return e.maxPerNode > 0 || e.maxPerNamespace > 0 || e.maxTotal > 0
}

// limitCuts reports whether the order of pods decides which of them an
// eviction limit refuses: some limit has room for some of them but not
// for all (pods of a node, a namespace or a cycle with no room left are
// refused whatever the order).
func (c *cycle) limitCuts(pods []int) bool {
	e := &c.ev
	cuts := func(left, count int) bool { return left > 0 && count > left }
	if e.maxTotal > 0 && cuts(e.maxTotal-e.total, len(pods)) {
		return true
	}
	if e.maxPerNode > 0 {
		perNode := map[int]int{}
		for _, pod := range pods {
			perNode[c.s.Pods[pod].NodeOf()]++
		}
		for n, k := range perNode {
			if cuts(e.maxPerNode-e.perNode[n], k) {
				return true
			}
		}
	}
	if e.maxPerNamespace > 0 {
		perNamespace := map[int]int{}
		for _, pod := range pods {
			perNamespace[e.nsOf[c.s.Pods[pod].Template]]++
		}
		for ns, k := range perNamespace {
			if cuts(e.namespaceQuotaLeft(ns), k) {
				return true
			}
		}
	}
	return false
}

// budgetCuts reports whether some disruption budget lets through some
// but not all of the pods' evictions that draw on it.
func (c *cycle) budgetCuts(pods []int) bool {
	if len(c.u.PDBs) == 0 {
		return false
	}
	for b, k := range c.draws(pods, nil) {
		if a := c.allowance(b); a > 0 && k > a {
			return true
		}
	}
	return false
}
