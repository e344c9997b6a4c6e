package symmetry

import (
	"fmt"
	"slices"
	"sort"

	"github.com/kivi-go/kivi/model"
)

// Canonicalizer maps a state to the representative of its orbit under the
// permutations of interchangeable nodes and, unless a pod rule keeps them
// fixed, of pod slots, and the relabellings of Indexed Jobs' completion
// indexes (jobindexes.go) (checker.Canonicalizer). Apart from its scratch
// buffers it holds only read-only data; one value serves one goroutine at
// a time, and ForWorker gives another goroutine its own.
type Canonicalizer struct {
	u        *model.Universe
	analysis Analysis
	// classes are the non-singleton classes.
	classes [][]int
	layout  nodeMemory
	// pods: pod slots are permuted too.
	pods bool
	// kubeletSet: the kubelet queue is a set up to the order of its
	// owners (kubeletqueue.go).
	kubeletSet bool
	// taintSet: the taint-manager queue is a set (taintqueue.go).
	taintSet bool
	// domains are the groups of interchangeable topology domains
	// (domains.go); their classes are not in classes.
	domains []domainGroup
	// jobs are the Jobs whose completion indexes are relabelled
	// (jobindexes.go).
	jobs []int
	// free holds idle per-call buffers of Canonical: a Canonicalizer
	// serves one goroutine at a time (ForWorker gives each of the
	// engine's goroutines its own).
	free []*scratch
}

// New analyses u (which must be compiled) with the symmetry facts of the
// processes that run on it (model.SymmetryFactsOf) and returns its
// canonicaliser.
func New(u *model.Universe, facts []model.SymmetryFact) *Canonicalizer {
	c := &Canonicalizer{u: u, analysis: Analyze(u, facts), layout: nodeMemoryOf(u)}
	c.pods = c.analysis.Pods && u.PodSlots > 1
	c.kubeletSet = (!u.HasTaints || !u.Options.KiviLifecycle) && u.PodSlots > 1 && !pinsPods(u)
	c.taintSet = !u.Options.KiviLifecycle && u.PodSlots > 1
	c.domains = c.analysis.domains
	var jobDecisions []Decision
	c.jobs, jobDecisions = relabelledJobs(u, facts)
	c.analysis.Decisions = append(c.analysis.Decisions, jobDecisions...)
	inDomain := make([]bool, len(u.Nodes))
	for _, b := range c.appendDomainBlocks(nil) {
		for _, n := range b {
			inDomain[n] = true
		}
	}
	for _, cl := range c.analysis.Classes {
		if len(cl) > 1 && !inDomain[cl[0]] {
			c.classes = append(c.classes, cl)
		}
	}
	return c
}

// ExactRepresentatives reports whether two states with one canonical
// form have the same successors up to symmetry, canonical keys and all
// (checker.RepresentativeEncoder): always but when pod slots move and
// the kubelet queue keeps its order (Kivi's taint manager with node
// taints, kubeletqueue.go). There, a controller that evicts several pods
// of one owner queues them for the kubelet in slot order, so a state and
// its canonical form step to states that behave alike but whose kubelet
// queues, and so keys, differ.
//
// With Kivi's tie-break the pods move only in a verification's quick
// pass (compose), where the lowest slot among tied pods decides, so a
// state and its canonical form may even have different futures: no
// representatives there either.
func (c *Canonicalizer) ExactRepresentatives() bool {
	return !c.pods || c.kubeletSet && c.u.Options.TieBreak != model.LowestIndex
}

// Analysis returns the classes and the rules that restricted them.
func (c *Canonicalizer) Analysis() Analysis { return c.analysis }

// Trivial reports whether no two nodes and no two pod slots are
// interchangeable: Canonical is then the identity and a checker gains
// nothing from calling it.
func (c *Canonicalizer) Trivial() bool {
	return len(c.classes) == 0 && len(c.domains) == 0 && !c.pods && !c.kubeletSet && !c.taintSet && len(c.jobs) == 0
}

// PodsMove reports whether pod slots are permuted (Analysis.Pods).
func (c *Canonicalizer) PodsMove() bool { return c.pods }

// Movable returns the blocks of nodes that may be permuted among
// themselves in state s: each class restricted to the nodes every
// maintenance event has already reached (blocks of one node left out).
func (c *Canonicalizer) Movable(s *model.State) [][]int {
	return c.appendMovable(nil, s)
}

