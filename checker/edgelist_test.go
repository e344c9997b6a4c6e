package checker

import (
	"testing"

	"pgregory.net/rapid"
)

// TestEdgeListAgainstSlice: pushes and truncations of the chunked edge
// list keep the same edges as a slice, across chunk boundaries.
func TestEdgeListAgainstSlice(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var l edgeList
		var ref []edge
		for range rapid.IntRange(1, 20).Draw(rt, "rounds") {
			for range rapid.IntRange(0, 3*edgeChunkMin).Draw(rt, "pushes") {
				e := edge{src: stateID(len(ref)), dst: stateID(len(ref) + 1), ordinal: uint32(len(ref))}
				l.push(e)
				ref = append(ref, e)
			}
			k := rapid.IntRange(0, len(ref)).Draw(rt, "keep")
			l.truncate(k)
			ref = ref[:k]
			if l.len() != len(ref) {
				rt.Fatalf("len %d, want %d", l.len(), len(ref))
			}
		}
		got := l.appendTo(nil)
		if len(got) != len(ref) {
			rt.Fatalf("%d edges, want %d", len(got), len(ref))
		}
		for i := range ref {
			if got[i] != ref[i] {
				rt.Fatalf("edge %d: %+v, want %+v", i, got[i], ref[i])
			}
		}
	})
}
