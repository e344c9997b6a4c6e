package descheduler

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/kivi-go/kivi/model"
)

// What LowNodeUtilization and HighNodeUtilization share
// (pkg/framework/plugins/nodeutilization/nodeutilization.go at v0.36):
// a snapshot of every cycle node's requested resources, its utilisation
// in percent of allocatable, the capacity a classified node offers up to
// its target, and the eviction walk over source nodes with the
// "continue evicting" condition.

const (
	rCPU  = model.ResourceCPU
	rMem  = model.ResourceMemory
	rPods = model.ResourcePods
	nRes  = model.NumResources
)

// resources are amounts per resource: millicores, MiB and pods.
type resources [nRes]int64

// nodeUsage is one node of the snapshot.
type nodeUsage struct {
	node int
	// used sums the requests of every pod bound to the node that is not
	// Succeeded or Failed (Terminating pods included: the informer still
	// lists them) plus what untracked pods reserve; alloc is allocatable.
	used, alloc resources
	pct         [nRes]float64
	// available is the node's capacity capped at its target threshold
	// (capNodeCapacitiesToThreshold): for a resource with a target,
	// ⌊target% × allocatable⌋, otherwise all of allocatable.
	available resources
}

// snapshot is getNodeUsageSnapshot with the requested-usage client: the
// cycle's nodes in index order.
func (c *cycle) snapshot() []nodeUsage {
	out := make([]nodeUsage, 0, len(c.ready))
	requested := c.u.RequestedOnNodes(c.s, nil)
	for _, n := range c.ready {
		a, r := c.u.Allocatable(n), requested[n]
		nu := nodeUsage{node: n,
			used:  resources{r.CPU, r.Memory, int64(r.Pods)},
			alloc: resources{a.CPU, a.Memory, int64(a.Pods)}}
		for k := range nRes {
			nu.pct[k] = percentOf(nu.used[k], nu.alloc[k])
		}
		out = append(out, nu)
	}
	return out
}

// percentOf is ResourceUsageToResourceThreshold for one resource: the
// float64 percentage upstream compares with the thresholds (0 when the
// node has no capacity).
func percentOf(used, capacity int64) float64 {
	if capacity <= 0 {
		return 0
	}
	return float64(used) / float64(capacity) * 100
}

// capAt is capNodeCapacityToThreshold: the threshold's share of the
// capacity, truncated as upstream's int64 conversion does.
func capAt(threshold float64, capacity int64) int64 {
	return int64(threshold * 0.01 * float64(capacity))
}

// capAvailable fills nu.available from the target thresholds.
func (nu *nodeUsage) capAvailable(target model.ResourceThresholds) {
	for k := range nRes {
		nu.available[k] = nu.alloc[k]
		if v, ok := target.Get(k); ok {
			nu.available[k] = capAt(v, nu.alloc[k])
		}
	}
}

// belowThreshold is isNodeBelowThreshold: every resource with a threshold
// at or below it.
func belowThreshold(pct [nRes]float64, t model.ResourceThresholds) bool {
	for k := range nRes {
		if v, ok := t.Get(k); ok && v < pct[k] {
			return false
		}
	}
	return true
}

// aboveThreshold is isNodeAboveThreshold: some resource with a threshold
// above it.
func aboveThreshold(pct [nRes]float64, t model.ResourceThresholds) bool {
	for k := range nRes {
		if v, ok := t.Get(k); ok && v < pct[k] {
			return true
		}
	}
	return false
}

// enoughUnderutilized is the early stop both plugins share: they do
// nothing when no node, or at most numberOfNodes nodes, are
// underutilised, or when every node is.
func (c *cycle) enoughUnderutilized(under, nodes, numberOfNodes int) bool {
	switch {
	case under == 0:
		c.note("    no node is underutilized, nothing to do\n")
	case under <= numberOfNodes:
		c.note("    %d underutilized node(s), at most numberOfNodes %d, nothing to do\n", under, numberOfNodes)
	case under == nodes:
		c.note("    all nodes are underutilized, nothing to do\n")
	default:
		return true
	}
	return false
}

