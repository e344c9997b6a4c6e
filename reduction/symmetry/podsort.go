package symmetry

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// Pod slots are sorted by content key (podsignature.go) and compared
// through ranks: a slot's rank is the position of its key among the
// state's distinct keys in key order. Equal keys get equal ranks and
// ranks order as their keys, so a rank stands for its key wherever keys
// are only compared, as in a node's signature (the sorted multiset of its
// pods' keys becomes a sorted string of rank bytes).
//
// The slots of the states canonicalised are mostly in key order already,
// in long stretches: a deployment's pods stand in consecutive slots, and
// a step changes a few of them (the scheduler takes its queue's head, the
// kubelet starts the bound pods). So the sort of the slots by (key, slot)
// sorts runs of equal keys as one, and is one that profits from sorted
// stretches (sortKeys).

// maxPodSlots is model.Universe.Compile's limit on pod slots: a slot
// fits in a sortKey's 16 bits and in the uint16 lists below.
const maxPodSlots = model.MaxPodSlots

// podRanks returns the rank of every slot before the blank tail
// (blankTail; the slots past it stay in place) and leaves in
// w.rankCount the number of slots of each rank, in w.freeRank the first
// rank of a Free slot and, with byNode (for node signatures), in
// w.podsOn the slots by node in (rank, slot) order; without byNode, it
// leaves in w.sortKeys the slots sorted by (key, slot). All live in w's
// buffers until w is reused.
// It sets w.wideRanks when the state has more than 256 distinct contents:
// node signatures then write ranks on two bytes. ok is false, and the
// state must be left as it is, when a node holds more than 255 pods (a
// signature's count is a byte): every state of its orbit does too.
func (w *scratch) podRanks(s *model.State, kubeletSet, taintSet, byNode bool) (ranks []uint16, ok bool) {
	pods := s.Pods[:blankTail(s)]
	keys, oddFree := podSortKeys(w.sortKeys, s, len(pods), kubeletSet, taintSet)
	if oddFree && len(pods) < len(s.Pods) {
		// A Free slot may sort after the blank ones: no tail.
		pods = s.Pods
		keys, _ = podSortKeys(keys, s, len(pods), kubeletSet, taintSet)
	}
	w.sortKeys = keys
	on := &w.podsOn
	on.valid = byNode
	if !byNode {
		w.mergeBuf, w.runEnds = sortKeys(keys, w.mergeBuf, w.runEnds)
		ranks = w.rank(keys, len(keys), nil, nil)
		w.wideRanks = w.distinct(s, pods) > 256
		return ranks, true
	}
	w.runLen = slices.Grow(w.runLen[:0], len(keys))[:len(keys)]
	// With node lists to build, the slots' sorted order is needed only
	// run by run (podOrder deals from the lists): pods of equal content
	// mostly stand in neighbouring slots (a deployment's replicas, Free
	// slots), so sort one key per run of them. The runs are intervals of
	// slots, so a run sorted by its first slot stands, slot by slot,
	// where its slots would.
	runs := collapseRuns(keys, w.runLen)
	w.mergeBuf, w.runEnds = sortKeys(runs, w.mergeBuf, w.runEnds)
	if !on.count(pods, len(s.Nodes)) {
		return nil, false
	}
	ranks = w.rank(runs, len(pods), w.runLen, pods)
	w.wideRanks = w.distinct(s, pods) > 256
	return ranks, true
}

// distinct returns the number of distinct contents of s, given the ranks
// of pods, the slots before its blank tail: the blank tail adds one
// unless a slot before it is blank too. It is a property of the state's
// contents, not of where its blank slots stand, so every state of an
// orbit has the same (the width of its ranks must not depend on slots).
func (w *scratch) distinct(s *model.State, pods []model.PodState) int {
	n := len(w.rankCount)
	if n < 256 || len(pods) == len(s.Pods) {
		return n // the count matters only past a byte
	}
	for i := range pods {
		if blank(&pods[i]) {
			return n
		}
	}
	return n + 1
}

// rank numbers the distinct contents of sorted, the keys of the first
// slots slots (runs of runLen[first slot] slots, or single slots when
// runLen is nil), for podRanks, and with runs lists the slots of pods by
// node.
func (w *scratch) rank(sorted []sortKey, slots int, runLen []uint16, pods []model.PodState) []uint16 {
	ranks := slices.Grow(w.ranks[:0], slots)[:slots]
	count := slices.Grow(w.rankCount[:0], len(sorted))[:len(sorted)]
	r, freeRank := -1, noFreeRank
	for j := range sorted {
		k := &sorted[j]
		if j == 0 || !k.sameContent(&sorted[j-1]) {
			r++
			count[r] = 0
			if freeRank == noFreeRank && k.free() {
				freeRank = r
			}
		}
		i := k.slot()
		if runLen == nil {
			ranks[i] = uint16(r)
			count[r]++
			continue
		}
		run := int(runLen[i])
		count[r] += uint16(run)
		// The lists' headers in locals: the stores into them would
		// make fields reached through w be reloaded.
		onSlots, onStart := w.podsOn.slots, w.podsOn.start
		inRun := pods[i : i+run]
		for k := range inRun {
			ranks[i+k] = uint16(r)
			v := int(refNode(&inRun[k])) + 1
			at := onStart[v]
			onSlots[at] = uint16(i + k)
			onStart[v] = at + 1
		}
	}
	w.freeRank = freeRank
	w.rankCount = count[:r+1]
	w.ranks = ranks
	return ranks
}

// noFreeRank is freeRank when no slot is Free: above every rank.
const noFreeRank = maxPodSlots

