package checker_test

import (
	"context"
	"encoding/binary"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/checker/internal/toys"
)

type counterProps = checker.Properties[toys.CounterState]

func always(toys.CounterState) bool { return true }

var holdsEverywhere = counterProps{
	Invariants: []checker.Invariant[toys.CounterState]{{Name: "true", Holds: always}},
}

func counters(n, mod int) checker.System[toys.CounterState] { return toys.Counters{N: n, Mod: mod} }

func expectUnknown(t *testing.T, res checker.Result[toys.CounterState], reason checker.Reason) {
	t.Helper()
	for _, p := range res.Properties {
		if p.Verdict != checker.Unknown || p.Reason != reason {
			t.Fatalf("%v, want unknown (%v)", p, reason)
		}
	}
	if res.Complete {
		t.Fatal("bounded run reported complete")
	}
}

func TestStateBound(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		res := mustCheck(t, counters(4, 10), holdsEverywhere, checker.Options{Workers: workers, MaxStates: 500})
		expectUnknown(t, res, checker.ReasonStateBound)
		if res.Stats.States < 500 || res.Stats.States > int64(500+workers-1) {
			t.Fatalf("%d workers: %d states stored with MaxStates 500", workers, res.Stats.States)
		}
	}
	// A bound the state space fits in is not hit.
	res := mustCheck(t, counters(2, 10), holdsEverywhere, checker.Options{MaxStates: 100})
	if res.Properties[0].Verdict != checker.Holds {
		t.Fatalf("%v", res.Properties[0])
	}
}

func TestDepthBound(t *testing.T) {
	// The diameter of 3 counters mod 5 is 3*4 = 12.
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		res := mustCheck(t, counters(3, 5), holdsEverywhere, checker.Options{Strategy: strategy, MaxDepth: 11})
		expectUnknown(t, res, checker.ReasonDepthBound)
		if res.Stats.MaxDepth > 11 {
			t.Fatalf("%v: max depth %d beyond the bound", strategy, res.Stats.MaxDepth)
		}
	}
	res := mustCheck(t, counters(3, 5), holdsEverywhere, checker.Options{MaxDepth: 12})
	if res.Properties[0].Verdict != checker.Holds || res.Stats.States != 125 {
		t.Fatalf("bound = diameter: %v, %d states", res.Properties[0], res.Stats.States)
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := checker.Check(ctx, counters(4, 10), holdsEverywhere, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	expectUnknown(t, res, checker.ReasonCancelled)
}

// cancellingCounters cancels the run from inside Next after some calls, so
// cancellation hits workers in the middle of a level.
type cancellingCounters struct {
	toys.Counters
	calls  *atomic.Int64
	after  int64
	cancel context.CancelFunc
}

func (c cancellingCounters) Next(s toys.CounterState, emit func(checker.Step, toys.CounterState)) {
	if c.calls.Add(1) == c.after {
		c.cancel()
	}
	c.Counters.Next(s, emit)
}

func TestCancelDuringRun(t *testing.T) {
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		for _, workers := range []int{1, 2} {
			ctx, cancel := context.WithCancel(context.Background())
			sys := cancellingCounters{Counters: toys.Counters{N: 8, Mod: 8}, calls: new(atomic.Int64), after: 5000, cancel: cancel}
			res, err := checker.Check(ctx, checker.System[toys.CounterState](sys), holdsEverywhere, checker.Options{Strategy: strategy, Workers: workers})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			expectUnknown(t, res, checker.ReasonCancelled)
			if res.Stats.States >= toys.CountersCount(8, 8) {
				t.Fatalf("cancelled run explored everything")
			}
		}
	}
}

func TestTimeout(t *testing.T) {
	// 8^8 = 16.7M states cannot be explored within a millisecond.
	res := mustCheck(t, counters(8, 8), holdsEverywhere, checker.Options{Timeout: 1e6, Workers: 2})
	expectUnknown(t, res, checker.ReasonTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), 1e6)
	defer cancel()
	res, err := checker.Check(ctx, counters(8, 8), holdsEverywhere, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	expectUnknown(t, res, checker.ReasonTimeout)
}

