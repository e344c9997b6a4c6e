package checker

import (
	"context"
	"encoding/binary"
	"testing"

	"pgregory.net/rapid"
)

// tokenPair is two indistinguishable tokens walking a labelled graph:
// swapping them is a symmetry, so the canonical form is the sorted pair.
type tokenPair struct{ g *labelledGraph }

type pair struct{ a, b int }

func (p tokenPair) Initial(emit func(pair)) {
	for _, x := range p.g.init {
		for _, y := range p.g.init {
			emit(pair{x, y})
		}
	}
}

func (p tokenPair) Next(s pair, emit func(Step, pair)) {
	for k, e := range p.g.adj[s.a] {
		emit(Step{Actor: 0, Choice: uint32(k), Marks: e.marks}, pair{e.to, s.b})
	}
	for k, e := range p.g.adj[s.b] {
		emit(Step{Actor: 1, Choice: uint32(k), Marks: e.marks}, pair{s.a, e.to})
	}
}

func (p tokenPair) AppendEncoding(dst []byte, s pair) []byte {
	return binary.AppendUvarint(binary.AppendUvarint(dst, uint64(s.a)), uint64(s.b))
}

func (p tokenPair) Decode(enc []byte) (pair, error) {
	a, n := binary.Uvarint(enc)
	b, m := binary.Uvarint(enc[max(n, 0):])
	if n <= 0 || m <= 0 || n+m != len(enc) {
		return pair{}, errBadGraphState
	}
	return pair{int(a), int(b)}, nil
}

func (p tokenPair) Canonical(s pair) pair { return pair{min(s.a, s.b), max(s.a, s.b)} }

// TestSymmetryCountsOrbits: with the canonicaliser the engine stores one
// state per orbit, verdicts do not change, and traces (of concrete states)
// replay.
func TestSymmetryCountsOrbits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t, false)
		sys := tokenPair{g}
		// Reference: reachable concrete pairs and their orbits.
		seen := map[pair]bool{}
		var queue []pair
		sys.Initial(func(s pair) {
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		})
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			sys.Next(s, func(_ Step, t pair) {
				if !seen[t] {
					seen[t] = true
					queue = append(queue, t)
				}
			})
		}
		orbits := map[pair]bool{}
		for s := range seen {
			orbits[sys.Canonical(s)] = true
		}
		require := rapid.Uint32Range(0, 7).Draw(t, "require")
		props := Properties[pair]{
			Invariants: []Invariant[pair]{{Name: "no bad", Holds: func(s pair) bool { return !g.bad[s.a] && !g.bad[s.b] }}},
			Cycles:     []Cycle{{Name: "loop", Require: require}},
		}
		var verdicts [2][]Verdict
		for i, noSym := range []bool{false, true} {
			workers := rapid.IntRange(1, 4).Draw(t, "workers")
			res, err := Check(context.Background(), System[pair](sys), props, Options{Workers: workers, NoSymmetry: noSym, CollectAll: true})
			if err != nil {
				t.Fatal(err)
			}
			want := len(orbits)
			if noSym {
				want = len(seen)
			}
			if res.Stats.States != int64(want) {
				t.Fatalf("symmetry off=%v: %d states, want %d", noSym, res.Stats.States, want)
			}
			for _, p := range res.Properties {
				verdicts[i] = append(verdicts[i], p.Verdict)
			}
		}
		if verdicts[0][0] != verdicts[1][0] || verdicts[0][1] != verdicts[1][1] {
			t.Fatalf("verdicts with symmetry %v, without %v", verdicts[0], verdicts[1])
		}
	})
}
