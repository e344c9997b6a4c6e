package checker

import (
	"encoding/binary"
	"testing"
)

// ringGraph stores n states 0..n-1 (state 0 initial) in an Exact visited
// set with edges i -> i+1 mod n and i -> i+2 mod n recorded.
func ringGraph(n int) (*visitedSet, []*edgeList) {
	v := newVisitedSet(modeExact, 1, false, false, 0, 0)
	var l edgeList
	v.prepareLevel(int64(n))
	ids := make([]stateID, n)
	for i := range n {
		key := binary.LittleEndian.AppendUint32(nil, uint32(i))
		rec := makeParent(noState, 0)
		if i > 0 {
			rec = makeParent(ids[i-1], 0)
		}
		ids[i], _ = v.insert(v.fingerprint(key), key, rec, 0)
	}
	for i := range n {
		l.push(edge{src: ids[i], dst: ids[(i+1)%n], ordinal: 0, marks: 1})
		l.push(edge{src: ids[i], dst: ids[(i+2)%n], ordinal: 1, marks: 2})
	}
	return v, []*edgeList{&l}
}

// TestCycleAnalysisMemory: what the analysis holds never exceeds what the
// budget charged for it during the exploration (recorded edges, plus
// graphEdgeBytes per edge and graphVertexBytes per vertex), and a budget
// too small for it stops it with ReasonMemory.
func TestCycleAnalysisMemory(t *testing.T) {
	const n = 300_000
	v, lists := ringGraph(n)
	charged := int64(2*n)*(edgeBytes+graphEdgeBytes) + int64(n)*graphVertexBytes
	var peak int64
	m := &meter{check: func(held int64) Reason { peak = max(peak, held); return ReasonNone }}
	g := buildGraph(v, lists, []uint32{n}, false, m)
	if g == nil {
		t.Fatalf("analysis stopped: %v", m.reason)
	}
	if l, ok := g.findLasso(3); !ok || len(l.prefix) != 0 || len(l.loop) == 0 {
		t.Fatalf("lasso %v, %v", l, ok)
	}
	if peak == 0 || peak > charged {
		t.Fatalf("analysis held up to %d bytes, %d charged", peak, charged)
	}
	t.Logf("peak %d bytes of %d charged", peak, charged)

	v, lists = ringGraph(n)
	m = &meter{check: func(held int64) Reason {
		if held > charged/2 {
			return ReasonMemory
		}
		return ReasonNone
	}}
	if g := buildGraph(v, lists, []uint32{n}, false, m); g != nil && m.ok() {
		if _, ok := g.findLasso(3); ok || m.reason != ReasonMemory {
			t.Fatalf("half the charge: reason %v", m.reason)
		}
	} else if m.reason != ReasonMemory {
		t.Fatalf("half the charge: reason %v", m.reason)
	}
}