// collapseRuns keeps the first key of every run of neighbouring keys
// with equal contents, in place, and records each run's length by its
// first slot in runLen (as long as keys). keys are in slot order: key i
// is slot i's.
func collapseRuns(keys []sortKey, runLen []uint16) []sortKey {
	if len(keys) == 0 {
		return keys
	}
	m, first := 0, 0 // keys[m] is the run that begins at slot first
	for i := 1; i < len(keys); i++ {
		if keys[i].sameContent(&keys[m]) {
			continue
		}
		runLen[first] = uint16(i - first)
		m++
		if m != i {
			keys[m] = keys[i]
		}
		first = i
	}
	runLen[first] = uint16(len(keys) - first)
	return keys[:m+1]
}

// podsByNode lists the pod slots by node value (refNode: the node, or
// else the nominated node; 0 = neither): those of value v are slots[start[v]:start[v+1]] for v up to
// top, the highest value in use. A Free slot is listed under its node
// value too (it is all zero, so 0), but no node holds it. valid says
// whether the lists are those of the current state.
type podsByNode struct {
	slots []uint16
	start []uint16
	top   int
	valid bool
}

// count sizes the lists for pods, of a state of the given number of
// nodes; rank then fills them. It reports false when a node holds more
// than 255 pods, more than a node signature's count byte holds (value 0,
// the unbound and Free slots, is on no node).
func (l *podsByNode) count(pods []model.PodState, nodes int) bool {
	// Node values run to nodes; a value past it (a state that is not
	// one of its universe's) widens the lists to hold it.
	start := slices.Grow(l.start[:0], nodes+3)[:nodes+3]
	clear(start)
	top := 0
	for i := range pods {
		v := int(refNode(&pods[i]))
		if v+2 >= len(start) {
			start = append(start, make([]uint16, v+3-len(start))...)
		}
		start[v+2]++
		top = max(top, v)
	}
	l.start = start
	for x := 3; x <= top+1; x++ {
		if start[x] > 255 {
			return false
		}
	}
	// start[v+1] becomes where value v's next slot goes: after the
	// adds it is where v's list ends and v+1's begins.
	for x := 2; x <= top+1; x++ {
		start[x] += start[x-1]
	}
	l.top = top
	l.slots = slices.Grow(l.slots[:0], len(pods))[:len(pods)]
	return true
}

// of returns the slots of node value v.
func (l *podsByNode) of(v int) []uint16 {
	if v > l.top {
		return nil
	}
	return l.slots[l.start[v]:l.start[v+1]]
}

// sortKeys sorts x (whose keys are unique), using tmp as merge space and
// ends for the runs' bounds, and returns both for reuse. It is a natural merge sort: it splits x into its
// ascending runs (short ones extended to minRun by insertion) and merges
// neighbouring runs until one is left. A sorted x costs one comparison
// per key; a successor's few changed pods cost a few runs, merged mostly
// by block copies (mergeKeys).
func sortKeys(x, tmp []sortKey, ends []int) ([]sortKey, []int) {
	const minRun = 8
	ends = ends[:0]
	for lo := 0; lo < len(x); {
		hi := lo + 1
		for hi < len(x) && x[hi-1].less(&x[hi]) {
			hi++
		}
		if hi-lo < minRun && hi < len(x) {
			end := min(lo+minRun, len(x))
			insertKeys(x[lo:end], hi-lo)
			hi = end
		}
		ends = append(ends, hi)
		lo = hi
	}
	if len(ends) <= 1 {
		return tmp, ends
	}
	tmp = slices.Grow(tmp[:0], len(x))[:len(x)]
	src, dst := x, tmp
	for len(ends) > 1 {
		lo, merged := 0, ends[:0]
		for i := 0; i < len(ends); i += 2 {
			if i+1 == len(ends) {
				copy(dst[lo:], src[lo:ends[i]])
				merged = append(merged, ends[i])
				break
			}
			mid, hi := ends[i], ends[i+1]
			mergeKeys(dst[lo:hi], src[lo:mid], src[mid:hi])
			merged = append(merged, hi)
			lo = hi
		}
		ends = merged
		src, dst = dst, src
	}
	if &src[0] != &x[0] {
		copy(x, src)
	}
	return tmp, ends
}

// insertKeys sorts x by insertion, given that x[:sorted] is sorted.
func insertKeys(x []sortKey, sorted int) {
	for i := sorted; i < len(x); i++ {
		k := x[i]
		j := i
		for j > 0 && k.less(&x[j-1]) {
			x[j] = x[j-1]
			j--
		}
		x[j] = k
	}
}

// mergeKeys merges the sorted a and b into dst (len(a)+len(b) long). It
// alternates between the stretch of a below b's head and the stretch of
// b below a's head, copying each as a block: runs interleave in a few
// long blocks here (the pods that left a queue against those still in
// it, a moved pod against the rest).
func mergeKeys(dst, a, b []sortKey) {
	for len(a) > 0 && len(b) > 0 {
		n := keysBelow(a, &b[0])
		copy(dst, a[:n])
		dst, a = dst[n:], a[n:]
		if len(a) == 0 {
			break
		}
		n = keysBelow(b, &a[0])
		copy(dst, b[:n])
		dst, b = dst[n:], b[n:]
	}
	n := copy(dst, a)
	copy(dst[n:], b)
}

// keysBelow returns how many of the sorted x's keys are below k, probing
// x[0], x[1], x[3], x[7], … before a binary search, so that a short
// answer costs few comparisons.
func keysBelow(x []sortKey, k *sortKey) int {
	bound := 1
	for bound <= len(x) && x[bound-1].less(k) {
		bound *= 2
	}
	// x[:bound/2] are below k; x[bound-1], if any, is not.
	lo, hi := bound/2, min(bound-1, len(x))
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x[m].less(k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
