package symmetry

import "github.com/kivi-go/kivi/model"

// Narrow node signatures. In the common layout (pods permuted, one-byte
// ranks, no per-node event memory, fewer nodes than notQueued) a node's
// signature is
//
//	status, node-controller queue position, kernel-panic failure flag,
//	count, ranks…
//
// exactly the bytes signatures writes for it, and its first eight bytes
// are known as they are written: appendNarrowSignatures builds each
// head in a register instead of reading it back from the buffer, and
// skips the per-node calls that write nothing in this layout.

// narrowSignatures reports whether appendNarrowSignatures applies to s.
func (c *Canonicalizer) narrowSignatures(w *scratch, s *model.State, ranks []uint16) bool {
	return ranks != nil && !w.wideRanks && len(c.layout.panics) == 0 && len(c.layout.maints) == 0 &&
		len(s.Nodes) < notQueued && w.podsOn.valid
}

// appendNarrowSignatures fills g with the signatures of the nodes of the
// blocks (narrowSignatures holds), appending their bytes to buf, and
// returns buf.
func (c *Canonicalizer) appendNarrowSignatures(g *nodeSigs, buf []byte, w *scratch, s *model.State, ranks []uint16) []byte {
	ncq := s.Queues[model.NodeControllerQueue]
	panicked := -1
	if s.Failed == model.FailKernelPanic {
		panicked = int(s.FailedArg)
	}
	freeRank := w.freeRank
	for _, block := range w.blocks {
		for _, n := range block {
			pos := byte(notQueued)
			for i, x := range ncq {
				if int(x) == n {
					pos = byte(i)
					break
				}
			}
			var failed byte
			if n == panicked {
				failed = 1
			}
			status := s.Nodes[n].Byte()
			start := len(buf)
			buf = append(buf, status, pos, failed, 0)
			head := uint64(status)<<56 | uint64(pos)<<48 | uint64(failed)<<40
			k := 0
			for _, i := range w.podsOn.of(n + 1) {
				r := ranks[i]
				if int(r) >= freeRank {
					break // Free slots rank last and are on no node
				}
				buf = append(buf, byte(r))
				if k < 4 {
					head |= uint64(byte(r)) << (24 - 8*k)
				}
				k++
			}
			buf[start+3] = byte(k)
			head |= uint64(byte(k)) << 32
			g.start[n] = start
			g.end[n] = len(buf)
			g.size[n] = len(buf) - start
			g.head[n] = head
		}
	}
	return buf
}
