package symmetry

import (
	"bytes"
	"slices"
	"sort"
	"sync"

	"github.com/kivi-go/kivi/model"
)

// Canonicalizer maps a state to the representative of its orbit under the
// permutations of interchangeable nodes and, unless a pod rule keeps them
// fixed, of pod slots (checker.Canonicalizer). Apart from a pool of
// scratch buffers it holds only read-only data, so one value serves many
// goroutines; it must not be copied.
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
	// scratch recycles the per-call buffers of Canonical (*scratch): the
	// checker canonicalises every successor on several goroutines.
	scratch sync.Pool
}

// New analyses u (which must be compiled) and returns its canonicaliser.
func New(u *model.Universe) *Canonicalizer {
	c := &Canonicalizer{u: u, analysis: Analyze(u), layout: nodeMemoryOf(u)}
	c.pods = c.analysis.Pods && u.PodSlots > 1
	c.kubeletSet = !u.HasTaints && u.PodSlots > 1
	for _, cl := range c.analysis.Classes {
		if len(cl) > 1 {
			c.classes = append(c.classes, cl)
		}
	}
	c.scratch.New = func() any { return new(scratch) }
	return c
}

// Analysis returns the classes and the rules that restricted them.
func (c *Canonicalizer) Analysis() Analysis { return c.analysis }

// Trivial reports whether no two nodes and no two pod slots are
// interchangeable: Canonical is then the identity and a checker gains
// nothing from calling it.
func (c *Canonicalizer) Trivial() bool {
	return len(c.classes) == 0 && !c.pods && !c.kubeletSet
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
	w := c.scratch.Get().(*scratch)
	defer c.scratch.Put(w)
	perm, podPerm, sortKQ, moved := c.plan(w, s)
	if !moved {
		return s
	}
	t := permute(c.layout, s, perm, podPerm)
	if sortKQ {
		sortKubelet(t.Queues[model.KubeletQueue], t.Pods)
	}
	return t
}

// AppendCanonical appends the encoding of Canonical(s) to dst without
// building a new State (checker.CanonicalEncoder): the permuted state is
// laid out in a scratch state that the next call reuses.
func (c *Canonicalizer) AppendCanonical(dst []byte, s *model.State) []byte {
	w := c.scratch.Get().(*scratch)
	defer c.scratch.Put(w)
	perm, podPerm, sortKQ, moved := c.plan(w, s)
	if !moved {
		return s.AppendEncoding(c.u, dst)
	}
	t := &w.permuted
	s.CopyTo(t)
	permuteInto(t, c.layout, s, perm, podPerm)
	if sortKQ {
		sortKubelet(t.Queues[model.KubeletQueue], t.Pods)
	}
	return t.AppendEncoding(c.u, dst)
}

// plan computes the node and pod permutations that make s canonical, and
// whether the kubelet queue must be sorted; moved is false when s is
// already canonical.
func (c *Canonicalizer) plan(w *scratch, s *model.State) (perm, podPerm []int, sortKQ, moved bool) {
	sortKQ = c.kubeletSet && len(s.Queues[model.KubeletQueue]) > 1
	if len(c.classes) == 0 && !c.pods && !sortKQ {
		return nil, nil, false, false
	}
	w.blocks = c.appendMovable(w.blocks[:0], s)
	if len(w.blocks) == 0 && !c.pods && (!sortKQ || kubeletSorted(s.Queues[model.KubeletQueue], s.Pods)) {
		return nil, nil, false, false
	}
	var keys []podKey
	if c.pods {
		keys = w.podKeys(s, c.kubeletSet)
	}
	if len(w.blocks) > 0 {
		sigs := c.signatures(w, s, keys)
		for _, block := range w.blocks {
			order := append(w.order[:0], block...)
			w.order = order
			slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(sigs[a], sigs[b]) })
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
	}
	if c.pods {
		podPerm = w.podOrder(s, keys, perm)
	}
	if perm == nil && podPerm == nil && (!sortKQ || kubeletSorted(s.Queues[model.KubeletQueue], s.Pods)) {
		return nil, nil, false, false
	}
	return perm, podPerm, sortKQ, true
}

// scratch holds Canonical's working buffers; one call owns it at a time.
type scratch struct {
	blocks [][]int
	// keys is the content key of every pod slot.
	keys []podKey
	// queuePos[k][i] is pod slot i's position in podQueues[k].
	queuePos [len(podQueues)][]byte
	// sigBuf backs sigs, the signature of every node of a movable block
	// (nil for the others).
	sigBuf  []byte
	sigs    [][]byte
	sigEnds []int
	// podsOn lists the bound pods by node: those of node n are
	// podsOn[podStart[n]:podStart[n+1]], in slot order.
	podsOn   []int
	podStart []int
	order    []int
	perm     []int
	podPerm  []int
	sortKeys []sortKey
	mergeBuf []sortKey
	// podNodes and nodeCount are podOrder's counting sort by node.
	podNodes  []uint8
	nodeCount []int
	// permuted is AppendCanonical's canonical state.
	permuted model.State
}

// podKeys returns every slot's content key; with kubeletSet a pod's
// position in the kubelet queue is replaced by kubeletQueued.
func (w *scratch) podKeys(s *model.State, kubeletSet bool) []podKey {
	P := len(s.Pods)
	for k, q := range podQueues {
		w.queuePos[k] = queuePositions(w.queuePos[k], s.Queues[q], P)
	}
	if kubeletSet {
		kq := w.queuePos[1]
		for i, pos := range kq {
			if pos != notQueued {
				kq[i] = kubeletQueued
			}
		}
	}
	keys := slices.Grow(w.keys[:0], P)[:P]
	for i := range keys {
		keys[i] = podKeyOf(s, i, &w.queuePos)
	}
	w.keys = keys
	return keys
}

