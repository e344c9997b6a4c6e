package symmetry

import (
	"bytes"
	"testing"

	"github.com/kivi-go/kivi/model"
	"pgregory.net/rapid"
)

// TestNarrowSignaturesAreTheGeneralOnes: in the layout where
// appendNarrowSignatures applies, every node's signature bytes, size
// and head are those the general path writes (the bytes, of those
// longer than their head) (status, node memory,
// queue position, failure flag, pod multiset; head by headOf).
func TestNarrowSignaturesAreTheGeneralOnes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := randomCanonicalizer(t)
		c.layout.panics, c.layout.maints, c.layout.next = nil, nil, nil
		c.pods = true
		if c.layout.nodes >= notQueued || rapid.Bool().Draw(t, "few nodes") {
			// Few nodes: many pods each, so that heads fill up.
			c.layout.nodes = rapid.IntRange(1, 4).Draw(t, "nodes")
			c.classes = [][]int{nodeIndices(c.layout.nodes)}
		}
		w := new(scratch)
		for range 3 {
			s := randomState(t, c)
			w.blocks = c.appendMovable(w.blocks[:0], s)
			if len(w.blocks) == 0 {
				continue
			}
			ranks, ok := w.podRanks(s, c.kubeletSet, c.taintSet, true)
			if !ok || !c.narrowSignatures(w, s, ranks) {
				continue
			}
			g := c.signatures(w, s, ranks)
			for _, block := range w.blocks {
				for _, n := range block {
					want := []byte{s.Nodes[n].Byte()}
					want = c.layout.appendNode(want, s, n)
					want = appendQueuePosition(want, s.Queues[model.NodeControllerQueue], n, len(s.Nodes))
					failed := byte(0)
					if s.Failed == model.FailKernelPanic && int(s.FailedArg) == n {
						failed = 1
					}
					want = append(want, failed)
					want = appendPodMultiset(want, w.podsOn.of(n+1), ranks, w.freeRank, w.wideRanks)
					if g.size[n] > 8 {
						if got := g.buf[g.start[n]:g.end[n]]; !bytes.Equal(got, want) {
							t.Fatalf("node %d: signature %v, general %v", n, got, want)
						}
					}
					if g.size[n] != len(want) || g.head[n] != headOf(want) {
						t.Fatalf("node %d: size %d head %x, general %d %x", n, g.size[n], g.head[n], len(want), headOf(want))
					}
				}
			}
		}
	})
}