// unschedulable is IsNodeUnschedulable: spec.unschedulable, set by a
// drain's cordon (model.NodeState.Cordoned) or, for a node read as
// cordoned, kept as its static taint.
func (c *cycle) unschedulable(n int) bool {
	return c.s.Nodes[n].Cordoned || slices.Contains(c.u.Nodes[n].Taints, model.UnschedulableTaint())
}

// usageKey is sortNodesByUsage's key: the raw usage summed over cpu
// (millicores), memory (bytes; the model's MiB × 2^20) and pods.
func usageKey(nu *nodeUsage) int64 {
	return nu.used[rCPU] + nu.used[rMem]<<20 + nu.used[rPods]
}

// podRequests is what evicting pod takes off its node's usage and off
// the destinations' headroom (subtractPodUsageFromNodeAvailability: its
// requests, and one pod).
func (c *cycle) podRequests(pod int) resources {
	t := &c.u.Templates[c.s.Pods[pod].Template]
	return resources{t.CPU, t.Memory, 1}
}

// toleratesDestinations is PodToleratesTaints against the destination
// nodes: the pod tolerates every taint of one of them, whatever its
// effect, and (upstream's shortcut) has at least as many tolerations as
// that node has taints.
func (c *cycle) toleratesDestinations(pod int, dest []nodeUsage) bool {
	t := int(c.s.Pods[pod].Template)
	tols := c.u.AdmittedTolerationCount(t)
	for _, d := range dest {
		f := c.u.Templates[t].Fit[d.node]
		if tols >= len(c.u.Nodes[d.node].Taints) && !f.NoSchedule && !f.NoExecute && f.PreferNoSchedule == 0 {
			return true
		}
	}
	return false
}

// continueFunc is continueEvictionCond: whether to go on evicting from a
// node whose usage is used (after the evictions so far) with the
// destinations' headroom avail.
type continueFunc func(nu *nodeUsage, used, avail resources) bool

// headroomLeft is the shared part of both plugins' conditions: every
// resource of the destinations' headroom still above zero.
func headroomLeft(avail resources) bool {
	for k := range nRes {
		if avail[k] <= 0 {
			return false
		}
	}
	return true
}

// walk is evictPodsFromSourceNodes: sources in the order given (ties
// already sorted out by nextSource), on each its eligible pods walked
// until cont says stop or a limit is reached. It returns the plan.
type walk struct {
	c    *cycle
	p    *model.DeschedulerProfile
	kind reasonKind
	cont continueFunc
	// stopReason says why cont fails before the first eviction.
	stopReason string
	dest       []nodeUsage
	avail      resources
	filter     func(pod int) bool
	// nodeLimit is the plugin's own per-node limit (evictionLimits.node),
	// -1 for none.
	nodeLimit int
	// total and perNode count the plan against the evictor's limits (the
	// counters as the cycle left them plus this plan).
	total   int
	perNode map[int]int
	// left is, per disruption budget and then per namespace under the
	// evictor's namespace limit, how many more planned evictions it lets
	// through (nodeutilization_budget.go); nil until first needed.
	left []int
	plan []candidate
}

// headroom is assessAvailableResourceInNodes: Σ over the destinations of
// their capped capacity minus their usage.
func headroom(dest []nodeUsage) resources {
	var avail resources
	for _, d := range dest {
		for k := range nRes {
			avail[k] += d.available[k] - d.used[k]
		}
	}
	return avail
}

// eligible lists the pods of source node nu the walk would try to evict,
// in upstream's order: removable (the plugin's filter), tolerating a
// destination's taints, passing PreEvictionFilter; sorted by priority,
// lowest first, then QoS class, then the prefer-no-eviction annotation
// (SortPodsBasedOnPriorityLowToHigh: podClass), then by slot. class[i]
// is the rank of pods[i]'s class, non-decreasing: upstream's order within
// a class is its listing order.
func (w *walk) eligible(nu *nodeUsage) (pods []int, class []int) {
	c := w.c
	for pod := range c.s.Pods {
		if c.s.Pods[pod].NodeOf() != nu.node || !w.filter(pod) || !c.toleratesDestinations(pod, w.dest) || !c.preEvictionFilter(w.p, pod) {
			continue
		}
		pods = append(pods, pod)
	}
	sort.SliceStable(pods, func(a, b int) bool { return classOf(c, pods[a]).less(classOf(c, pods[b])) })
	class = make([]int, len(pods))
	for i := 1; i < len(pods); i++ {
		class[i] = class[i-1]
		if classOf(c, pods[i-1]) != classOf(c, pods[i]) {
			class[i]++
		}
	}
	return pods, class
}

