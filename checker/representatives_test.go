package checker

import (
	"context"
	"errors"
	"testing"

	"pgregory.net/rapid"
)

// reprPair is tokenPair exploring representatives: the frontier holds the
// sorted pair followed by a check byte, which DecodeRepresentative
// insists on, so that a representative's encoding decoded as a plain one
// (or the reverse) fails the run.
type reprPair struct{ tokenPair }

const reprCheck = 0xA5

func (reprPair) ExploreRepresentatives() bool { return true }

func (p reprPair) AppendRepresentative(key, enc []byte, s pair) ([]byte, []byte) {
	key = p.AppendEncoding(key, p.Canonical(s))
	enc = append(append(enc, key...), reprCheck)
	return key, enc
}

var errNotRepresentative = errors.New("not a representative's encoding")

func (p reprPair) DecodeRepresentative(enc []byte) (pair, error) {
	if len(enc) == 0 || enc[len(enc)-1] != reprCheck {
		return pair{}, errNotRepresentative
	}
	s, err := p.Decode(enc[:len(enc)-1])
	if err != nil || s != p.Canonical(s) {
		return pair{}, errNotRepresentative
	}
	return s, nil
}

// TestRepresentativesExploreLikeConcreteStates: exploring representatives
// stores the same orbits and gives the same verdicts as exploring
// concrete states, in every strategy, storage and worker count, and its
// counterexamples are concrete runs that the engine validated (Check
// fails a run whose trace does not replay).
func TestRepresentativesExploreLikeConcreteStates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t, false)
		require := rapid.Uint32Range(0, 7).Draw(t, "require")
		props := Properties[pair]{
			Invariants: []Invariant[pair]{{Name: "no bad", Holds: func(s pair) bool { return !g.bad[s.a] && !g.bad[s.b] }}},
			Cycles:     []Cycle{{Name: "loop", Require: require}},
		}
		opts := Options{
			Workers:    rapid.IntRange(1, 3).Draw(t, "workers"),
			Strategy:   Strategy(rapid.IntRange(0, 1).Draw(t, "strategy")),
			Storage:    Storage(rapid.IntRange(0, 2).Draw(t, "storage")),
			CollectAll: true,
		}
		results := make([]Result[pair], 2)
		for i, sys := range []System[pair]{tokenPair{g}, reprPair{tokenPair{g}}} {
			res, err := Check(context.Background(), sys, props, opts)
			if err != nil {
				t.Fatalf("%T: %v", sys, err)
			}
			results[i] = res
		}
		plain, repr := results[0], results[1]
		if plain.Stats.States != repr.Stats.States {
			t.Fatalf("%d states exploring concrete states, %d exploring representatives", plain.Stats.States, repr.Stats.States)
		}
		for i := range plain.Properties {
			a, b := plain.Properties[i], repr.Properties[i]
			if a.Verdict != b.Verdict {
				t.Fatalf("%s: %v exploring concrete states, %v exploring representatives", a.Name, a.Verdict, b.Verdict)
			}
			if a.Trace != nil && b.Trace != nil && len(a.Trace.Steps) != len(b.Trace.Steps) && opts.Strategy == BFS && opts.Storage == Exact && a.Trace.LoopStart < 0 {
				t.Fatalf("%s: shortest traces of %d and %d steps", a.Name, len(a.Trace.Steps), len(b.Trace.Steps))
			}
			if b.Trace != nil {
				assertConcreteRun(t, g, b.Trace)
			}
		}
	})
}

// assertConcreteRun checks that every step of tr is a transition of the
// unreduced system from the state before it.
func assertConcreteRun(t *rapid.T, g *labelledGraph, tr *Trace[pair]) {
	sys := tokenPair{g}
	cur := tr.Initial
	for i, st := range tr.Steps {
		found := false
		sys.Next(cur, func(s Step, next pair) {
			found = found || (s == st.Step && next == st.State)
		})
		if !found {
			t.Fatalf("step %d: %v --%v--> %v is not a transition", i+1, cur, st.Step, st.State)
		}
		cur = st.State
	}
}

// TestRepresentativeReplayFromStoredKeys: over Exact storage the replay
// of a representatives run reads each hop's key from the store instead
// of following the representatives, as it must under hash compaction;
// both give the same trace.
func TestRepresentativeReplayFromStoredKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t, false)
		props := Properties[pair]{
			Invariants: []Invariant[pair]{{Name: "no bad", Holds: func(s pair) bool { return !g.bad[s.a] && !g.bad[s.b] }}},
			Cycles:     []Cycle{{Name: "loop", Require: rapid.Uint32Range(0, 7).Draw(t, "require")}},
		}
		var traces [2][]*Trace[pair]
		for i, storage := range []Storage{Exact, HashCompaction} {
			opts := Options{Workers: 1, Strategy: BFS, Storage: storage, CollectAll: true}
			res, err := Check(context.Background(), System[pair](reprPair{tokenPair{g}}), props, opts)
			if err != nil {
				t.Fatalf("%v: %v", storage, err)
			}
			for _, p := range res.Properties {
				traces[i] = append(traces[i], p.Trace)
			}
		}
		for i := range traces[0] {
			a, b := traces[0][i], traces[1][i]
			if (a == nil) != (b == nil) {
				t.Fatalf("property %d: trace %v over Exact storage, %v under hash compaction", i, a != nil, b != nil)
			}
			if a == nil {
				continue
			}
			if a.Initial != b.Initial || a.LoopStart != b.LoopStart || len(a.Steps) != len(b.Steps) {
				t.Fatalf("property %d: traces differ: %+v against %+v", i, a, b)
			}
			for j := range a.Steps {
				if a.Steps[j].Step != b.Steps[j].Step || a.Steps[j].State != b.Steps[j].State {
					t.Fatalf("property %d, step %d: %+v against %+v", i, j+1, a.Steps[j], b.Steps[j])
				}
			}
		}
	})
}
