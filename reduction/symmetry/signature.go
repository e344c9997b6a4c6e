package symmetry

import (
	"bytes"
	"encoding/binary"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// notQueued is a node's queue position when it is not in the
// node-controller queue, which holds each node at most once: one byte
// below notQueued nodes, else two (appendQueuePosition).
const notQueued = 0xFF

// signatures returns, for every node of the blocks, the bytes that order
// it within its block: everything a future step can read of the node and
// that a permutation carries along with it. Fields have fixed widths, so
// equal signatures mean equal contents:
//
//	status, kernel-panic and maintenance memory, position in the
//	node-controller queue, whether a kernel-panic failure names the node,
//	then for each bound pod in slot order: slot, phase|wasRunning|rs,
//	owner, template, pattern, CPU and memory usage (4 bytes each).
//
// With pods fixed (ranks nil) pod slots are part of the signature: two
// nodes tie only when neither holds a pod. With pods permuted the node
// carries the count and the sorted multiset of its pods' content keys
// instead (no slot, no node), so the signature does not depend on
// pod slots and two nodes tie exactly when swapping them, together with a
// matching of their pods, is the identity on the state. The keys are
// written as their ranks (podRanks), one byte each: keys have one width,
// so two nodes' sorted key lists compare as their rank lists do, and the
// signatures order exactly as with the keys' bytes.
//
// The signatures live in w's buffers until w is reused.
func (c *Canonicalizer) signatures(w *scratch, s *model.State, ranks []uint16) *nodeSigs {
	N := len(s.Nodes)
	if ranks == nil {
		w.groupPods(s)
	}
	g := &w.sigs
	g.start = slices.Grow(g.start[:0], N)[:N]
	g.end = slices.Grow(g.end[:0], N)[:N]
	g.size = slices.Grow(g.size[:0], N)[:N]
	g.head = slices.Grow(g.head[:0], N)[:N]
	// Room for every signature, so that the appends never copy: a
	// header of fixed width, and a rank (or 13 bytes of fields) per pod.
	width := 5 + 2*len(c.layout.panics) + len(c.layout.maints)
	size := 2 * len(s.Pods)
	if ranks == nil {
		size *= 7
	}
	for _, block := range w.blocks {
		size += width * len(block)
	}
	buf := slices.Grow(g.buf[:0], size)
	if c.narrowSignatures(w, s, ranks) {
		g.buf = c.appendNarrowSignatures(g, buf, w, s, ranks)
		return g
	}
	for _, block := range w.blocks {
		for _, n := range block {
			start := len(buf)
			g.start[n] = start
			buf = append(buf, s.Nodes[n].Byte())
			buf = c.layout.appendNode(buf, s, n)
			buf = appendQueuePosition(buf, s.Queues[model.NodeControllerQueue], n, N)
			failed := byte(0)
			if s.Failed == model.FailKernelPanic && int(s.FailedArg) == n {
				failed = 1
			}
			buf = append(buf, failed)
			if ranks != nil {
				buf = appendPodMultiset(buf, w.podsOn.of(n+1), ranks, w.freeRank, w.wideRanks)
			} else {
				for _, i := range w.fixedOn[w.fixedStart[n]:w.fixedStart[n+1]] {
					buf = appendPodFields(buf, s, i)
				}
			}
			g.end[n] = len(buf)
			g.size[n] = len(buf) - start
			g.head[n] = headOf(buf[start:])
		}
	}
	g.buf = buf
	return g
}

// headOf returns the first 8 bytes of sig as a big-endian integer, zero
// padded. A short signature is shifted in byte by byte: copying it into
// an array first and loading the array as a word stalls on the stores.
func headOf(sig []byte) uint64 {
	if len(sig) >= 8 {
		return binary.BigEndian.Uint64(sig)
	}
	var h uint64
	for _, b := range sig {
		h = h<<8 | uint64(b)
	}
	return h << (8 * (8 - uint(len(sig))))
}

// nodeSigs holds the signatures of the nodes of the movable blocks: node
// n's is buf[start[n]:end[n]] (offsets, as buf moves while it grows),
// size[n] its length, and head[n] its first 8 bytes, big-endian and
// zero-padded.
type nodeSigs struct {
	buf              []byte
	start, end, size []int
	head             []uint64
}

// compare orders nodes a and b as bytes.Compare orders their signatures.
// Heads that differ decide it alone: at the first byte where they differ
// either both signatures differ there too, or the one whose head is
// padded there has ended and is a prefix of the other. So most
// comparisons are one integer compare.
func (g *nodeSigs) compare(a, b int) int {
	if ha, hb := g.head[a], g.head[b]; ha != hb {
		if ha < hb {
			return -1
		}
		return 1
	}
	return g.compareTails(a, b)
}

// compareTails is compare for nodes with equal heads: a signature that
// ends within its head is a prefix of the other (or equal to it).
func (g *nodeSigs) compareTails(a, b int) int {
	la, lb := g.size[a], g.size[b]
	if la <= 8 || lb <= 8 {
		return la - lb
	}
	return g.compareLongTails(a, b)
}

// compareLongTails compares the bytes after the heads (kept out of
// compareTails, so that the short case inlines).
func (g *nodeSigs) compareLongTails(a, b int) int {
	return bytes.Compare(g.buf[g.start[a]+8:g.end[a]], g.buf[g.start[b]+8:g.end[b]])
}

// equal reports whether nodes a and b have equal signatures.
func (g *nodeSigs) equal(a, b int) bool {
	return g.head[a] == g.head[b] && g.compareTails(a, b) == 0
}

// sortBlock sorts the nodes of order stably by signature. Blocks are
// short, so by insertion, with the heads held next to the nodes so that
// most steps compare two integers in registers; a block long enough for
// insertion's quadratic cost to show goes to slices.SortStableFunc.
func (g *nodeSigs) sortBlock(order []int) {
	const short = 32
	if len(order) > short {
		slices.SortStableFunc(order, g.compare)
		return
	}
	var heads [short]uint64
	for i, n := range order {
		heads[i] = g.head[n]
	}
	for i := 1; i < len(order); i++ {
		n, h := order[i], heads[i]
		j := i
		for ; j > 0; j-- {
			if hm := heads[j-1]; hm != h {
				if hm < h {
					break
				}
			} else if m := order[j-1]; min(g.size[m], g.size[n]) <= 8 {
				if g.size[m] <= g.size[n] { // compareTails, without its call
					break
				}
			} else if g.compareLongTails(m, n) <= 0 {
				break
			}
			order[j], heads[j] = order[j-1], heads[j-1]
		}
		order[j], heads[j] = n, h
	}
}

// groupPods lists the bound pods of every node, in slot order, in
// w.fixedOn (counting sort by node), for signatures with pods fixed.
func (w *scratch) groupPods(s *model.State) {
	N := len(s.Nodes)
	start := slices.Grow(w.fixedStart[:0], N+2)[:N+2]
	clear(start)
	bound := 0
	for i := range s.Pods {
		if n, ok := boundNode(s, i); ok {
			start[n+2]++
			bound++
		}
	}
	for n := 2; n < len(start); n++ {
		start[n] += start[n-1]
	}
	on := slices.Grow(w.fixedOn[:0], bound)[:bound]
	for i := range s.Pods {
		if n, ok := boundNode(s, i); ok {
			on[start[n+1]] = i
			start[n+1]++
		}
	}
	w.fixedStart, w.fixedOn = start[:N+1], on
}

// boundNode returns the node pod slot i is bound or else nominated to
// (refNode), if it is a node of s.
func boundNode(s *model.State, i int) (int, bool) {
	p := &s.Pods[i]
	if p.Phase == model.Free || refNode(p) == 0 {
		return 0, false
	}
	n := int(refNode(p)) - 1
	return n, n < len(s.Nodes)
}

// appendPodFields appends pod slot i's part of a node signature when pods
// are fixed: slot, phase|wasRunning|rs|nominated|readiness<<5, owner,
// template, pattern, ordinal, failure facts, restart count, CPU and
// memory usage.
//
// The slot takes one byte, two when the universe has more than 256 slots.
func appendPodFields(dst []byte, s *model.State, i int) []byte {
	p := &s.Pods[i]
	if len(s.Pods) > 256 {
		dst = append(dst, byte(i>>8))
	}
	h := byte(p.Phase) | p.RS<<3
	if p.WasRunning {
		h |= 1 << 2
	}
	if p.NominatedNode != 0 {
		h |= 1 << 4
	}
	h |= byte(p.Readiness) << 5
	dst = append(dst, byte(i), h, p.Owner, p.Template, p.Pattern, p.Ordinal, byte(p.Failure), p.Restarts)
	dst = binary.BigEndian.AppendUint32(dst, uint32(p.CPU))
	return binary.BigEndian.AppendUint32(dst, uint32(p.Memory))
}

// appendQueuePosition appends node n's first position in the
// node-controller queue q, notQueued when absent: one byte, or two
// (big-endian, notQueued in both) when the state has more nodes than
// notQueued, so that every position stays apart.
func appendQueuePosition(dst []byte, q []uint16, n, nodes int) []byte {
	pos := -1
	for i, x := range q {
		if int(x) == n {
			pos = i
			break
		}
	}
	if nodes >= notQueued {
		if pos < 0 {
			return append(dst, notQueued, notQueued)
		}
		return append(dst, byte(pos>>8), byte(pos))
	}
	if pos < 0 {
		return append(dst, notQueued)
	}
	return append(dst, byte(pos))
}

// appendPodMultiset appends the count and the ranks of a node's pods,
// given its slots in rank order (podsByNode); Free slots, ranked from
// freeRank on, come last and are on no node.
//
// A rank takes one byte, or two (big-endian, so that they still order as
// their keys) when wide: the state has more than 256 distinct contents.
func appendPodMultiset(dst []byte, slots []uint16, ranks []uint16, freeRank int, wide bool) []byte {
	at := len(dst)
	dst = append(dst, 0)
	if wide {
		for _, i := range slots {
			r := ranks[i]
			if int(r) >= freeRank {
				break
			}
			dst = append(dst, byte(r>>8), byte(r))
		}
		dst[at] = byte((len(dst) - at - 1) / 2)
		return dst
	}
	for _, i := range slots {
		r := ranks[i]
		if int(r) >= freeRank {
			break
		}
		dst = append(dst, byte(r))
	}
	dst[at] = byte(len(dst) - at - 1)
	return dst
}
