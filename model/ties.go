package model

import "slices"

// Ties among pods. Kubernetes breaks the last ties between candidates by
// things the model does not track (pod age, readiness time, restart
// counts, informer listing order), so the controllers leave the choice
// open: they branch over which of the tied pods go. Pods that are fully identical (equal
// PodState, neither waiting in a pod queue) are interchangeable, so only
// how many of each identical group go is a choice, and the lowest slots
// of a group go first. The outcome is then a function of the pods'
// contents, not of their slots, which is what lets reduction/symmetry permute
// pod slots.

// identicalGroups partitions pods (slots) into groups of identical pods,
// each group in ascending slot order, groups ordered by their first
// member's position in pods.
//
// Past a few candidates it looks groups up by content (identicalGroupsByContent)
// rather than comparing each pod with every group: with hundreds of pods
// on hundreds of nodes, the pairwise comparisons, each scanning the pod
// queues, would cost pods × groups × queue length.
func identicalGroups(s *State, pods []int) [][]int {
	if len(pods) > pairwiseGroups {
		return identicalGroupsByContent(s, pods)
	}
	return identicalGroupsPairwise(s, pods)
}

// pairwiseGroups is the most candidates identicalGroups compares pairwise.
const pairwiseGroups = 16

// identicalGroupsByContent is identicalGroups through a table of groups
// by content. A pod waiting in a pod queue is identical to no other
// slot, so it has a group of its own (looked up by slot, should a slot be
// a candidate twice); the others share a group exactly when their
// PodStates are equal. The groups are carved out of one array: each
// candidate's group is found first, then the members are laid out.
func identicalGroupsByContent(s *State, pods []int) [][]int {
	queued := make([]uint64, (len(s.Pods)+63)/64)
	for _, q := range PodQueues() {
		for _, x := range s.Queues[q] {
			if int(x) < len(s.Pods) {
				queued[x/64] |= 1 << (x % 64)
			}
		}
	}
	isQueued := func(p int) bool { return p >= 0 && p < len(s.Pods) && queued[p/64]&(1<<(p%64)) != 0 }
	// of[i] is the group of pods[i]; first[g] the first member of group g.
	of := make([]int32, len(pods))
	var first []int
	var byContent map[PodState]int32
	var bySlot map[int]int32
	find := func(p int, queued bool) int32 {
		switch {
		case queued && bySlot != nil:
			if g, ok := bySlot[p]; ok {
				return g
			}
		case !queued && byContent != nil:
			if g, ok := byContent[s.Pods[p]]; ok {
				return g
			}
		case queued:
			for g, q := range first {
				if q == p {
					return int32(g)
				}
			}
		default:
			for g, q := range first {
				if !isQueued(q) && s.Pods[q] == s.Pods[p] {
					return int32(g)
				}
			}
		}
		return -1
	}
	for i, p := range pods {
		q := isQueued(p)
		g := find(p, q)
		if g < 0 {
			g = int32(len(first))
			first = append(first, p)
			// Past a few groups, a table instead of a scan.
			if len(first) == pairwiseGroups {
				byContent, bySlot = map[PodState]int32{}, map[int]int32{}
				for h, r := range first {
					if isQueued(r) {
						bySlot[r] = int32(h)
					} else {
						byContent[s.Pods[r]] = int32(h)
					}
				}
			} else if byContent != nil {
				if q {
					bySlot[p] = g
				} else {
					byContent[s.Pods[p]] = g
				}
			}
		}
		of[i] = g
	}
	// Lay the groups out in one array, each in ascending slot order.
	size := make([]int, len(first)+1)
	for _, g := range of {
		size[g+1]++
	}
	for g := 1; g < len(size); g++ {
		size[g] += size[g-1]
	}
	members := make([]int, len(pods))
	groups := make([][]int, len(first))
	for g := range groups {
		groups[g] = members[size[g]:size[g]:size[g+1]]
	}
	for i, p := range pods {
		groups[of[i]] = append(groups[of[i]], p)
	}
	for _, g := range groups {
		slices.Sort(g)
	}
	return groups
}

