package checker_test

import (
	"context"
	"math"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/checker/internal/toys"
)

// bruteForce counts reachable states with a map of encodings: independent
// of the engine's storage, hashing and scheduling. With canonical set, it
// counts distinct canonical encodings (orbits).
func bruteForce[S any](sys checker.System[S], canonical func(S) S) int64 {
	seen := map[string]bool{}
	var queue []S
	add := func(s S) {
		k := s
		if canonical != nil {
			k = canonical(s)
		}
		key := string(sys.AppendEncoding(nil, k))
		if !seen[key] {
			seen[key] = true
			c, err := sys.Decode(sys.AppendEncoding(nil, s))
			if err != nil {
				panic(err)
			}
			queue = append(queue, c)
		}
	}
	sys.Initial(add)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		sys.Next(s, func(_ checker.Step, t S) { add(t) })
	}
	return int64(len(seen))
}

func mustCheck[S any](t *testing.T, sys checker.System[S], props checker.Properties[S], opts checker.Options) checker.Result[S] {
	t.Helper()
	res, err := checker.Check(context.Background(), sys, props, opts)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return res
}

func TestPhilosophers(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 6, 8} {
		sys := toys.Philosophers{N: n}
		want := toys.PhilosophersCount(n)
		if bf := bruteForce[[]uint8](sys, nil); bf != want {
			t.Fatalf("N=%d: closed form %d, brute force %d", n, want, bf)
		}
		props := checker.Properties[[]uint8]{
			Invariants:    []checker.Invariant[[]uint8]{{Name: "no adjacent eating", Holds: sys.NoAdjacentEating}},
			EndConditions: []checker.EndCondition[[]uint8]{{Name: "no deadlock", Holds: func([]uint8) bool { return false }}},
			Cycles:        []checker.Cycle{{Name: "someone eats forever", Require: toys.MarkEat}},
		}
		for _, workers := range []int{1, 2, 4} {
			res := mustCheck(t, checker.System[[]uint8](sys), props, checker.Options{Workers: workers, CollectAll: true, NoSymmetry: true})
			if res.Stats.States != want {
				t.Fatalf("N=%d workers=%d: %d states, want %d", n, workers, res.Stats.States, want)
			}
			inv, _ := res.Property("no adjacent eating")
			dead, _ := res.Property("no deadlock")
			cyc, _ := res.Property("someone eats forever")
			if inv.Verdict != checker.Holds || dead.Verdict != checker.Violated || cyc.Verdict != checker.Violated {
				t.Fatalf("N=%d: verdicts %v / %v / %v", n, inv, dead, cyc)
			}
			// The deadlock is everyone holding the left fork: N steps.
			if len(dead.Trace.Steps) != n {
				t.Fatalf("N=%d: deadlock trace of %d steps, want %d", n, len(dead.Trace.Steps), n)
			}
		}
		// With rotation symmetry the engine stores one state per orbit.
		orbits := bruteForce[[]uint8](sys, sys.Canonical)
		res := mustCheck(t, checker.System[[]uint8](sys), props, checker.Options{Workers: 2, CollectAll: true})
		if res.Stats.States != orbits {
			t.Fatalf("N=%d symmetric: %d states, want %d orbits", n, res.Stats.States, orbits)
		}
		if p, _ := res.Property("no deadlock"); p.Verdict != checker.Violated || len(p.Trace.Steps) != n {
			t.Fatalf("N=%d symmetric: %v", n, p)
		}
		if p, _ := res.Property("someone eats forever"); p.Verdict != checker.Violated {
			t.Fatalf("N=%d symmetric: %v", n, p)
		}
	}
}

func TestPeterson(t *testing.T) {
	props := checker.Properties[toys.PetersonState]{
		Invariants: []checker.Invariant[toys.PetersonState]{{Name: "mutex", Holds: toys.MutualExclusion}},
		Cycles:     []checker.Cycle{{Name: "enters forever", Require: toys.MarkEnter}},
	}
	sys := toys.Peterson{}
	want := bruteForce[toys.PetersonState](sys, nil)
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		res := mustCheck(t, checker.System[toys.PetersonState](sys), props, checker.Options{Strategy: strategy, CollectAll: true})
		if res.Stats.States != want || !res.Complete {
			t.Fatalf("%v: %d states (complete %v), brute force %d", strategy, res.Stats.States, res.Complete, want)
		}
		if p, _ := res.Property("mutex"); p.Verdict != checker.Holds {
			t.Fatalf("%v: %v", strategy, p)
		}
		if p, _ := res.Property("enters forever"); p.Verdict != checker.Violated {
			t.Fatalf("%v: %v", strategy, p)
		}
	}
	broken := toys.Peterson{Broken: true}
	res := mustCheck(t, checker.System[toys.PetersonState](broken), props, checker.Options{Workers: 2})
	p, _ := res.Property("mutex")
	if p.Verdict != checker.Violated || !toys.MutualExclusion(p.Trace.Steps[len(p.Trace.Steps)-1].State) == false {
		t.Fatalf("broken Peterson: %v", p)
	}
}