func TestMemoryBudgetSwitchesToBitstate(t *testing.T) {
	want := toys.CountersCount(4, 20) // 160,000 states, > 1 MiB exact
	for _, storage := range []checker.Storage{checker.Exact, checker.HashCompaction} {
		for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
			res := mustCheck(t, counters(4, 20), holdsEverywhere, checker.Options{Storage: storage, Strategy: strategy, Workers: 2, MaxMemory: 4 << 20})
			if !res.Stats.SwitchedToBitstate {
				t.Fatalf("%v/%v: no switch (%d bytes)", storage, strategy, res.Stats.VisitedBytes)
			}
			expectUnknown(t, res, checker.ReasonMemory)
			// DFS's stack of encodings can exhaust the budget again after
			// the switch; then the run stops, still with ReasonMemory.
			if strategy == checker.BFS && (res.Stats.States < want*99/100 || res.Stats.States > want) {
				t.Fatalf("%v/%v: %d states after switch, want about %d", storage, strategy, res.Stats.States, want)
			}
		}
	}
	// The switch point is a function of the model, the budget and the
	// worker count (a parallel run's budget also pays for ranking the
	// levels): the same level and the same stored states for any
	// scheduling.
	for _, storage := range []checker.Storage{checker.Exact, checker.HashCompaction} {
		for _, workers := range []int{1, 2, 3} {
			var depth int
			var states int64
			for run := range 3 {
				st := mustCheck(t, counters(4, 20), holdsEverywhere, checker.Options{Storage: storage, Workers: workers, MaxMemory: 4 << 20}).Stats
				if run == 0 {
					depth, states = st.SwitchDepth, st.SwitchStates
				}
				if !st.SwitchedToBitstate || st.SwitchDepth != depth || st.SwitchStates != states {
					t.Fatalf("%v, %d workers: switched %v at depth %d with %d states; first run: depth %d, %d states",
						storage, workers, st.SwitchedToBitstate, st.SwitchDepth, st.SwitchStates, depth, states)
				}
			}
		}
	}
	// A violation found after the switch is still reported, with a trace
	// replayed from parent records.
	props := counterProps{Invariants: []checker.Invariant[toys.CounterState]{{
		Name:  "not all 19",
		Holds: func(s toys.CounterState) bool { return s.C != [8]uint8{19, 19, 19, 19} },
	}}}
	res := mustCheck(t, counters(4, 20), props, checker.Options{Workers: 2, MaxMemory: 4 << 20})
	if p := res.Properties[0]; !res.Stats.SwitchedToBitstate || p.Verdict != checker.Violated || len(p.Trace.Steps) != 4*19 {
		t.Fatalf("%v (switched %v)", p, res.Stats.SwitchedToBitstate)
	}
}

func TestLossyStorageNeverHolds(t *testing.T) {
	res := mustCheck(t, counters(3, 10), holdsEverywhere, checker.Options{Storage: checker.HashCompaction})
	expectUnknown(t, res, checker.ReasonHashCompaction)
	if p := res.Stats.OmissionProbability; p <= 0 || p > 1e-20 {
		t.Fatalf("hash compaction collision probability %g", p)
	}
	res = mustCheck(t, counters(3, 10), holdsEverywhere, checker.Options{Storage: checker.Bitstate, BitstateBits: 1 << 20})
	expectUnknown(t, res, checker.ReasonBitstate)
	if res.Stats.OmissionProbability <= 0 {
		t.Fatalf("bitstate omission estimate %g", res.Stats.OmissionProbability)
	}
}

// TestBitstateCoverage: about a million states in an ample bit array
// (2^27 bits, 3 bits per state) must be covered to at least 99.9 %.
func TestBitstateCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("explores 10^6 states")
	}
	sys := toys.Counters{N: 4, Mod: 32}
	want := toys.CountersCount(4, 32)
	res := mustCheck(t, checker.System[toys.CounterState](sys), holdsEverywhere, checker.Options{Storage: checker.Bitstate, BitstateBits: 1 << 27, Workers: 2})
	coverage := float64(res.Stats.States) / float64(want)
	t.Logf("bitstate: %d of %d states (%.4f%%), measured FP rate %.2g, expected omissions %.1f",
		res.Stats.States, want, 100*coverage, res.Stats.OmissionProbability, res.Stats.ExpectedOmissions)
	if coverage < 0.999 || res.Stats.States > want {
		t.Fatalf("coverage %.5f", coverage)
	}
	if res.Stats.ExpectedOmissions <= 0 || res.Stats.OmissionProbability <= 0 {
		t.Fatalf("no omission estimate: %+v", res.Stats)
	}
	expectUnknown(t, res, checker.ReasonBitstate)
}

