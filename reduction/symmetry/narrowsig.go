package symmetry

import (
	"encoding/binary"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// Narrow node signatures. In the common layout (pods permuted, one-byte
// ranks, no per-node event memory, fewer nodes than notQueued) a node's
// signature is
//
//	status, node-controller queue position, kernel-panic failure flag,
//	count, ranks…
//
// exactly the bytes signatures writes for it. Its first eight bytes are
// known as they are computed, so appendNarrowSignatures builds each head
// in a register, and writes a signature's bytes into the buffer only when
// they do not fit in its head: nodeSigs compares the bytes past the head
// only when both signatures are longer than eight bytes (compareTails),
// and most nodes hold at most four pods.

// narrowSignatures reports whether appendNarrowSignatures applies to s.
func (c *Canonicalizer) narrowSignatures(w *scratch, s *model.State, ranks []uint16) bool {
	return ranks != nil && !w.wideRanks && len(c.layout.panics) == 0 && len(c.layout.maints) == 0 &&
		len(s.Nodes) < notQueued && w.podsOn.valid
}

// narrowHead is how many ranks a narrow signature's head holds after
// its four bytes of header.
const narrowHead = 4

// appendNarrowSignatures fills g with the signatures of the nodes of the
// blocks (narrowSignatures holds), appending to buf the bytes of those
// longer than their head, and returns buf. A signature that fits in its
// head has no bytes in buf (its start and end are left as they were).
func (c *Canonicalizer) appendNarrowSignatures(g *nodeSigs, buf []byte, w *scratch, s *model.State, ranks []uint16) []byte {
	ncq := s.Queues[model.NodeControllerQueue]
	panicked := -1
	if s.Failed == model.FailKernelPanic {
		panicked = int(s.FailedArg)
	}
	freeRank := w.freeRank
	on := w.podsOn // a copy: the stores below would make w's fields be reloaded
	for _, block := range w.blocks {
		for _, n := range block {
			pos := byte(notQueued)
			if len(ncq) > 0 {
				if i := slices.Index(ncq, uint16(n)); i >= 0 {
					pos = byte(i)
				}
			}
			var failed byte
			if n == panicked {
				failed = 1
			}
			head := uint64(s.Nodes[n].Byte())<<56 | uint64(pos)<<48 | uint64(failed)<<40
			// Free slots rank last and are on no node: a node's ranks
			// end at the first Free one.
			slots := on.of(n + 1)
			k := 0
			for ; k < len(slots) && k < narrowHead; k++ {
				r := ranks[slots[k]]
				if int(r) >= freeRank {
					break
				}
				head |= uint64(byte(r)) << (8 * (narrowHead - 1 - k))
			}
			if k == narrowHead && k < len(slots) && int(ranks[slots[k]]) < freeRank {
				start := len(buf)
				buf = binary.BigEndian.AppendUint64(buf, head)
				for _, i := range slots[k:] {
					r := ranks[i]
					if int(r) >= freeRank {
						break
					}
					buf = append(buf, byte(r))
				}
				k = len(buf) - start - 4
				buf[start+3] = byte(k)
				g.start[n], g.end[n] = start, len(buf)
			}
			g.size[n] = 4 + k
			g.head[n] = head | uint64(byte(k))<<32
		}
	}
	return buf
}
