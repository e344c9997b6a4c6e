package symmetry

import (
	"bytes"
	"cmp"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The sorts behind the canonicaliser against the standard library's, on
// inputs up to the model's limits (TestPlanMatchesReference's states are
// too small to reach the merges of many runs, the counting sort of a big
// group or a long node block).

// randomKeys draws n unique sort keys (the slot in k[2] makes them
// unique) from few contents, in long sorted stretches or not at all.
func randomKeys(t *rapid.T, n int) []sortKey {
	contents := rapid.SliceOfN(rapid.Uint64Range(0, 3), 1, 6).Draw(t, "contents")
	keys := make([]sortKey, n)
	for i := range keys {
		c := contents[rapid.IntRange(0, len(contents)-1).Draw(t, "content")]
		keys[i] = sortKey{c >> 1, c & 1, uint64(i)}
	}
	if rapid.Bool().Draw(t, "stretches") {
		slices.SortFunc(keys, compareKeys)
		for range rapid.IntRange(0, 4).Draw(t, "moves") {
			i, j := rapid.IntRange(0, n-1).Draw(t, "from"), rapid.IntRange(0, n-1).Draw(t, "to")
			k := keys[i]
			keys = slices.Insert(slices.Delete(keys, i, i+1), j, k)
		}
	} else {
		keys = rapid.Permutation(keys).Draw(t, "keys")
	}
	return keys
}

func compareKeys(a, b sortKey) int {
	if a.less(&b) {
		return -1
	}
	if b.less(&a) {
		return 1
	}
	return 0
}

func TestSortKeysSorts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := randomKeys(t, rapid.IntRange(1, maxPodSlots).Draw(t, "n"))
		want := slices.SortedFunc(slices.Values(keys), compareKeys)
		got := slices.Clone(keys)
		sortKeys(got, nil, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("sortKeys(%v) = %v", keys, got)
		}
	})
}

func TestCollapseRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := randomKeys(t, rapid.IntRange(1, maxPodSlots).Draw(t, "n"))
		for i := range keys {
			keys[i][2] = uint64(i) // in slot order, as podSortKeys builds them
		}
		runLen := make([]uint16, len(keys))
		runs := collapseRuns(slices.Clone(keys), runLen)
		var expanded []sortKey
		for j, r := range runs {
			if j > 0 && r.sameContent(&runs[j-1]) {
				t.Fatalf("runs %d and %d have equal contents", j-1, j)
			}
			for i := r.slot(); i < r.slot()+int(runLen[r.slot()]); i++ {
				if !keys[i].sameContent(&r) {
					t.Fatalf("slot %d is not like its run's first, %d", i, r.slot())
				}
				expanded = append(expanded, keys[i])
			}
		}
		if !slices.Equal(expanded, keys) {
			t.Fatalf("runs %v do not cover %v", runs, keys)
		}
	})
}

func TestSortByNodeSorts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, maxPodSlots).Draw(t, "n")
		nodes := rapid.IntRange(0, rapid.IntRange(0, 250).Draw(t, "nodes"))
		var x []uint32
		for _, slot := range rapid.Permutation(identityInto(nil, maxPodSlots)).Draw(t, "slots")[:n] {
			x = append(x, uint32(nodes.Draw(t, "node"))<<16|uint32(slot))
		}
		slices.SortFunc(x, func(a, b uint32) int { return cmp.Compare(uint16(a), uint16(b)) }) // slot order
		want := slices.Sorted(slices.Values(x))
		sortByNode(x, nil)
		if !slices.Equal(x, want) {
			t.Fatalf("sortByNode = %v, want %v", x, want)
		}
	})
}

func TestSortBlockIsStable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 80).Draw(t, "nodes")
		var g nodeSigs
		sigs := make([][]byte, n)
		for i := range sigs {
			sigs[i] = rapid.SliceOfN(rapid.ByteRange(0, 2), 0, 12).Draw(t, "sig")
			g.start = append(g.start, len(g.buf))
			g.buf = append(g.buf, sigs[i]...)
			g.end = append(g.end, len(g.buf))
			g.size = append(g.size, len(sigs[i]))
			var head [8]byte
			copy(head[:], sigs[i])
			g.head = append(g.head, uint64(head[0])<<56|uint64(head[1])<<48|uint64(head[2])<<40|uint64(head[3])<<32|
				uint64(head[4])<<24|uint64(head[5])<<16|uint64(head[6])<<8|uint64(head[7]))
		}
		order := identityInto(nil, n)
		want := slices.Clone(order)
		slices.SortStableFunc(want, func(a, b int) int { return bytes.Compare(sigs[a], sigs[b]) })
		g.sortBlock(order)
		if !slices.Equal(order, want) {
			t.Fatalf("sortBlock = %v, want %v", order, want)
		}
		for a := range n {
			for b := range n {
				if g.equal(a, b) != bytes.Equal(sigs[a], sigs[b]) {
					t.Fatalf("equal(%q, %q) = %v", sigs[a], sigs[b], g.equal(a, b))
				}
			}
		}
	})
}