// capFor is how many pods node n may still lose: the plugin's node limit
// and the evictor's node and total limits (evictor.go), the first two per
// node, the last for the cycle. -1: no limit. The namespace limit is no
// cap on a node (a pod of a namespace at its limit is skipped and the
// walk goes on): it is a budget (nodeutilization_budget.go).
func (w *walk) capFor(n int) int {
	e := &w.c.ev
	limit := w.nodeLimit
	lower := func(l int) {
		l = max(l, 0)
		if limit < 0 || l < limit {
			limit = l
		}
	}
	if e.zeroLimit {
		lower(0)
	}
	if e.maxPerNode > 0 {
		lower(e.maxPerNode - e.perNode[n] - w.perNode[n])
	}
	if e.maxTotal > 0 {
		lower(e.maxTotal - e.total - w.total)
	}
	return limit
}

// source evicts from one source node: the eligible pods, the choice of
// which of them go, and the bookkeeping of the headroom, the limits and
// the disruption budgets.
//
// Upstream walks the eligible pods class by class (priority, then QoS:
// eligible) and in listing order within a class, skips a pod whose
// eviction the Eviction API refuses (uncharged), and stops at the first
// eviction after which cont fails; which pods go depends on that order,
// which the model does not know. The set that goes is a choice over
// every set some order reaches, counted by how many of each group of
// identical pods go (model.IdenticalGroups; the lowest slots of a group
// go). Since evicting more never makes cont true again (usage and
// headroom only shrink) and a budget only runs out, a set S is reached
// exactly when no budget lets through fewer of S than draw on it, every
// pod of a class before S's last that S leaves out is refused there
// (several budgets, or a budget that S's pods of that class and the
// classes before use up), cont holds with one pod of S's last class put
// back, and the walk ends after S: cont fails, a limit is reached, or
// every eligible pod left is refused. Choice 0 is the walk in slot
// order.
func (w *walk) source(nu *nodeUsage) {
	c := w.c
	pods, class := w.eligible(nu)
	limit := w.capFor(nu.node)
	if len(pods) == 0 {
		c.note("      node %s: no pod to evict\n", c.nodeName(nu.node))
		return
	}
	if !w.cont(nu, nu.used, w.avail) {
		c.note("      node %s: %s, nothing evicted\n", c.nodeName(nu.node), w.stopReason)
		return
	}
	if limit == 0 {
		c.note("      node %s: eviction limit reached, nothing evicted\n", c.nodeName(nu.node))
		return
	}
	greedy := w.greedy(nu, pods, limit)
	chosen := greedy
	if c.u.Options.TieBreak != model.LowestIndex {
		sets := w.reachable(nu, pods, class, limit)
		// Choice 0 is the slot-order walk.
		for i, s := range sets {
			if sameSet(s, greedy) {
				sets[0], sets[i] = sets[i], sets[0]
				break
			}
		}
		if len(sets) > 0 {
			chosen = sets[c.tx.Choose(len(sets))]
		}
	}
	refused := w.refusedAlong(nu, pods, class, chosen, limit)
	byOwner := func(a, b int) int {
		if oa, ob := c.s.Pods[a].Owner, c.s.Pods[b].Owner; oa != ob {
			return int(oa) - int(ob)
		}
		return a - b
	}
	slices.SortFunc(chosen, byOwner)
	slices.SortFunc(refused, byOwner)
	if c.explain != nil {
		c.note("      node %s: pods %v, evict %v", c.nodeName(nu.node), plus1(pods), plus1(chosen))
		if len(refused) > 0 {
			c.note(", refused %v", plus1(refused))
		}
		c.note("\n")
	}
	w.planBudgets(chosen)
	for _, pod := range chosen {
		req := c.podRequests(pod)
		for k := range nRes {
			w.avail[k] -= req[k]
		}
		w.plan = append(w.plan, candidate{pod: pod, kind: w.kind})
	}
	// The refused evictions come after the node's evictions, when the
	// budgets they draw on are used up; they change nothing but the trace.
	for _, pod := range refused {
		w.plan = append(w.plan, candidate{pod: pod, kind: w.kind})
	}
	w.total += len(chosen)
	w.perNode[nu.node] += len(chosen)
}