// appendMovable appends Movable's blocks to dst (they alias c.classes).
func (c *Canonicalizer) appendMovable(dst [][]int, s *model.State) [][]int {
	limit := c.layout.reached(s)
	for _, cl := range c.classes {
		i := sort.SearchInts(cl, limit)
		if i > 1 {
			dst = append(dst, cl[:i])
		}
	}
	return dst
}

// Canonical returns the representative of s's orbit: within every movable
// block the nodes are reordered by their signature (signature.go) and,
// when pods move, the pod slots are reordered by their content key
// (podsignature.go) and then their node's new index, Free slots last. It
// returns s itself when s is already canonical, and a new State
// otherwise; s is never modified.
//
// The node signatures read the pods' content keys, not their slots, so the
// node order does not depend on the pod slots; two nodes with equal
// signatures carry equal multisets of pod contents, so whichever of them
// comes first the multiset of (content, new node) pairs, and so the sorted
// pod list, is the same. Pods with equal content and node are identical
// (equal keys mean no queue holds either), so their order among themselves
// changes nothing: the result is the same for every permutation of s.
func (c *Canonicalizer) Canonical(s *model.State) *model.State {
	w := c.get()
	defer c.put(w)
	if t := c.relabelIndexes(w, s); t != s {
		s = t.Clone()
	}
	perm, podPerm, sortKQ, moved := c.plan(w, s)
	if !moved {
		return s
	}
	t := permute(c.layout, s, perm, podPerm)
	c.sortQueues(t, sortKQ)
	return t
}

// sortQueues puts the queues that are sets in canonical order in t, a
// permuted state: the kubelet queue when sortKQ (kubeletqueue.go), the
// taint-manager queue when it is a set (taintqueue.go).
func (c *Canonicalizer) sortQueues(t *model.State, sortKQ bool) {
	if q := t.Queues[model.SchedulerQueue]; c.pods && len(q) > 1 {
		sortNominatedRuns(q, q, t)
	}
	if sortKQ {
		sortKubelet(t.Queues[model.KubeletQueue], t.Pods)
	}
	if c.taintSet {
		sortTaintQueue(t.Queues[model.TaintManagerQueue])
	}
}

// AppendCanonical appends the encoding of Canonical(s) to dst without
// building a new State (checker.CanonicalEncoder).
func (c *Canonicalizer) AppendCanonical(dst []byte, s *model.State) []byte {
	w := c.get()
	defer c.put(w)
	s = c.relabelIndexes(w, s)
	perm, podPerm, sortKQ, moved := c.plan(w, s)
	return c.appendPlanned(w, dst, s, perm, podPerm, sortKQ, moved)
}

// appendPlanned appends the encoding of s's canonical form, given its
// plan: s's own encoding when nothing moves, else that of the permuted
// state, written from s (appendPermuted).
func (c *Canonicalizer) appendPlanned(w *scratch, dst []byte, s *model.State, perm, podPerm []int, sortKQ, moved bool) []byte {
	if !moved {
		return s.AppendEncoding(c.u, dst)
	}
	return c.appendPermuted(w, dst, s, perm, podPerm, sortKQ)
}

// AppendRepresentative appends the encoding of Canonical(s) to key and,
// to enc, the same encoding followed by the node orbits of Canonical(s),
// one byte per node (NodeOrbits' labels; runs past 256 nodes,
// orbitruns.go), which the canonicalisation
// finds on the way: nodes of a block with equal signatures end up next
// to each other. SplitRepresentative takes them apart again.
func (c *Canonicalizer) AppendRepresentative(key, enc []byte, s *model.State) ([]byte, []byte) {
	w := c.get()
	defer c.put(w)
	s = c.relabelIndexes(w, s)
	orbits := slices.Grow(w.orbits[:0], len(s.Nodes))[:len(s.Nodes)]
	for n := range orbits {
		orbits[n] = uint16(n)
	}
	w.orbits = orbits
	perm, podPerm, sortKQ, moved := c.planOrbits(w, s, orbits)
	at := len(key)
	key = c.appendPlanned(w, key, s, perm, podPerm, sortKQ, moved)
	enc = append(enc, key[at:]...)
	if c.wideOrbits() {
		return key, appendOrbitRuns(enc, orbits)
	}
	from := len(enc)
	enc = slices.Grow(enc, len(orbits))[:from+len(orbits)]
	for i, l := range orbits {
		enc[from+i] = byte(l)
	}
	return key, enc
}