func TestTokenRing(t *testing.T) {
	for _, n := range []int{1, 2, 5, 10} {
		sys := toys.TokenRing{N: n}
		want := toys.TokenRingCount(n)
		if bf := bruteForce[toys.RingState](sys, nil); bf != want {
			t.Fatalf("N=%d: closed form %d, brute force %d", n, want, bf)
		}
		props := checker.Properties[toys.RingState]{
			Cycles: []checker.Cycle{
				{Name: "passes and flips", Require: toys.MarkPass | toys.MarkFlip},
				{Name: "impossible", Require: 1 << 7},
			},
		}
		res := mustCheck(t, checker.System[toys.RingState](sys), props, checker.Options{Workers: 2, CollectAll: true})
		if res.Stats.States != want {
			t.Fatalf("N=%d: %d states, want %d", n, res.Stats.States, want)
		}
		if p := res.Properties[0]; p.Verdict != checker.Violated || p.Trace.LoopStart != 0 {
			t.Fatalf("N=%d: %v", n, p)
		}
		if p := res.Properties[1]; p.Verdict != checker.Holds {
			t.Fatalf("N=%d: %v", n, p)
		}
	}
}

func TestCountersClosedForm(t *testing.T) {
	sys := toys.Counters{N: 4, Mod: 7}
	want := toys.CountersCount(4, 7)
	if bf := bruteForce[toys.CounterState](sys, nil); bf != want {
		t.Fatalf("closed form %d, brute force %d", want, bf)
	}
	for _, storage := range []checker.Storage{checker.Exact, checker.HashCompaction, checker.Bitstate} {
		for _, workers := range []int{1, 2} {
			res := mustCheck(t, checker.System[toys.CounterState](sys), checker.Properties[toys.CounterState]{}, checker.Options{Storage: storage, Workers: workers, BitstateBits: 1 << 24})
			if res.Stats.States != want {
				t.Fatalf("%v/%d: %d states, want %d", storage, workers, res.Stats.States, want)
			}
		}
	}
}

// TestFingerprint64: 64-bit hash compaction stores every state of the
// benchmark toy's little sibling in at most 16 table bytes per state and
// reports the n²/2^65 collision bound.
func TestFingerprint64(t *testing.T) {
	sys := toys.Counters{N: 4, Mod: 16}
	want := toys.CountersCount(4, 16)
	for _, workers := range []int{1, 2} {
		res := mustCheck(t, checker.System[toys.CounterState](sys), checker.Properties[toys.CounterState]{},
			checker.Options{Storage: checker.HashCompaction, Fingerprint64: true, Workers: workers})
		st := res.Stats
		if st.States != want {
			t.Fatalf("%d workers: %d states, want %d", workers, st.States, want)
		}
		if b := float64(st.VisitedBytes) / float64(st.States); b > 17.1 {
			t.Fatalf("%d workers: %.1f visited bytes per state", workers, b)
		}
		n := float64(want)
		if p := st.OmissionProbability; p < 0.99*n*n/math.Ldexp(1, 65) || p > 1.01*n*n/math.Ldexp(1, 65) {
			t.Fatalf("%d workers: collision probability %g", workers, p)
		}
	}
}

// TestPartialOrderReduction: independent counters reduce to far fewer
// states while the terminal state (the only deadlock) is still found, with
// the same shortest trace.
func TestPartialOrderReduction(t *testing.T) {
	sys := toys.Independent{N: 4, K: 3}
	props := checker.Properties[toys.CounterState]{
		EndConditions: []checker.EndCondition[toys.CounterState]{{Name: "never done", Holds: func(toys.CounterState) bool { return false }}},
	}
	full := mustCheck(t, checker.System[toys.CounterState](sys), props, checker.Options{NoPOR: true, CollectAll: true})
	if full.Stats.States != 256 {
		t.Fatalf("full: %d states, want 4^4", full.Stats.States)
	}
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		for _, workers := range []int{1, 2, 4} {
			red := mustCheck(t, checker.System[toys.CounterState](sys), props, checker.Options{Strategy: strategy, Workers: workers, CollectAll: true})
			if red.Stats.States >= full.Stats.States/4 {
				t.Fatalf("%v/%d: POR stored %d states of %d", strategy, workers, red.Stats.States, full.Stats.States)
			}
			p := red.Properties[0]
			if p.Verdict != checker.Violated || len(p.Trace.Steps) != 12 {
				t.Fatalf("%v/%d: %v", strategy, workers, p)
			}
		}
	}
}