// identicalGroupsPairwise is identicalGroups comparing every pod with the
// first member of each group so far.
func identicalGroupsPairwise(s *State, pods []int) [][]int {
	var groups [][]int
	for _, p := range pods {
		placed := false
		for g := range groups {
			if identicalPods(s, groups[g][0], p) {
				groups[g] = insertSorted(groups[g], p)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []int{p})
		}
	}
	return groups
}

// identicalPods reports whether slots a and b hold pods no step can tell
// apart: equal PodState, and neither is pending in a pod queue (a queue
// position belongs to one slot).
func identicalPods(s *State, a, b int) bool {
	return a == b || (s.Pods[a] == s.Pods[b] && !inPodQueue(s, a) && !inPodQueue(s, b))
}

// TiesFootprint is what ChoosePods reads besides its candidates' pods:
// the queues of pod ids, since a pod waiting in one is identical to no
// other, so a queue's change can split or merge the groups it branches
// over.
func TiesFootprint() Footprint {
	var f Footprint
	for _, q := range PodQueues() {
		f.AddQueue(q)
	}
	return f
}

// inPodQueue reports whether slot p is pending in a queue of pod ids.
func inPodQueue(s *State, p int) bool {
	for _, q := range PodQueues() {
		for _, x := range s.Queues[q] {
			if int(x) == p {
				return true
			}
		}
	}
	return false
}

func insertSorted(xs []int, x int) []int {
	i := len(xs)
	for i > 0 && xs[i-1] > x {
		i--
	}
	xs = append(xs, 0)
	copy(xs[i+1:], xs[i:])
	xs[i] = x
	return xs
}

// ChoosePods picks k of the candidate pods (slots), branching through
// tx.Choose over every multiset of distinct pods: identical pods are
// grouped, how many of each group go is the choice (the last group takes
// the rest), and the lowest slots of a group go first. The picks come out
// group by group, groups ordered by their first member's position in
// candidates. Choice 0 takes as many as it can from the earliest groups,
// so the first branch is Kivi's lowest-slot pick when the candidates are
// in slot order.
//
// When the Tx has node orbits (nodeorbits.go), pods on interchangeable
// nodes are interchangeable too: taking two pods from node A and one from
// its twin B gives a permutation of taking one from A and two from B. The
// choice is then how many of each group every node loses, with the
// nodes of one orbit losing non-increasing amounts in their order
// (ChoosePods then branches over partitions, not over subsets), and the
// nodes that lost different amounts are told apart for the rest of the
// run.
//
// With Kivi's tie-break (Options.TieBreak LowestIndex) there is no choice:
// the lowest slots of the earliest groups go, choice 0 of the branching.
func (tx *Tx) ChoosePods(s *State, candidates []int, k int) []int {
	groups := identicalGroups(s, candidates)
	if tx.U != nil && tx.U.Options.TieBreak == LowestIndex {
		return takeFirst(groups, k)
	}
	if labels := tx.orbitLabels(); labels != nil && len(groups) > 1 {
		return tx.chooseUpToSymmetry(s, labels, groups, k)
	}
	return chooseFromGroups(tx, groups, k)
}

// takeFirst is chooseFromGroups' choice 0: as many as possible from the
// earliest groups.
func takeFirst(groups [][]int, k int) []int {
	var out []int
	for _, g := range groups {
		take := min(len(g), k)
		out = append(out, g[:take]...)
		k -= take
	}
	return out
}

func chooseFromGroups(tx *Tx, groups [][]int, k int) []int {
	var out []int
	for i, take := range tx.chooseCounts(groups, k) {
		out = append(out, groups[i][:take]...)
	}
	return out
}

// chooseCounts branches over how many of each group go, k in all (k at
// most the groups' total): every vector of counts, each at most its
// group's size, is one branch, and choice 0 takes as many as it can from
// the earliest groups; the last group takes what is left.
func (tx *Tx) chooseCounts(groups [][]int, k int) []int {
	rest := 0
	for _, g := range groups {
		rest += len(g)
	}
	take := make([]int, len(groups))
	for i, g := range groups {
		rest -= len(g)
		c := k
		if i < len(groups)-1 {
			lo, hi := max(0, k-rest), min(len(g), k)
			c = hi - tx.Choose(hi-lo+1)
		}
		take[i] = c
		k -= c
	}
	return take
}

