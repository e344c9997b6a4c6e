package checker_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/checker/internal/toys"
)

// wide is a system of tiny states (4-byte encodings) for the engine's
// bounds: Inits initial states 0..Inits-1; state 0 has Fan successors,
// the states wideBase + i%Distinct, which have none. Fan can be far
// beyond what one expansion used to stage comfortably.
type wide struct {
	Inits, Fan, Distinct int
	// At the PauseAt-th initial state (Initial) or successor (Next of
	// state 0), Pause is called: it lets a deadline pass at a known point.
	PauseAt     int
	PauseIn     string // "initial" or "next"
	Pause       func()
	LeafMatters bool // leaves violate the "no leaf" invariant
}

const wideBase = 1 << 30

func (w wide) Initial(emit func(uint32)) {
	for i := range w.Inits {
		if w.PauseIn == "initial" && i == w.PauseAt && w.Pause != nil {
			w.Pause()
		}
		emit(uint32(i))
	}
}

func (w wide) Next(x uint32, emit func(checker.Step, uint32)) {
	if x != 0 {
		return
	}
	for i := range w.Fan {
		if w.PauseIn == "next" && i == w.PauseAt && w.Pause != nil {
			w.Pause()
		}
		emit(checker.Step{Choice: uint32(i)}, wideBase+uint32(i%w.Distinct))
	}
}

func (w wide) AppendEncoding(dst []byte, x uint32) []byte {
	return binary.LittleEndian.AppendUint32(dst, x)
}

func (w wide) Decode(enc []byte) (uint32, error) {
	if len(enc) != 4 {
		return 0, fmt.Errorf("wide: %d bytes", len(enc))
	}
	return binary.LittleEndian.Uint32(enc), nil
}

var wideTrue = checker.Properties[uint32]{Invariants: []checker.Invariant[uint32]{{Name: "true", Holds: func(uint32) bool { return true }}}}

func checkWide(t *testing.T, sys wide, props checker.Properties[uint32], opts checker.Options) checker.Result[uint32] {
	t.Helper()
	res, err := checker.Check(context.Background(), checker.System[uint32](sys), props, opts)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return res
}

// sleepPast returns a Pause that sleeps until d after now: called after
// the run started, it makes a Timeout of d expire at a known point of the
// run, so that assertions need no timing.
func sleepPast(d time.Duration) func() {
	return func() { time.Sleep(2 * d) }
}

// TestTransitionsExcludeInitialStates: storing an initial state is not a
// transition.
func TestTransitionsExcludeInitialStates(t *testing.T) {
	for _, workers := range []int{1, 2} {
		res := checkWide(t, wide{Inits: 3, Fan: 10, Distinct: 4}, wideTrue, checker.Options{Workers: workers})
		if st := res.Stats; st.States != 3+4 || st.Transitions != 10 || st.Matched != 6 {
			t.Fatalf("%d workers: %d states, %d transitions, %d matched; want 7, 10, 6", workers, st.States, st.Transitions, st.Matched)
		}
	}
}

// TestStatsWhenStoppingAmongInitialStates: a run that stops while the
// initial states are being stored reports what it stored.
func TestStatsWhenStoppingAmongInitialStates(t *testing.T) {
	// DFS stops at the first violation, here an initial state.
	props := checker.Properties[uint32]{Invariants: []checker.Invariant[uint32]{{Name: "not 1", Holds: func(x uint32) bool { return x != 1 }}}}
	res := checkWide(t, wide{Inits: 5, Fan: 3, Distinct: 3}, props, checker.Options{Strategy: checker.DFS})
	if p := res.Properties[0]; p.Verdict != checker.Violated || len(p.Trace.Steps) != 0 {
		t.Fatalf("%v", p)
	}
	if st := res.Stats; st.States < 2 || st.States > 5 || st.Transitions != 0 {
		t.Fatalf("DFS violation among initial states: %d states, %d transitions", st.States, st.Transitions)
	}
	// MaxStates below the number of initial states.
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		res = checkWide(t, wide{Inits: 10, Fan: 3, Distinct: 3}, wideTrue, checker.Options{Strategy: strategy, MaxStates: 4, Workers: 1})
		expectUnknownAll(t, res, checker.ReasonStateBound)
		if st := res.Stats; st.States != 4 || st.Transitions != 0 {
			t.Fatalf("%v, MaxStates 4 of 10 initial states: %d states, %d transitions", strategy, st.States, st.Transitions)
		}
	}
	// A timeout that expires while Initial runs: at the latest at the
	// 2000th initial state.
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		timeout := 300 * time.Millisecond
		sys := wide{Inits: 1 << 20, Fan: 3, Distinct: 3, PauseIn: "initial", PauseAt: 2000, Pause: sleepPast(timeout)}
		res = checkWide(t, sys, wideTrue, checker.Options{Strategy: strategy, Timeout: timeout, Workers: 1})
		expectUnknownAll(t, res, checker.ReasonTimeout)
		if st := res.Stats; st.States < 1 || st.States >= 1<<20 || st.Transitions != 0 {
			t.Fatalf("%v, timeout during Initial: %d states, %d transitions", strategy, st.States, st.Transitions)
		}
	}
}

