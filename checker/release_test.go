package checker_test

import (
	"sync/atomic"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/checker/internal/toys"
)

// releasing wraps a system and counts Release calls.
type releasing struct {
	checker.System[toys.CounterState]
	released *atomic.Int64
}

func (r releasing) Release(toys.CounterState) { r.released.Add(1) }

// TestReleaseOncePerExpansion: every state the engine decodes to expand is
// released exactly once, in both strategies and with several workers.
func TestReleaseOncePerExpansion(t *testing.T) {
	for _, opts := range []checker.Options{{Workers: 1}, {Workers: 3}, {Strategy: checker.DFS}} {
		n := new(atomic.Int64)
		res := mustCheck(t, releasing{counters(3, 5), n}, holdsEverywhere, opts)
		if !res.Complete || n.Load() != res.Stats.States {
			t.Fatalf("%+v: %d releases for %d states", opts, n.Load(), res.Stats.States)
		}
	}
}
