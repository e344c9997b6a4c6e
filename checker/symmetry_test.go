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

// mergesUnlike is a System whose canonicaliser merges two states that do
// not step alike: 4 is taken for 2, but 2 steps to 3 and 4 to nothing.
// The transitions are 0 → 5 → 2, 0 → 1, 2 → 3, 3 → 1 and 1 → 4, each
// marked: the stored states 1, 2 (for 4) and 3 make a loop whose
// concrete run from 1, the loop's state nearest to the start, stops at 4.
type mergesUnlike struct{}

func (mergesUnlike) Initial(emit func(int)) { emit(0) }

func (mergesUnlike) Next(s int, emit func(Step, int)) {
	switch s {
	case 0:
		emit(Step{Marks: 1}, 5)
		emit(Step{Choice: 1, Marks: 1}, 1)
	case 5:
		emit(Step{Marks: 1}, 2)
	case 1:
		emit(Step{Marks: 1}, 4)
	case 2:
		emit(Step{Marks: 1}, 3)
	case 3:
		emit(Step{Marks: 1}, 1)
	}
}

func (mergesUnlike) AppendEncoding(dst []byte, s int) []byte { return append(dst, byte(s)) }

func (mergesUnlike) Decode(enc []byte) (int, error) {
	if len(enc) != 1 {
		return 0, errBadGraphState
	}
	return int(enc[0]), nil
}

func (mergesUnlike) Canonical(s int) int {
	if s == 4 {
		return 2
	}
	return s
}

// TestUnreplayableCycleIsUnknown: exploring concrete states up to a
// symmetry whose orbit members do not all step alike, the engine finds
// the loop 1 → (4 taken for 2) → 3 → 1 among stored states, which has
// no concrete run: the cycle property is Unknown with ReasonUnreplayable,
// never an error and never violated, with one worker or two. Without
// symmetry it holds.
func TestUnreplayableCycleIsUnknown(t *testing.T) {
	props := Properties[int]{Cycles: []Cycle{{Name: "loop", Require: 1}}}
	for _, o := range []Options{{Workers: 1}, {Workers: 2}} {
		res, err := Check(context.Background(), System[int](mergesUnlike{}), props, o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if p := res.Properties[0]; p.Verdict != Unknown || p.Reason != ReasonUnreplayable {
			t.Errorf("%+v: %v (%v), want Unknown (%v)", o, p.Verdict, p.Reason, ReasonUnreplayable)
		}
		o.NoSymmetry = true
		res, err = Check(context.Background(), System[int](mergesUnlike{}), props, o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if p := res.Properties[0]; p.Verdict != Holds {
			t.Errorf("%+v: %v (%v), want holds", o, p.Verdict, p.Reason)
		}
	}
}