// queuePositions returns, for each of n ids, its first position in q, or
// notQueued (queuePosition for every id in one pass).
func queuePositions(dst []byte, q []uint8, n int) []byte {
	dst = slices.Grow(dst[:0], n)[:n]
	for i := range dst {
		dst[i] = notQueued
	}
	for i := len(q) - 1; i >= 0; i-- {
		if int(q[i]) < n {
			dst[q[i]] = byte(i)
		}
	}
	return dst
}

// podOrder returns the pod permutation (old slot → new slot) that sorts
// the slots by content key and then by the node's index after the node
// permutation perm (nil = identity), or nil when it is the identity.
// Equal (key, node) pairs keep their slot order.
func (w *scratch) podOrder(s *model.State, keys []podKey, perm []int) []int {
	P := len(s.Pods)
	// Lay the slots out by (new node, slot) first, with a counting sort:
	// pods of equal content then already stand in their final order, so
	// the sort by the full key only moves pods past pods of
	// other contents. (The full key is unique, so the result does not
	// depend on the starting order.)
	nodes := slices.Grow(w.podNodes[:0], P)[:P]
	count := slices.Grow(w.nodeCount[:0], 257)[:257]
	clear(count)
	for i := range s.Pods {
		n := int(s.Pods[i].Node)
		if n != 0 && perm != nil && n <= len(perm) {
			n = perm[n-1] + 1
		}
		nodes[i] = uint8(n)
		count[uint8(n)+1]++
	}
	for n := 1; n < len(count); n++ {
		count[n] += count[n-1]
	}
	sorted := slices.Grow(w.sortKeys[:0], P)[:P]
	for i := range s.Pods {
		n := nodes[i]
		sorted[count[n]] = sortKeyOf(&keys[i], int(n), i)
		count[n]++
	}
	w.sortKeys, w.podNodes, w.nodeCount = sorted, nodes, count
	w.mergeBuf = sortKeys(sorted, w.mergeBuf)
	moved := false
	for i := range sorted {
		if sorted[i].slot() != i {
			moved = true
			break
		}
	}
	if !moved {
		return nil
	}
	podPerm := slices.Grow(w.podPerm[:0], P)[:P]
	for i := range sorted {
		podPerm[sorted[i].slot()] = i
	}
	w.podPerm = podPerm
	return podPerm
}

// sortKey packs a pod's content key, its new node and its slot into three
// words whose lexicographic order is that of (key bytes, node, slot): the
// node and slot fill the low bits of the key's last word, and the unique
// slot makes an unstable sort give the stable order.
type sortKey [3]uint64

func sortKeyOf(key *podKey, node, slot int) sortKey {
	return sortKey{key[0], key[1], key[2] | uint64(uint8(node))<<16 | uint64(uint16(slot))}
}

func (k *sortKey) slot() int { return int(uint16(k[2])) }

func (k *sortKey) less(o *sortKey) bool {
	if k[0] != o[0] {
		return k[0] < o[0]
	}
	if k[1] != o[1] {
		return k[1] < o[1]
	}
	return k[2] < o[2]
}

// sortKeys sorts x (whose keys are unique), using tmp as merge space, and
// returns tmp for reuse. Short slices and runs of sortRun keys are sorted
// by insertion, which is fastest on these short, often nearly ordered
// runs; longer slices are then merged bottom-up, which keeps a state with
// many pods out of insertion sort's quadratic moves.
func sortKeys(x, tmp []sortKey) []sortKey {
	const sortRun = 16
	if len(x) <= 2*sortRun {
		insertionSortKeys(x)
		return tmp
	}
	for lo := 0; lo < len(x); lo += sortRun {
		insertionSortKeys(x[lo:min(lo+sortRun, len(x))])
	}
	tmp = slices.Grow(tmp[:0], len(x))[:len(x)]
	src, dst := x, tmp
	for width := sortRun; width < len(x); width *= 2 {
		for lo := 0; lo < len(x); lo += 2 * width {
			mid, hi := min(lo+width, len(x)), min(lo+2*width, len(x))
			mergeKeys(dst[lo:hi], src[lo:mid], src[mid:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &x[0] {
		copy(x, src)
	}
	return tmp
}

// mergeKeys merges the sorted a and b into dst (len(a)+len(b) long).
func mergeKeys(dst, a, b []sortKey) {
	if len(b) == 0 || a[len(a)-1].less(&b[0]) {
		copy(dst, a)
		copy(dst[len(a):], b)
		return
	}
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if b[j].less(&a[i]) {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// insertionSortKeys sorts x by insertion.
func insertionSortKeys(x []sortKey) {
	for i := 1; i < len(x); i++ {
		k := x[i]
		j := i
		for j > 0 && k.less(&x[j-1]) {
			x[j] = x[j-1]
			j--
		}
		x[j] = k
	}
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
	if len(c.classes) == 0 {
		return dst
	}
	w := c.scratch.Get().(*scratch)
	defer c.scratch.Put(w)
	w.blocks = c.appendMovable(w.blocks[:0], s)
	if len(w.blocks) == 0 {
		return dst
	}
	var keys []podKey
	if c.pods {
		keys = w.podKeys(s, c.kubeletSet)
	}
	sigs := c.signatures(w, s, keys)
	for _, block := range w.blocks {
		for i, n := range block {
			for _, m := range block[:i] {
				if dst[m] == m && bytes.Equal(sigs[m], sigs[n]) {
					dst[n] = m
					break
				}
			}
		}
	}
	return dst
}