func TestProgress(t *testing.T) {
	calls := 0 // not atomic: the race detector checks there is one caller
	var last checker.Progress
	res := mustCheck(t, counters(4, 16), holdsEverywhere, checker.Options{Workers: 2, ProgressEvery: 1e5, OnProgress: func(p checker.Progress) {
		calls++
		last = p
	}})
	if calls == 0 || last.States != res.Stats.States {
		t.Fatalf("%d progress calls, last %+v", calls, last)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []checker.Options{{Workers: -1}, {Storage: 9}, {Strategy: 7}, {MaxMemory: -5}} {
		if _, err := checker.Check(context.Background(), counters(2, 2), holdsEverywhere, o); !errors.Is(err, checker.ErrBadOptions) {
			t.Fatalf("%+v: err %v", o, err)
		}
	}
	bad := counterProps{Invariants: []checker.Invariant[toys.CounterState]{{Name: "nil"}}}
	if _, err := checker.Check(context.Background(), counters(2, 2), bad, checker.Options{}); !errors.Is(err, checker.ErrBadOptions) {
		t.Fatalf("nil Holds: err %v", err)
	}
}

// driftingCounters changes its transition relation after a number of
// calls: the trace found during the search no longer replays.
type driftingCounters struct {
	toys.Counters
	calls    *atomic.Int64
	explored int64
}

func (d driftingCounters) Next(s toys.CounterState, emit func(checker.Step, toys.CounterState)) {
	if d.calls.Add(1) > d.explored {
		emit(checker.Step{}, s) // a self-loop instead of the real successors
		return
	}
	d.Counters.Next(s, emit)
}

func TestNondeterministicSystemIsAnError(t *testing.T) {
	// A sequential BFS expands levels 0..19 (1+2+...+20 = 210 states)
	// before it stops at the first violation (depth 20); replay starts
	// with call 211.
	sys := driftingCounters{Counters: toys.Counters{N: 2, Mod: 100}, calls: new(atomic.Int64), explored: 210}
	props := counterProps{Invariants: []checker.Invariant[toys.CounterState]{{
		Name: "small", Holds: func(s toys.CounterState) bool { return s.C[0]+s.C[1] < 20 },
	}}}
	_, err := checker.Check(context.Background(), checker.System[toys.CounterState](sys), props, checker.Options{Workers: 1})
	if !errors.Is(err, checker.ErrInvalidTrace) {
		t.Fatalf("err %v, want ErrInvalidTrace", err)
	}
}

// star is a system whose single initial state has N successors, each with
// one more: the first level overflows any table sized by estimate, so the
// workers must pause and resize in the middle of a level.
type star struct{ N int }

func (s star) Initial(emit func(int)) { emit(0) }
func (s star) Next(x int, emit func(checker.Step, int)) {
	switch {
	case x == 0:
		for i := 1; i <= s.N; i++ {
			emit(checker.Step{Choice: uint32(i)}, i)
		}
	case x <= s.N:
		emit(checker.Step{}, x+s.N)
		emit(checker.Step{}, 1+x%s.N)
	}
}
func (s star) AppendEncoding(dst []byte, x int) []byte {
	return binary.LittleEndian.AppendUint64(dst, uint64(x))
}
func (s star) Decode(enc []byte) (int, error) { return int(binary.LittleEndian.Uint64(enc)), nil }

func TestTableGrowsWithinLevel(t *testing.T) {
	sys := star{N: 20000}
	props := checker.Properties[int]{Invariants: []checker.Invariant[int]{{Name: "small", Holds: func(x int) bool { return x != 2*sys.N }}}}
	for _, storage := range []checker.Storage{checker.Exact, checker.HashCompaction} {
		for _, workers := range []int{1, 2, 4, 7} {
			for _, hint := range []int64{0, 1 << 16} {
				res, err := checker.Check(context.Background(), checker.System[int](sys), props,
					checker.Options{Storage: storage, Workers: workers, CollectAll: true, ExpectedStates: hint})
				if err != nil {
					t.Fatal(err)
				}
				if res.Stats.States != int64(2*sys.N+1) {
					t.Fatalf("%v/%d workers: %d states, want %d", storage, workers, res.Stats.States, 2*sys.N+1)
				}
				if p := res.Properties[0]; p.Verdict != checker.Violated || len(p.Trace.Steps) != 2 {
					t.Fatalf("%v/%d workers: %v", storage, workers, p)
				}
			}
		}
	}
}