// greedy is the walk over pods in the given order.
func (w *walk) greedy(nu *nodeUsage, pods []int, limit int) []int {
	used, avail := nu.used, w.avail
	drawn := make([]int, len(w.budgetsLeft()))
	var out []int
	for _, pod := range pods {
		if limit >= 0 && len(out) >= limit {
			break
		}
		if w.refusedWith(pod, drawn) {
			continue
		}
		w.draw(pod, drawn)
		req := w.c.podRequests(pod)
		for k := range nRes {
			used[k] -= req[k]
			avail[k] -= req[k]
		}
		out = append(out, pod)
		if !w.cont(nu, used, avail) {
			break
		}
	}
	return out
}

// reachable lists every set of eligible pods some walk order evicts
// (source), each in group order, identical pods counted by group. class
// is eligible's rank of each pod's (priority, QoS) class.
func (w *walk) reachable(nu *nodeUsage, pods []int, class []int, limit int) [][]int {
	c := w.c
	var groups [][]int
	var gclass []int // class of each group
	size := make([]int, 0, len(pods))
	for start := 0; start < len(pods); {
		end := start
		for end < len(pods) && class[end] == class[start] {
			end++
		}
		for _, g := range model.IdenticalGroups(c.s, pods[start:end]) {
			groups = append(groups, g)
			gclass = append(gclass, class[start])
		}
		size = append(size, end-start)
		start = end
	}
	take := make([]int, len(groups))
	taken := make([]int, len(size))
	var out [][]int
	var rec func(g int)
	rec = func(g int) {
		if g < len(groups) {
			for k := 0; k <= len(groups[g]); k++ {
				take[g] = k
				rec(g + 1)
			}
			return
		}
		n, maxClass := 0, -1
		clear(taken)
		var sum resources
		for i, k := range take {
			if k == 0 {
				continue
			}
			n += k
			taken[gclass[i]] += k
			maxClass = max(maxClass, gclass[i])
			req := c.podRequests(groups[i][0])
			for r := range nRes {
				sum[r] += int64(k) * req[r]
			}
		}
		if limit >= 0 && n > limit {
			return
		}
		var set []int
		for i, k := range take {
			set = append(set, groups[i][:k]...)
		}
		// No budget lets through fewer of S than draw on it, and no pod
		// of S is refused for good.
		left := w.budgetsLeft()
		drawn := w.drawnBy(set)
		for i, k := range take {
			if k > 0 && w.gate(groups[i][0]) == gateRefused {
				return
			}
		}
		for b, k := range drawn {
			if k > left[b] {
				return
			}
		}
		// refusedLeftOut: every pod of the classes up to cl that S leaves
		// out is refused once S's pods of those classes are through (an
		// order puts the pods S leaves out of a class after its pods in
		// S; a budget only runs out as more draw on it).
		refusedLeftOut := func(cl int) bool {
			var part []int
			for i, k := range take {
				if gclass[i] <= cl {
					part = append(part, groups[i][:k]...)
				}
			}
			through := w.drawnBy(part)
			for i, k := range take {
				if k < len(groups[i]) && gclass[i] <= cl && !w.refusedWith(groups[i][0], through) {
					return false
				}
			}
			return true
		}
		// Every pod of a class before S's last is evicted or refused.
		for cl := range maxClass {
			if taken[cl] < size[cl] && !refusedLeftOut(cl) {
				return
			}
		}
		used, avail := nu.used, w.avail
		for r := range nRes {
			used[r] -= sum[r]
			avail[r] -= sum[r]
		}
		// The walk ends after S: cont fails, the limit is reached, or
		// every pod left is refused.
		if w.cont(nu, used, avail) && (limit < 0 || n < limit) && !refusedLeftOut(len(size)-1) {
			return
		}
		if n == 0 {
			out = append(out, nil)
			return
		}
		// Some pod of S's last class was the last one evicted, with cont
		// still true before it.
		last := false
		for i, k := range take {
			if k == 0 || gclass[i] != maxClass {
				continue
			}
			req := c.podRequests(groups[i][0])
			u2, a2 := used, avail
			for r := range nRes {
				u2[r] += req[r]
				a2[r] += req[r]
			}
			if w.cont(nu, u2, a2) {
				last = true
				break
			}
		}
		if !last {
			return
		}
		out = append(out, set)
	}
	rec(0)
	return out
}