// TestTooManyInitialStates: parent records index initial states like
// successors, up to 2^24; beyond, the error says so.
func TestTooManyInitialStates(t *testing.T) {
	if testing.Short() {
		t.Skip("emits 2^24 initial states")
	}
	// A small bit array: nearly every initial state is taken for a stored
	// one, so the run stays cheap until the limit.
	sys := wide{Inits: 1<<24 + 1, Fan: 1, Distinct: 1}
	_, err := checker.Check(context.Background(), checker.System[uint32](sys), wideTrue, checker.Options{Storage: checker.Bitstate, BitstateBits: 1 << 12, Workers: 1})
	if !errors.Is(err, checker.ErrTooManyInitialStates) || !strings.Contains(err.Error(), "initial states") {
		t.Fatalf("err %v, want ErrTooManyInitialStates", err)
	}
}

func expectUnknownAll(t *testing.T, res checker.Result[uint32], reason checker.Reason) {
	t.Helper()
	for _, p := range res.Properties {
		if p.Verdict != checker.Unknown || p.Reason != reason {
			t.Fatalf("%v, want unknown (%v)", p, reason)
		}
	}
	if res.Complete {
		t.Fatal("stopped run reported complete")
	}
}

// TestHugeFanOut: one state with 10^7 successors is explored, with exact
// counts, without staging all of them at once.
func TestHugeFanOut(t *testing.T) {
	if testing.Short() {
		t.Skip("10^7 successors")
	}
	const fan, distinct = 10_000_000, 1 << 16
	sys := wide{Inits: 1, Fan: fan, Distinct: distinct}
	for _, o := range []checker.Options{{Workers: 1}, {Workers: 2, Storage: checker.HashCompaction}} {
		res := checkWide(t, sys, wideTrue, o)
		if st := res.Stats; st.States != 1+distinct || st.Transitions != fan || st.Matched != fan-distinct {
			t.Fatalf("%+v: %d states, %d transitions, %d matched", o, st.States, st.Transitions, st.Matched)
		}
	}
}

// TestHugeFanOutStopsWithinExpansion: a timeout, a state bound and the
// memory budget stop a run inside the expansion of a state with 10^7
// successors, and the statistics say how far it got.
func TestHugeFanOutStopsWithinExpansion(t *testing.T) {
	const fan = 10_000_000
	timeout := 300 * time.Millisecond
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		// The deadline passes at the latest at the 5000th successor.
		sys := wide{Inits: 1, Fan: fan, Distinct: fan, PauseIn: "next", PauseAt: 5000, Pause: sleepPast(timeout)}
		res := checkWide(t, sys, wideTrue, checker.Options{Strategy: strategy, Timeout: timeout, Workers: 1})
		expectUnknownAll(t, res, checker.ReasonTimeout)
		if st := res.Stats; st.Transitions >= fan/2 || st.States != 1+st.Transitions {
			t.Fatalf("%v, timeout: %d states, %d transitions", strategy, st.States, st.Transitions)
		}
		res = checkWide(t, wide{Inits: 1, Fan: fan, Distinct: fan}, wideTrue, checker.Options{Strategy: strategy, MaxStates: 1000, Workers: 1})
		expectUnknownAll(t, res, checker.ReasonStateBound)
		if st := res.Stats; st.States != 1000 || st.Transitions >= fan/2 {
			t.Fatalf("%v, state bound: %d states, %d transitions", strategy, st.States, st.Transitions)
		}
		// 10^7 distinct successors need far more than 16 MiB even as
		// bits plus frontier: the run switches to bitstate, then stops.
		for _, workers := range []int{1, 2} {
			res = checkWide(t, wide{Inits: 1, Fan: fan, Distinct: fan}, wideTrue, checker.Options{Strategy: strategy, MaxMemory: 16 << 20, Workers: workers})
			expectUnknownAll(t, res, checker.ReasonMemory)
			if st := res.Stats; !st.SwitchedToBitstate || st.States >= fan/2 || st.Transitions >= fan/2 {
				t.Fatalf("%v, %d workers, memory: switched %v, %d states, %d transitions", strategy, workers, st.SwitchedToBitstate, st.States, st.Transitions)
			}
		}
	}
}