// podHost is one node's share of a ChoosePods call: the groups of
// identical candidates on it (positions in the groups slice, in class
// order) and the node it is twinned with, the last earlier host of the
// same orbit with the same groups, or -1.
type podHost struct {
	node   uint16
	groups []int
	twin   int
}

// chooseUpToSymmetry is ChoosePods with node orbits: groups are decided
// host by host (hosts in order of their first group, groups of a host in
// class order), and a host takes, group by group, at most what its twin
// took as long as it has taken the same so far: twins lose
// lexicographically non-increasing amounts. A value is offered only if
// the later decisions can still make up k (twinPlan.maxAfter, exact
// when every host holds one group); should the bound let an impossible
// value through, the run takes what it must (a successor another branch
// also reaches, never one that is not reachable).
func (tx *Tx) chooseUpToSymmetry(s *State, labels []int, groups [][]int, k int) []int {
	var hosts []podHost
	for gi, g := range groups {
		n := s.Pods[g[0]].Node
		h := -1
		for i := range hosts {
			if hosts[i].node == n {
				h = i
				break
			}
		}
		if h < 0 {
			hosts = append(hosts, podHost{node: n, twin: -1})
			h = len(hosts) - 1
		}
		hosts[h].groups = append(hosts[h].groups, gi)
	}
	for i := range hosts {
		h := &hosts[i]
		lessByClass := func(a, b int) bool { return podClassLess(&s.Pods[groups[a][0]], &s.Pods[groups[b][0]]) }
		for x := 1; x < len(h.groups); x++ {
			for y := x; y > 0 && lessByClass(h.groups[y], h.groups[y-1]); y-- {
				h.groups[y], h.groups[y-1] = h.groups[y-1], h.groups[y]
			}
		}
		if h.node == 0 {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if o := &hosts[j]; o.node != 0 && labels[o.node-1] == labels[h.node-1] && sameShares(s, groups, o.groups, h.groups) {
				h.twin = j
				break
			}
		}
	}
	twins := false
	for i := range hosts {
		twins = twins || hosts[i].twin >= 0
	}
	if !twins {
		// No two hosts are interchangeable: every choice is its own orbit.
		return chooseFromGroups(tx, groups, k)
	}
	plan := twinPlan{hosts: hosts, groups: groups, take: make([]int, len(groups))}
	plan.count = make([][]int, len(hosts))
	for i := range hosts {
		plan.count[i] = plan.counts(i)
	}
	for i := range hosts {
		h := &hosts[i]
		equal := h.twin >= 0
		plan.prepareTail(i)
		for c, gi := range h.groups {
			hi := min(len(groups[gi]), k)
			if equal {
				hi = min(hi, plan.take[hosts[h.twin].groups[c]])
			}
			// The values that can still make up k, from hi down: below
			// the twin's amount the rest of the host is free and fewer
			// only ever fit less, so the scan stops at the first misfit
			// there; at the twin's amount the rest is bounded by the
			// twin's, which can fit less than one pod fewer would.
			fits := plan.fits[:0]
			for t := hi; t >= 0; t-- {
				if k-t <= plan.maxAfter(i, c, t, equal) {
					fits = append(fits, t)
				} else if !equal || t != plan.take[hosts[h.twin].groups[c]] {
					break
				}
			}
			plan.fits = fits
			t := min(len(groups[gi]), k) // no value fits the order: take what must go
			if len(fits) > 0 {
				t = fits[tx.Choose(len(fits))]
			}
			if equal && t != plan.take[hosts[h.twin].groups[c]] {
				equal = false
			}
			plan.take[gi] = t
			k -= t
		}
	}
	var out []int
	for gi, g := range groups {
		out = append(out, g[:plan.take[gi]]...)
	}
	tx.splitByTakes(s, groups, hosts, plan.take)
	return out
}