func sameSet(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// sortSources is sortNodesByUsage: descending usage key for
// LowNodeUtilization, ascending for HighNodeUtilization; equal keys stay
// in node index order here (order decides among them).
func sortSources(sources []nodeUsage, descending bool) {
	sort.SliceStable(sources, func(a, b int) bool {
		ka, kb := usageKey(&sources[a]), usageKey(&sources[b])
		if descending {
			return ka > kb
		}
		return ka < kb
	})
}

// order walks the sources, sorted by sortSources, calling visit on each. Sources of equal key come in any order upstream (sort.Slice
// over map order): the next one is a choice among them (node orbits
// merged, model.Tx.ChooseNodeIndex), made only when it is that one's
// turn; with Kivi's tie-break the node index order stands. Sources
// without an eligible pod are left out beforehand: wherever they come,
// they evict nothing.
func (w *walk) order(sources []nodeUsage, visit func(*nodeUsage)) {
	var rest []nodeUsage
	for _, s := range sources {
		if pods, _ := w.eligible(&s); len(pods) > 0 {
			rest = append(rest, s)
		} else {
			w.c.note("      node %s: no pod to evict\n", w.c.nodeName(s.node))
		}
	}
	for len(rest) > 0 {
		tied := 1
		for tied < len(rest) && usageKey(&rest[tied]) == usageKey(&rest[0]) {
			tied++
		}
		pick := 0
		if tied > 1 && w.c.u.Options.TieBreak != model.LowestIndex {
			nodes := make([]int, tied)
			for i := range nodes {
				nodes[i] = rest[i].node
			}
			pick = w.c.tx.ChooseNodeIndex(nodes)
		}
		next := rest[pick]
		rest = slices.Delete(rest, pick, pick+1)
		visit(&next)
	}
}

// evictPlan is the plugins' Balance: the plan is already cut to the
// limits, so no eviction hits one; the checks stay as in the other
// plugins.
func evictPlan(c *cycle, plan []candidate) {
	for _, cd := range plan {
		if !c.nodeQuotaLeft(c.s.Pods[cd.pod].NodeOf()) {
			continue
		}
		if c.evict(cd.pod, &cd) == totalLimit {
			return
		}
	}
}

// noteUsage writes a node's utilisation and its class to the explanation.
func (c *cycle) noteUsage(nu *nodeUsage, class string) {
	c.note("    node %s: cpu %s%% memory %s%% pods %s%%: %s\n", c.nodeName(nu.node),
		roundPct(nu.pct[rCPU]), roundPct(nu.pct[rMem]), roundPct(nu.pct[rPods]), class)
}

// roundPct prints a percentage rounded as upstream's logs do.
func roundPct(v float64) string { return fmt.Sprintf("%g", math.Round(v)) }

// fmtThresholds prints thresholds as the policy writes them.
func fmtThresholds(t model.ResourceThresholds) string {
	s := ""
	for k := range nRes {
		if v, ok := t.Get(k); ok {
			if s != "" {
				s += " "
			}
			s += fmt.Sprintf("%s %g%%", k, v)
		}
	}
	return s
}
