package checker_test

import (
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/checker/internal/toys"
)

// A seeded depth-first search reaches the states in another order, and
// so finds other violations first, but explores the same state space:
// every seed stores every state and settles every property as the
// breadth-first search does, and a seed gives the same run each time.
func TestSeedShufflesDepthFirstOrder(t *testing.T) {
	g := grid{k: 6, top: 12}
	// A property that holds keeps the collecting runs going to the end.
	props := g.props()
	props.Invariants = append(props.Invariants, checker.Invariant[gridState]{Name: "in range", Holds: func(s gridState) bool { return gridSum(s) <= 12 }})
	all := mustCheck(t, checker.System[gridState](g), props, checker.Options{CollectAll: true})
	first := map[string]bool{}
	for seed := range uint64(16) {
		opts := checker.Options{Strategy: checker.DFS, Seed: seed}
		res := mustCheck(t, checker.System[gridState](g), g.props(), opts)
		text := traceText(checker.System[gridState](g), res)
		if again := traceText(checker.System[gridState](g), mustCheck(t, checker.System[gridState](g), g.props(), opts)); again != text {
			t.Fatalf("seed %d: two runs differ:\n%s\n%s", seed, text, again)
		}
		first[text] = true

		opts.CollectAll = true
		full := mustCheck(t, checker.System[gridState](g), props, opts)
		if !full.Complete || full.Stats.States != all.Stats.States || full.Stats.Transitions != all.Stats.Transitions {
			t.Fatalf("seed %d: complete %v, %d states %d transitions; BFS: %d states %d transitions",
				seed, full.Complete, full.Stats.States, full.Stats.Transitions, all.Stats.States, all.Stats.Transitions)
		}
		for i, p := range full.Properties {
			if p.Verdict != all.Properties[i].Verdict {
				t.Fatalf("seed %d: %s, BFS says %s", seed, p, all.Properties[i])
			}
		}
	}
	if len(first) < 4 {
		t.Fatalf("16 seeds found %d different first violations, want several", len(first))
	}
}

// With partial-order reduction the seed shuffles the ample subset's
// successors: the reduced state space is the same for every seed.
func TestSeedKeepsReducedStateSpace(t *testing.T) {
	sys := toys.Independent{N: 5, K: 4}
	props := checker.Properties[toys.CounterState]{}
	base := mustCheck(t, checker.System[toys.CounterState](sys), props, checker.Options{Strategy: checker.DFS})
	if base.Stats.AmpleExpansions == 0 {
		t.Fatal("no ample subset taken: the test compares nothing")
	}
	for seed := uint64(1); seed <= 8; seed++ {
		res := mustCheck(t, checker.System[toys.CounterState](sys), props, checker.Options{Strategy: checker.DFS, Seed: seed})
		if !res.Complete || res.Verdict() != checker.Holds || res.Stats.States != base.Stats.States {
			t.Fatalf("seed %d: complete %v, %s, %d states; unseeded: %d", seed, res.Complete, res.Verdict(), res.Stats.States, base.Stats.States)
		}
	}
}