// twinPlan is chooseUpToSymmetry's decisions so far: take holds the
// amounts decided for the groups of the hosts before the current one and
// of the current host's groups before the current group.
type twinPlan struct {
	hosts  []podHost
	groups [][]int
	take   []int
	fits   []int
	// count[i] is counts(i); vi is maxAfter's scratch.
	count [][]int
	vi    []int
	// The current host's tail (prepareTail): the bound of the later
	// hosts whose vectors do not depend on its decisions, and the count
	// vectors of those that do (they descend from it through twins),
	// each with its number of hosts; vec and fromCur are prepareTail's
	// scratch.
	tailBound int
	chained   []chainedCounts
	vec       [][]int
	fromCur   []bool
	// done caches the decided vectors of the hosts before the current
	// one (decidedOf).
	done [][]int
}

// chainedCounts is a count vector shared by n later hosts that descend
// from the current host through twins.
type chainedCounts struct {
	counts []int
	n      int
}

// prepareTail computes, for host i, what maxAfter needs of the hosts
// after it. The largest vector host j may take is its twin's (an
// undecided twin's largest, recursively), or its own counts without a
// twin: so it is a decided vector of a host before i, a host's counts, or
// host i's vector, and only the last depends on host i's decisions. The
// rest is summed once here rather than for every value maxAfter weighs,
// which at hundreds of twin nodes would sum over every later host again
// and again.
func (p *twinPlan) prepareTail(i int) {
	n := len(p.hosts)
	if len(p.vec) < n {
		p.vec, p.fromCur = make([][]int, n), make([]bool, n)
	}
	p.tailBound, p.chained = 0, p.chained[:0]
	for j := i + 1; j < n; j++ {
		h := &p.hosts[j]
		counts := p.count[j]
		p.fromCur[j] = false
		switch {
		case h.twin < 0:
			p.vec[j] = counts
			p.tailBound += sum(counts)
			continue
		case h.twin < i:
			p.vec[j] = p.decidedOf(h.twin)
		case h.twin == i || p.fromCur[h.twin]:
			p.fromCur[j] = true
			p.addChained(counts)
			continue
		default:
			p.vec[j] = p.vec[h.twin]
		}
		p.tailBound += maxBelow(p.vec[j], counts)
	}
}

// addChained counts one more later host with these counts that descends
// from the current host.
func (p *twinPlan) addChained(counts []int) {
	for x := range p.chained {
		if slices.Equal(p.chained[x].counts, counts) {
			p.chained[x].n++
			return
		}
	}
	p.chained = append(p.chained, chainedCounts{counts: counts, n: 1})
}

// maxAfter bounds from above the pods the decisions after group c of host
// i can take when that group takes t (equal: host i has taken what its
// twin took so far), given prepareTail(i). Each later host may take at
// most the most that a vector lexicographically below its twin's allows;
// an undecided twin counts with the largest vector it may take. Exact when
// every host holds one group.
func (p *twinPlan) maxAfter(i, c, t int, equal bool) int {
	vi, total := p.ownBound(i, c, t, equal)
	for _, ch := range p.chained {
		total += ch.n * maxBelow(vi, ch.counts)
	}
	return total + p.tailBound
}

// ownBound returns the largest vector host i may take when group c takes
// t (in p.vi until the next call), and the most its groups after c can
// take.
func (p *twinPlan) ownBound(i, c, t int, equal bool) (vi []int, total int) {
	cur := &p.hosts[i]
	vi = append(p.vi[:0], make([]int, len(cur.groups))...)
	p.vi = vi
	for x, gi := range cur.groups {
		switch {
		case x < c:
			vi[x] = p.take[gi]
		case x == c:
			vi[x] = t
		default:
			vi[x] = len(p.groups[gi])
		}
	}
	if equal && t == p.take[p.hosts[cur.twin].groups[c]] {
		twin := p.hosts[cur.twin].groups
		for x := c + 1; x < len(vi); x++ {
			vi[x] = p.take[twin[x]]
		}
		total += maxBelow(vi[c+1:], p.count[i][c+1:])
	} else {
		for x := c + 1; x < len(vi); x++ {
			total += vi[x]
		}
	}
	return vi, total
}