// wideOrbits: the universe has more nodes than a byte numbers, and a
// representative's orbit labels are written as runs (orbitruns.go).
func (c *Canonicalizer) wideOrbits() bool { return c.layout.nodes > 256 }

// SplitRepresentative splits an encoding of AppendRepresentative into
// the state's encoding and its node orbits (labels, in dst's array when
// it is large enough).
func (c *Canonicalizer) SplitRepresentative(enc []byte, dst []int) (state []byte, labels []int, err error) {
	n := c.layout.nodes
	dst = slices.Grow(dst[:0], n)[:n]
	if c.wideOrbits() {
		state, err = splitOrbitRuns(enc, n, dst)
		return state, dst, err
	}
	if len(enc) < n {
		return nil, dst, fmt.Errorf("symmetry: a representative's encoding of %d bytes cannot hold the orbits of %d nodes", len(enc), n)
	}
	state, tail := enc[:len(enc)-n], enc[len(enc)-n:]
	for i := range dst {
		l := int(tail[i])
		if l > i {
			return nil, dst, fmt.Errorf("symmetry: node %d's orbit label %d is not the index of a node before it", i, l)
		}
		dst[i] = l
	}
	return state, dst, nil
}

// plan computes the node and pod permutations that make s canonical, and
// whether the kubelet queue must be sorted; moved is false when s is
// already canonical. podPerm may be shorter than s.Pods: the slots past
// it (a blank tail, blankTail) stay in place.
func (c *Canonicalizer) plan(w *scratch, s *model.State) (perm, podPerm []int, sortKQ, moved bool) {
	return c.planOrbits(w, s, nil)
}

// planOrbits is plan that also labels, in orbits (which the caller
// fills with the identity), the nodes of the canonical state by their
// orbits, as NodeOrbits labels them.
func (c *Canonicalizer) planOrbits(w *scratch, s *model.State, orbits []uint16) (perm, podPerm []int, sortKQ, moved bool) {
	sortKQ = c.kubeletSet && len(s.Queues[model.KubeletQueue]) > 1
	// The queues that are sets are in canonical order already, were the
	// nodes and pods too.
	queuesSorted := func() bool {
		if sortKQ && !kubeletSorted(s.Queues[model.KubeletQueue], s.Pods) ||
			c.taintSet && !taintQueueSorted(s.Queues[model.TaintManagerQueue]) {
			return false
		}
		if !c.pods {
			return true
		}
		_, sorted := nominatedRuns(s, s.Queues[model.SchedulerQueue])
		return sorted
	}
	if len(c.classes) == 0 && len(c.domains) == 0 && !c.pods && queuesSorted() {
		return nil, nil, false, false
	}
	w.blocks = c.appendMovable(w.blocks[:0], s)
	if len(w.blocks) == 0 && len(c.domains) == 0 && !c.pods && queuesSorted() {
		return nil, nil, false, false
	}
	var ranks []uint16
	if c.pods {
		var ok bool
		if ranks, ok = w.podRanks(s, c.kubeletSet, c.taintSet, len(w.blocks) > 0 || len(c.domains) > 0); !ok {
			// A node beyond what a signature holds: the state stays as
			// it is.
			return nil, nil, false, false
		}
	}
	if len(w.blocks) > 0 || len(c.domains) > 0 {
		movable := len(w.blocks)
		w.blocks = c.appendDomainBlocks(w.blocks) // their signatures too
		sigs := c.signatures(w, s, ranks)
		for _, block := range w.blocks[:movable] {
			order := append(w.order[:0], block...)
			w.order = order
			sigs.sortBlock(order)
			if orbits != nil {
				for i := 1; i < len(order); i++ {
					if sigs.equal(order[i-1], order[i]) {
						orbits[block[i]] = orbits[block[i-1]]
					}
				}
			}
			for i, old := range order {
				if old == block[i] {
					continue
				}
				if perm == nil {
					perm = identityInto(w.perm, len(s.Nodes))
					w.perm = perm
				}
				perm[old] = block[i]
			}
		}
		perm = c.planDomains(w, sigs, perm, orbits, len(s.Nodes))
	}
	if c.pods {
		podPerm = w.podOrder(s, perm)
	}
	if perm == nil && podPerm == nil && queuesSorted() {
		return nil, nil, false, false
	}
	return perm, podPerm, sortKQ, true
}

