package bench

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestFiftyNodesExhaustive: the non-violation variants of C3 and C8 with
// 50 nodes and 100 replicas hold, explored exhaustively (no state bound,
// no switch to bitstate) with both reductions on. Their times are in
// BenchmarkFiftyNodes.
func TestFiftyNodesExhaustive(t *testing.T) {
	for _, name := range []string{"c3", "c8"} {
		p := reductionShape(t, name, true, 50, 100)
		rep, err := p.Check(context.Background(), checker.Options{CollectAll: true, MaxMemory: 4 << 30})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Complete || rep.Stats.SwitchedToBitstate || rep.Verdict() != checker.Holds {
			t.Errorf("%s: complete=%v bitstate=%v verdict=%v", p.Name, rep.Complete, rep.Stats.SwitchedToBitstate, rep.Verdict())
		}
		t.Logf("%s: %d states, %v", p.Name, rep.Stats.States, rep.Stats.Elapsed)
	}
}
