package symmetry

import (
	"encoding/binary"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// notQueued is a node's queue position when it is not in the
// node-controller queue (queues hold at most 250 items).
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
// With pods fixed (podKeys nil) pod slots are part of the signature: two
// nodes tie only when neither holds a pod. With pods permuted the node
// carries the count and the sorted multiset of its pods' content keys
// instead (podKey: no slot, no node), so the signature does not depend on
// pod slots and two nodes tie exactly when swapping them, together with a
// matching of their pods, is the identity on the state.
//
// The signatures live in w's buffers until w is reused.
func (c *Canonicalizer) signatures(w *scratch, s *model.State, podKeys []podKey) [][]byte {
	N := len(s.Nodes)
	w.groupPods(s)
	sigs := slices.Grow(w.sigs[:0], N)[:N]
	clear(sigs)
	buf := w.sigBuf[:0]
	// buf may move while it grows, so the signatures are cut from it
	// after the last append, from their end offsets.
	ends := w.sigEnds[:0]
	for _, block := range w.blocks {
		for _, n := range block {
			buf = append(buf, byte(s.Nodes[n].Status))
			buf = c.layout.appendNode(buf, s, n)
			buf = append(buf, queuePosition(s.Queues[model.NodeControllerQueue], n))
			failed := byte(0)
			if s.Failed == model.FailKernelPanic && int(s.FailedArg) == n {
				failed = 1
			}
			buf = append(buf, failed)
			on := w.podsOn[w.podStart[n]:w.podStart[n+1]]
			if podKeys != nil {
				buf = appendPodMultiset(buf, on, podKeys)
			} else {
				for _, i := range on {
					buf = appendPodFields(buf, s, i)
				}
			}
			ends = append(ends, len(buf))
		}
	}
	start, k := 0, 0
	for _, block := range w.blocks {
		for _, n := range block {
			end := ends[k]
			sigs[n] = buf[start:end:end]
			start, k = end, k+1
		}
	}
	w.sigBuf, w.sigs, w.sigEnds = buf, sigs, ends
	return sigs
}

// groupPods lists the bound pods of every node, in slot order, in
// w.podsOn (counting sort by node).
func (w *scratch) groupPods(s *model.State) {
	N := len(s.Nodes)
	start := slices.Grow(w.podStart[:0], N+2)[:N+2]
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
	on := slices.Grow(w.podsOn[:0], bound)[:bound]
	for i := range s.Pods {
		if n, ok := boundNode(s, i); ok {
			on[start[n+1]] = i
			start[n+1]++
		}
	}
	w.podStart, w.podsOn = start[:N+1], on
}

// boundNode returns the node pod slot i is bound to, if it is a node of s.
func boundNode(s *model.State, i int) (int, bool) {
	p := &s.Pods[i]
	if p.Phase == model.Free || p.Node == 0 {
		return 0, false
	}
	n := int(p.Node) - 1
	return n, n < len(s.Nodes)
}

// appendPodFields appends pod slot i's part of a node signature when pods
// are fixed: slot, phase|wasRunning|rs, owner, template, pattern, CPU and
// memory usage.
func appendPodFields(dst []byte, s *model.State, i int) []byte {
	p := &s.Pods[i]
	h := byte(p.Phase) | p.RS<<3
	if p.WasRunning {
		h |= 1 << 2
	}
	dst = append(dst, byte(i), h, p.Owner, p.Template, p.Pattern)
	dst = binary.BigEndian.AppendUint32(dst, uint32(p.CPU))
	return binary.BigEndian.AppendUint32(dst, uint32(p.Memory))
}

func queuePosition(q []uint8, n int) byte {
	for i, x := range q {
		if int(x) == n {
			return byte(i)
		}
	}
	return notQueued
}

// appendPodMultiset appends the count and the sorted content keys of the
// pods on (sorted in place; equal keys are equal bytes, so their order
// does not matter).
func appendPodMultiset(dst []byte, on []int, podKeys []podKey) []byte {
	// Insertion sort: a node holds a handful of pods.
	for i := 1; i < len(on); i++ {
		x := on[i]
		j := i
		for j > 0 && podKeys[x].compare(&podKeys[on[j-1]]) < 0 {
			on[j] = on[j-1]
			j--
		}
		on[j] = x
	}
	dst = append(dst, byte(len(on)))
	for _, i := range on {
		dst = podKeys[i].appendBytes(dst)
	}
	return dst
}