func (p *twinPlan) counts(i int) []int {
	out := make([]int, len(p.hosts[i].groups))
	for x, gi := range p.hosts[i].groups {
		out[x] = len(p.groups[gi])
	}
	return out
}

// decidedOf is decided(x) for a host x before the current one, whose
// amounts are final: computed once per call of chooseUpToSymmetry.
func (p *twinPlan) decidedOf(x int) []int {
	if p.done == nil {
		p.done = make([][]int, len(p.hosts))
	}
	if p.done[x] == nil {
		p.done[x] = p.decided(x)
	}
	return p.done[x]
}

func (p *twinPlan) decided(i int) []int {
	out := make([]int, len(p.hosts[i].groups))
	for x, gi := range p.hosts[i].groups {
		out[x] = p.take[gi]
	}
	return out
}

// maxBelow is the largest sum of a vector x with x ≤ counts componentwise
// and x lexicographically at most v (v ≤ counts): v itself, or v lowered
// by one at some position and full after it.
func maxBelow(v, counts []int) int {
	best := sum(v)
	prefix := 0
	for i := range v {
		if v[i] > 0 {
			best = max(best, prefix+v[i]-1+sum(counts[i+1:]))
		}
		prefix += v[i]
	}
	return best
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// splitByTakes refines the run's orbits after chooseUpToSymmetry: the
// hosts of one orbit that lost different amounts of the same groups are
// no longer interchangeable. Hosts that lost nothing keep their label.
func (tx *Tx) splitByTakes(s *State, groups [][]int, hosts []podHost, take []int) {
	labels := tx.orbitLabels()
	fresh := make([]int, len(hosts)) // the new label of each host; -1 = unchanged
	for i := range hosts {
		h := &hosts[i]
		fresh[i] = -1
		if h.node == 0 || !tookAny(take, h.groups) {
			continue
		}
		for j := range i {
			o := &hosts[j]
			if o.node != 0 && labels[o.node-1] == labels[h.node-1] && fresh[j] >= 0 &&
				sameShares(s, groups, o.groups, h.groups) && sameTakes(take, o.groups, h.groups) {
				fresh[i] = fresh[j]
				break
			}
		}
		if fresh[i] < 0 {
			fresh[i] = tx.freshLabel()
		}
	}
	for i, h := range hosts {
		if fresh[i] >= 0 {
			labels[h.node-1] = fresh[i]
		}
	}
}

func tookAny(take []int, gs []int) bool {
	for _, g := range gs {
		if take[g] > 0 {
			return true
		}
	}
	return false
}

func sameTakes(take []int, a, b []int) bool {
	for i := range a {
		if take[a[i]] != take[b[i]] {
			return false
		}
	}
	return true
}

// sameShares reports whether two hosts hold the same groups (in class
// order): as many of them, of the same pods but for the node, and as
// many pods in each.
func sameShares(s *State, groups [][]int, a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		ga, gb := groups[a[i]], groups[b[i]]
		if len(ga) != len(gb) || !sameClass(&s.Pods[ga[0]], &s.Pods[gb[0]]) {
			return false
		}
	}
	return true
}

// sameClass reports whether two pods are equal but for their node.
func sameClass(a, b *PodState) bool {
	x, y := *a, *b
	x.Node, y.Node = 0, 0
	return x == y
}

// podClassLess orders pods by everything but their node.
func podClassLess(a, b *PodState) bool {
	switch {
	case a.Phase != b.Phase:
		return a.Phase < b.Phase
	case a.WasRunning != b.WasRunning:
		return !a.WasRunning
	case a.Owner != b.Owner:
		return a.Owner < b.Owner
	case a.RS != b.RS:
		return a.RS < b.RS
	case a.Template != b.Template:
		return a.Template < b.Template
	case a.Pattern != b.Pattern:
		return a.Pattern < b.Pattern
	case a.Readiness != b.Readiness:
		return a.Readiness < b.Readiness
	case a.Restarts != b.Restarts:
		return a.Restarts < b.Restarts
	case a.CPU != b.CPU:
		return a.CPU < b.CPU
	}
	return a.Memory < b.Memory
}
