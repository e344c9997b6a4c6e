package symmetry

import (
	"bytes"
	"encoding/binary"
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
	// scratch recycles the per-call buffers of Canonical (*scratch): the
	// checker canonicalises every successor on several goroutines.
	scratch sync.Pool
}

// New analyses u (which must be compiled) and returns its canonicaliser.
func New(u *model.Universe) *Canonicalizer {
	c := &Canonicalizer{u: u, analysis: Analyze(u), layout: nodeMemoryOf(u)}
	c.pods = c.analysis.Pods && u.PodSlots > 1
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
func (c *Canonicalizer) Trivial() bool { return len(c.classes) == 0 && !c.pods }

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
	if len(c.classes) == 0 && !c.pods {
		return s
	}
	w := c.scratch.Get().(*scratch)
	defer c.scratch.Put(w)
	w.blocks = c.appendMovable(w.blocks[:0], s)
	if len(w.blocks) == 0 && !c.pods {
		return s
	}
	var keys [][]byte
	if c.pods {
		keys = w.podKeys(s)
	}
	var perm []int
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
	var podPerm []int
	if c.pods {
		podPerm = w.podOrder(s, keys, perm)
	}
	if perm == nil && podPerm == nil {
		return s
	}
	return permute(c.layout, s, perm, podPerm)
}

// scratch holds Canonical's working buffers; one call owns it at a time.
type scratch struct {
	blocks [][]int
	// keyBuf backs keys, the content key of every pod slot.
	keyBuf []byte
	keys   [][]byte
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
}

// podKeys returns every slot's content key (one backing array).
func (w *scratch) podKeys(s *model.State) [][]byte {
	P := len(s.Pods)
	for k, q := range podQueues {
		w.queuePos[k] = queuePositions(w.queuePos[k], s.Queues[q], P)
	}
	buf := w.keyBuf[:0]
	if cap(buf) < podKeyLen*P {
		buf = make([]byte, 0, podKeyLen*P)
	}
	keys := w.keys[:0]
	for i := range s.Pods {
		start := len(buf)
		buf = podKey(buf, s, i, &w.queuePos)
		keys = append(keys, buf[start:len(buf):len(buf)])
	}
	w.keyBuf, w.keys = buf, keys
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
func (w *scratch) podOrder(s *model.State, keys [][]byte, perm []int) []int {
	P := len(s.Pods)
	sorted := slices.Grow(w.sortKeys[:0], P)[:P]
	for i := range s.Pods {
		n := int(s.Pods[i].Node)
		if n != 0 && perm != nil && n <= len(perm) {
			n = perm[n-1] + 1
		}
		sorted[i] = sortKeyOf(keys[i], n, i)
	}
	w.sortKeys = sorted
	sortKeys(sorted)
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
// key is fixed-width big-endian, so comparing words compares bytes, and
// the unique slot makes an unstable sort give the stable order.
type sortKey [3]uint64

// The key's bytes past the first two words, the node byte and two slot
// bytes must fit in the third word (a compile-time check).
const _ = uint(8 - (podKeyLen - 16) - 1 - 2)

func sortKeyOf(key []byte, node, slot int) sortKey {
	var k sortKey
	k[0] = binary.BigEndian.Uint64(key[0:8])
	k[1] = binary.BigEndian.Uint64(key[8:16])
	var tail uint64
	for _, b := range key[16:] {
		tail = tail<<8 | uint64(b)
	}
	tail = tail<<8 | uint64(uint8(node))
	k[2] = tail<<16 | uint64(uint16(slot))
	return k
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

// sortKeys sorts by insertion: pod slots are few (PodSlots is at most
// a few dozen) and a state's slots are often nearly in order already,
// which makes it faster than the library's sorts on these short runs.
func sortKeys(x []sortKey) {
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
