package checker_test

import (
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// withinDepth is how many states of n counters modulo mod lie within d
// steps of the start: a state's depth is the sum of its counters.
func withinDepth(n, mod, d int) int64 {
	ways := make([]int64, d+1) // ways[s]: valuations summing to s
	ways[0] = 1
	for range n {
		next := make([]int64, d+1)
		for s, w := range ways {
			for c := 0; c < mod && s+c <= d; c++ {
				next[s+c] += w
			}
		}
		ways = next
	}
	var total int64
	for _, w := range ways {
		total += w
	}
	return total
}

// TestExpandedLevels: a breadth-first run reports how many levels it
// expanded completely, whatever stopped it, and never more than it did:
// every state within ExpandedLevels-1 steps is among the stored ones, the
// levels a state bound or a depth bound cut are not counted, a complete
// run counts every level, and a depth-first run none.
func TestExpandedLevels(t *testing.T) {
	const n, mod = 4, 10 // 10^4 states, depths 0..36
	for _, workers := range []int{1, 2, 4} {
		for _, bound := range []int64{1, 2, 5, 11, 15, 35, 36, 500, 4000, 9999} {
			res := mustCheck(t, counters(n, mod), holdsEverywhere, checker.Options{Workers: workers, MaxStates: bound})
			l := res.Stats.ExpandedLevels
			if l > 0 && withinDepth(n, mod, l) > res.Stats.States {
				// Every state within l steps is stored once level l-1 is
				// expanded.
				t.Errorf("%d workers, MaxStates %d: %d levels expanded, but %d states lie within %d steps and %d are stored",
					workers, bound, l, withinDepth(n, mod, l), l, res.Stats.States)
			}
			// The level the bound cut is not counted, and every earlier
			// one is: the stored states reach past level l, not past l+1.
			if res.Stats.States < withinDepth(n, mod, l+1) && withinDepth(n, mod, l+1) <= bound {
				t.Errorf("%d workers, MaxStates %d: %d levels expanded, yet %d states stored", workers, bound, l, res.Stats.States)
			}
			if l >= 1 && res.Stats.States >= withinDepth(n, mod, l+1)+int64(workers) {
				t.Errorf("%d workers, MaxStates %d: only %d levels counted, with %d states stored (%d within %d steps)",
					workers, bound, l, res.Stats.States, withinDepth(n, mod, l+1), l+1)
			}
		}
	}
	full := mustCheck(t, counters(n, mod), holdsEverywhere, checker.Options{})
	if full.Stats.ExpandedLevels != full.Stats.MaxDepth+1 || full.Stats.MaxDepth != n*(mod-1) {
		t.Errorf("complete run: %d levels expanded, depth %d; want %d and %d", full.Stats.ExpandedLevels, full.Stats.MaxDepth, n*(mod-1)+1, n*(mod-1))
	}
	bounded := mustCheck(t, counters(n, mod), holdsEverywhere, checker.Options{MaxDepth: 7})
	if bounded.Stats.ExpandedLevels != 7 {
		t.Errorf("MaxDepth 7: %d levels expanded, want 7 (the states of depth 7 are only looked up from)", bounded.Stats.ExpandedLevels)
	}
	dfs := mustCheck(t, counters(n, mod), holdsEverywhere, checker.Options{Strategy: checker.DFS, MaxStates: 500})
	if dfs.Stats.ExpandedLevels != 0 {
		t.Errorf("depth-first run: %d levels expanded, want 0", dfs.Stats.ExpandedLevels)
	}
}