// TestCycleAnalysisWithinBounds: the cycle analysis after the exploration
// is charged to the run's timeout and context. The final progress report
// comes between the exploration and the analysis: there the deadline is
// made to pass (or the context cancelled), so the exploration is complete
// but the analysis must give up.
func TestCycleAnalysisWithinBounds(t *testing.T) {
	sys := counters(4, 8) // every state lies on a cycle
	props := counterProps{
		Invariants: []checker.Invariant[toys.CounterState]{{Name: "true", Holds: always}},
		Cycles:     []checker.Cycle{{Name: "any"}},
	}
	for _, workers := range []int{1, 2} {
		timeout := 300 * time.Millisecond
		opts := checker.Options{Workers: workers, Timeout: timeout, ProgressEvery: time.Hour, OnProgress: func(checker.Progress) { time.Sleep(2 * timeout) }}
		res := mustCheck(t, sys, props, opts)
		if c := res.Properties[1]; c.Verdict != checker.Unknown || c.Reason != checker.ReasonTimeout {
			t.Fatalf("%d workers, deadline passed before the analysis: %v", workers, c)
		}
		if res.Complete && res.Properties[0].Verdict != checker.Holds {
			t.Fatalf("%d workers: complete exploration, but %v", workers, res.Properties[0])
		}
		ctx, cancel := context.WithCancel(context.Background())
		opts = checker.Options{Workers: workers, ProgressEvery: time.Hour, OnProgress: func(checker.Progress) { cancel() }}
		res, err := checker.Check(ctx, sys, props, opts)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Properties[1]; c.Verdict != checker.Unknown || c.Reason != checker.ReasonCancelled {
			t.Fatalf("%d workers, cancelled before the analysis: %v", workers, c)
		}
		// Without the interruption the cycle is found.
		res = mustCheck(t, sys, props, checker.Options{Workers: workers})
		if c := res.Properties[1]; c.Verdict != checker.Violated {
			t.Fatalf("%d workers: %v", workers, c)
		}
	}
}

// counted wraps wide and counts the successors its Next computes.
type counted struct {
	wide
	computed *int
}

func (c counted) Next(x uint32, emit func(checker.Step, uint32)) {
	c.wide.Next(x, func(st checker.Step, y uint32) {
		*c.computed++
		emit(st, y)
	})
}

// TestStopUnwindsCostlyExpansion: once a run is interrupted (here by the
// timeout, made to pass at the 10th successor), the expansion under way
// computes no further successor, even when there are far fewer of them
// than the engine's polling interval and each one is costly.
func TestStopUnwindsCostlyExpansion(t *testing.T) {
	timeout := 100 * time.Millisecond
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		n := 0
		// The expansion sees the interruption through the flag the timer's
		// goroutine sets: the pause gives that goroutine a second to run,
		// however loaded the machine.
		pause := func() { time.Sleep(timeout + time.Second) }
		sys := counted{wide{Inits: 1, Fan: 3000, Distinct: 3000, PauseIn: "next", PauseAt: 10, Pause: pause}, &n}
		res, err := checker.Check(context.Background(), checker.System[uint32](sys), wideTrue,
			checker.Options{Strategy: strategy, Timeout: timeout, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		expectUnknownAll(t, res, checker.ReasonTimeout)
		if n > 11 {
			t.Errorf("%v: %d successors computed after the timeout at the 10th", strategy, n)
		}
	}
}