// ForWorker returns a canonicaliser of the same universe and analysis
// with its own buffers, for one goroutine.
func (c *Canonicalizer) ForWorker() *Canonicalizer {
	d := *c
	d.free = nil
	return &d
}

// get takes idle buffers (or new ones) for one call; put gives them back.
func (c *Canonicalizer) get() *scratch {
	if n := len(c.free); n > 0 {
		w := c.free[n-1]
		c.free = c.free[:n-1]
		return w
	}
	return new(scratch)
}

func (c *Canonicalizer) put(w *scratch) { c.free = append(c.free, w) }

// scratch holds Canonical's working buffers; one call owns it at a time.
type scratch struct {
	blocks [][]int
	// podRanks' results: ranks is every slot's rank, rankCount the
	// number of slots of each rank, freeRank the first rank of a Free
	// slot, podsOn the slots by node or sortKeys the slots sorted;
	// runLen, mergeBuf and runEnds are its sort's.
	ranks     []uint16
	runLen    []uint16
	rankCount []uint16
	// wideRanks: the state has more than 256 distinct pod contents, and
	// node signatures write ranks on two bytes.
	wideRanks bool
	freeRank  int
	podsOn    podsByNode
	sortKeys  []sortKey
	mergeBuf  []sortKey
	runEnds   []int
	// sigs holds the signatures of the nodes of the movable blocks.
	sigs nodeSigs
	// fixedOn lists the bound pods by node when pods are fixed: those of
	// node n are fixedOn[fixedStart[n]:fixedStart[n+1]], in slot order.
	fixedOn    []int
	fixedStart []int
	order      []int
	perm       []int
	podPerm    []int
	// rankNext, dealOrder and group are podOrder's.
	rankNext  []uint16
	dealOrder []uint16
	group     []uint32
	sortTmp   []uint32
	// view is appendPermuted's.
	view permutedView
	// orbits are AppendRepresentative's node orbits.
	orbits []uint16
	// domainSorted and domainOrder are planDomains'.
	domainSorted []int
	domainOrder  []int
	// relabelled, indexHeld and indexLabel are relabelIndexes'.
	relabelled model.State
	indexHeld  []bool
	indexLabel []int
}

// podOrder returns the pod permutation (old slot → new slot) that sorts
// the slots by content key and then by the node's index after the node
// permutation perm (nil = identity), or nil when it is the identity.
// Equal (key, node) pairs keep their slot order. It covers the slots
// podRanks ranked, up to the blank tail.
//
// With the slots listed by node (podsByNode, built for the node
// signatures) it deals them out to the ranks (podRanks) node by node:
// first the unbound ones, then those of each node in the order of its new
// index, each node's in (rank, slot) order, each slot taking its rank's
// next position; node values beyond perm are not renamed and come last.
// Without the lists, it reorders each rank's stretch of w.sortKeys by
// node (podOrderByRank).
func (w *scratch) podOrder(s *model.State, perm []int) []int {
	podPerm := slices.Grow(w.podPerm[:0], len(w.ranks))[:len(w.ranks)]
	w.podPerm = podPerm
	var moved bool
	if on := &w.podsOn; on.valid {
		moved = w.dealSlots(podPerm, perm)
	} else {
		moved = w.podOrderByRank(podPerm, s, perm)
	}
	if !moved {
		return nil
	}
	return podPerm
}

// dealSlots fills podPerm as podOrder does from w.podsOn, and reports
// whether a slot moves.
func (w *scratch) dealSlots(podPerm, perm []int) bool {
	on, ranks := w.podsOn, w.ranks // copies: the stores below would make w's fields be reloaded
	// next[r] is the position of rank r's next slot.
	next := slices.Grow(w.rankNext[:0], len(w.rankCount))[:len(w.rankCount)]
	w.rankNext = next
	at := 0
	for r, n := range w.rankCount {
		next[r] = uint16(at)
		at += int(n)
	}
	// The node values in the order their slots are dealt.
	values := append(w.dealOrder[:0], 0)
	if perm == nil {
		for v := 1; v <= on.top; v++ {
			values = append(values, uint16(v))
		}
	} else {
		values = slices.Grow(values, len(perm))[:1+len(perm)]
		for old, new := range perm {
			values[1+new] = uint16(old + 1)
		}
		for v := len(perm) + 1; v <= on.top; v++ {
			values = append(values, uint16(v))
		}
	}
	w.dealOrder = values
	moved := false
	for _, v := range values {
		for _, i := range on.of(int(v)) {
			j := next[ranks[i]]
			next[ranks[i]] = j + 1
			podPerm[i] = int(j)
			if j != i {
				moved = true
			}
		}
	}
	return moved
}

// podOrderByRank fills podPerm as podOrder does from w.sortKeys, the
// slots sorted by (key, slot): a stretch of one rank needs reordering
// only when it holds several pods, and those are mostly in node order
// already (Free slots are on no node) or few. It reports whether a slot
// moves.
func (w *scratch) podOrderByRank(podPerm []int, s *model.State, perm []int) bool {
	sorted := w.sortKeys
	moved := false
	at := 0
	for _, n := range w.rankCount {
		n := int(n)
		if n == 1 {
			i := sorted[at].slot()
			podPerm[i] = at
			moved = moved || i != at
			at++
			continue
		}
		// (new node, slot) of the pods of this rank, in slot order.
		group := w.group[:0]
		inOrder := true
		for j := at; j < at+n; j++ {
			i := sorted[j].slot()
			node := int(refNode(&s.Pods[i]))
			if node != 0 && node <= len(perm) {
				node = perm[node-1] + 1
			}
			x := uint32(node)<<16 | uint32(i)
			inOrder = inOrder && (len(group) == 0 || group[len(group)-1] < x)
			group = append(group, x)
		}
		if !inOrder {
			w.sortTmp = sortByNode(group, w.sortTmp)
		}
		for _, x := range group {
			i := int(uint16(x))
			podPerm[i] = at
			moved = moved || i != at
			at++
		}
		w.group = group
	}
	return moved
}

// sortByNode sorts (node, slot) pairs: by insertion when they are few,
// else by a counting sort on the node (slots are unique and the pairs
// come in slot order, so that sort is stable and complete), through tmp,
// which it returns for reuse.
func sortByNode(x, tmp []uint32) []uint32 {
	if len(x) <= 16 {
		for i := 1; i < len(x); i++ {
			v := x[i]
			j := i
			for j > 0 && v < x[j-1] {
				x[j] = x[j-1]
				j--
			}
			x[j] = v
		}
		return tmp
	}
	// next[n+1] counts the pairs on node n, then next[n] is where node
	// n's next pair goes.
	hi := 0
	for _, v := range x {
		hi = max(hi, int(v>>16))
	}
	var buf [257]uint16
	next := buf[:]
	if hi+2 > len(buf) {
		next = make([]uint16, hi+2)
	}
	tmp = slices.Grow(tmp[:0], len(x))[:len(x)]
	for _, v := range x {
		next[v>>16+1]++
	}
	for n := 1; n <= hi; n++ {
		next[n] += next[n-1]
	}
	for _, v := range x {
		n := v >> 16
		tmp[next[n]] = v
		next[n]++
	}
	copy(x, tmp)
	return tmp
}

// identityInto returns the identity permutation of n, reusing p's array.
func identityInto(p []int, n int) []int {
	p = slices.Grow(p[:0], n)[:n]
	for i := range p {
		p[i] = i
	}
	return p
}

// NodeOrbits labels every node of s by its orbit under the symmetries of
// s (model.NodeOrbits): nodes of one movable block with equal signatures
// share the smallest index among them; every other node is labelled by
// its own index. Swapping two nodes with equal signatures, with a
// matching of their pods, is the identity on s, so a choice between them
// leads to successors with one canonical form.
func (c *Canonicalizer) NodeOrbits(s *model.State, dst []int) []int {
	dst = identityInto(dst, len(s.Nodes))
	if len(c.classes) == 0 && len(c.domains) == 0 {
		return dst
	}
	w := c.get()
	defer c.put(w)
	w.blocks = c.appendDomainBlocks(c.appendMovable(w.blocks[:0], s))
	if len(w.blocks) == 0 {
		return dst
	}
	var ranks []uint16
	if c.pods {
		var ok bool
		if ranks, ok = w.podRanks(s, c.kubeletSet, c.taintSet, true); !ok {
			return dst // the state is left as it is (planOrbits): no orbits
		}
	}
	sigs := c.signatures(w, s, ranks)
	for _, block := range w.blocks {
		for i, n := range block {
			for _, m := range block[:i] {
				if dst[m] == m && sigs.equal(m, n) {
					dst[n] = m
					break
				}
			}
		}
	}
	return dst
}
