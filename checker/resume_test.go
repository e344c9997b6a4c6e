package checker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// resultText renders what a result says: verdicts, counterexamples step
// by step with the states they reach, and the counters a single run and a
// resumed one must share.
func resultText[S any](sys System[S], res Result[S]) string {
	var b strings.Builder
	st := res.Stats
	fmt.Fprintf(&b, "complete %v states %d matched %d transitions %d depth %d ample %d proviso %d\n",
		res.Complete, st.States, st.Matched, st.Transitions, st.MaxDepth, st.AmpleExpansions, st.ProvisoExpansions)
	for _, p := range res.Properties {
		fmt.Fprintf(&b, "%s %v %v\n", p.Name, p.Verdict, p.Reason)
		if p.Trace == nil {
			continue
		}
		fmt.Fprintf(&b, "  init %x\n", sys.AppendEncoding(nil, p.Trace.Initial))
		for _, s := range p.Trace.Steps {
			fmt.Fprintf(&b, "  %d/%d -> %x\n", s.Step.Actor, s.Step.Choice, sys.AppendEncoding(nil, s.State))
		}
	}
	return b.String()
}

// resumeChain runs opts in pieces: the first run stops at first states,
// each Resume at twice as many, until one finishes. It returns the last
// result and how many times the run was resumed.
func resumeChain[S any](tb interface{ Fatalf(string, ...any) }, sys System[S], props Properties[S], opts Options, first int64) (Result[S], int) {
	o := opts
	o.Resumable, o.MaxStates = true, first
	res, err := Check(context.Background(), sys, props, o)
	resumes := 0
	for err == nil && res.Continuation != nil {
		c := res.Continuation
		o.MaxStates *= 2
		if resumes >= 3 {
			o = opts
		}
		res, err = Resume(context.Background(), c, o)
		resumes++
	}
	if err != nil {
		tb.Fatalf("resumed %d times: %v", resumes, err)
	}
	return res, resumes
}

// TestResumeGivesTheSingleRunsResult: a breadth-first run stopped at a
// state bound and resumed, as many times as it takes, ends with what one
// run gives: the same states, transitions, verdicts and counterexamples,
// with and without symmetry, exploring representatives or not, with one
// worker or several (ranked levels, ranked in parallel or not).
func TestResumeGivesTheSingleRunsResult(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t, false)
		props := Properties[pair]{
			Invariants:    []Invariant[pair]{{Name: "no bad", Holds: func(s pair) bool { return !g.bad[s.a] && !g.bad[s.b] }}},
			EndConditions: []EndCondition[pair]{{Name: "not stuck", Holds: func(s pair) bool { return !g.stuck[s.a] || !g.stuck[s.b] }}},
		}
		opts := Options{
			Workers:    rapid.IntRange(1, 3).Draw(t, "workers"),
			CollectAll: rapid.Bool().Draw(t, "collect all"),
			NoSymmetry: rapid.Bool().Draw(t, "no symmetry"),
		}
		if rapid.Bool().Draw(t, "rank in parallel") {
			opts.rankParallelMin = 1
		}
		sys := System[pair](tokenPair{g})
		if rapid.Bool().Draw(t, "representatives") {
			sys = reprPair{tokenPair{g}}
		}
		one, err := Check(context.Background(), sys, props, opts)
		if err != nil {
			t.Fatal(err)
		}
		first := rapid.Int64Range(1, one.Stats.States+1).Draw(t, "first bound")
		resumed, n := resumeChain(t, sys, props, opts, first)
		if got, want := resultText(sys, resumed), resultText(sys, one); got != want {
			t.Fatalf("resumed %d times from %d states:\n%s\none run:\n%s", n, first, got, want)
		}
	})
}

// slowGrid is a grid of three counters whose expansions sleep at the
// states of sum slowFrom up to slowUntil (zero: no end), so that a
// timeout stops a run.
type slowGrid struct {
	k                   int
	sleep               time.Duration
	slowFrom, slowUntil int
}

func (g slowGrid) Initial(emit func([3]uint8)) { emit([3]uint8{}) }

func (g slowGrid) Next(s [3]uint8, emit func(Step, [3]uint8)) {
	if sum := int(s[0]) + int(s[1]) + int(s[2]); sum >= g.slowFrom && (g.slowUntil == 0 || sum < g.slowUntil) {
		time.Sleep(g.sleep)
	}
	for i := range s {
		if int(s[i]) < g.k {
			t := s
			t[i]++
			emit(Step{Actor: uint16(i)}, t)
		}
	}
}

func (g slowGrid) AppendEncoding(dst []byte, s [3]uint8) []byte { return append(dst, s[:]...) }

func (g slowGrid) Decode(enc []byte) (s [3]uint8, err error) {
	if len(enc) != 3 {
		return s, errBadGraphState
	}
	copy(s[:], enc)
	return s, nil
}

// TestResumeAfterTimeout: a run its timeout stopped goes on where it
// stopped and ends as one run does. At an even pace the run stops before
// the level it would not finish in time; expansions that turn slow cut a
// level short, which the resumed run explores again. Where the run stops
// depends on the clock: a run stalled by the machine may stop elsewhere,
// so each case has three tries to stop where it should, and the slow
// level is slow enough (40 ms a state against a 300 ms timeout) that the
// levels before it, however stalled under the race detector, end long
// before the pace they set predicts the timeout.
func TestResumeAfterTimeout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		g        slowGrid
		timeout  time.Duration
		midLevel bool
	}{
		{"even pace", slowGrid{k: 7, sleep: time.Millisecond}, 50 * time.Millisecond, false},
		{"turning slow", slowGrid{k: 7, sleep: 40 * time.Millisecond, slowFrom: 6, slowUntil: 7}, 300 * time.Millisecond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			props := Properties[[3]uint8]{Invariants: []Invariant[[3]uint8]{{Name: "not at the top", Holds: func(s [3]uint8) bool { return s != [3]uint8{7, 7, 7} }}}}
			for _, workers := range []int{1, 2} {
				opts := Options{Workers: workers}
				one, err := Check(context.Background(), tc.g, props, opts)
				if err != nil {
					t.Fatal(err)
				}
				want := resultText(System[[3]uint8](tc.g), one)
				stoppedRight := false
				for try := 0; try < 3 && !stoppedRight; try++ {
					o := opts
					o.Resumable, o.Timeout = true, tc.timeout
					res, err := Check(context.Background(), tc.g, props, o)
					if err != nil {
						t.Fatal(err)
					}
					c := res.Continuation
					if c == nil {
						t.Fatalf("workers=%d: stopped by its timeout (%v, %d states), no continuation", workers, res.Properties[0].Reason, res.Stats.States)
					}
					stoppedRight = c.at.started == tc.midLevel
					t.Logf("workers=%d: stopped at depth %d, in the middle of a level %v, keeping %d of %d states", workers, c.at.depth, c.at.started, c.States(), res.Stats.States)
					res, err = Resume(context.Background(), c, opts)
					if err != nil {
						t.Fatal(err)
					}
					if got := resultText(System[[3]uint8](tc.g), res); got != want {
						t.Fatalf("workers=%d: resumed:\n%s\none run:\n%s", workers, got, want)
					}
					if res.Continuation != nil {
						t.Errorf("workers=%d: a finished run has a continuation", workers)
					}
				}
				if !stoppedRight {
					t.Errorf("workers=%d: never stopped in the middle of a level %v in three tries", workers, tc.midLevel)
				}
			}
		})
	}
}

// TestNoContinuation: only a breadth-first run with exact storage and no
// cycle property, stopped by its state bound or timeout, can go on.
func TestNoContinuation(t *testing.T) {
	g := slowGrid{k: 5}
	inv := []Invariant[[3]uint8]{{Name: "true", Holds: func([3]uint8) bool { return true }}}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		props Properties[[3]uint8]
		opts  Options
	}{
		{"not asked", context.Background(), Properties[[3]uint8]{Invariants: inv}, Options{MaxStates: 10}},
		{"finished", context.Background(), Properties[[3]uint8]{Invariants: inv}, Options{Resumable: true}},
		{"depth-first", context.Background(), Properties[[3]uint8]{Invariants: inv}, Options{Resumable: true, Strategy: DFS, MaxStates: 10}},
		{"hash compaction", context.Background(), Properties[[3]uint8]{Invariants: inv}, Options{Resumable: true, Storage: HashCompaction, MaxStates: 10}},
		{"cycle property", context.Background(), Properties[[3]uint8]{Invariants: inv, Cycles: []Cycle{{Name: "loop"}}}, Options{Resumable: true, MaxStates: 10}},
		{"cancelled", cancelled, Properties[[3]uint8]{Invariants: inv}, Options{Resumable: true}},
		{"violated", context.Background(), Properties[[3]uint8]{Invariants: []Invariant[[3]uint8]{{Name: "false", Holds: func([3]uint8) bool { return false }}}}, Options{Resumable: true, MaxStates: 10}},
	} {
		res, err := Check(tc.ctx, g, tc.props, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Continuation != nil {
			res.Continuation.Release()
			t.Errorf("%s: a continuation", tc.name)
		}
	}
}

// TestResumeRefusesAnotherExploration: Resume changes the bounds only,
// and a continuation goes on once.
func TestResumeRefusesAnotherExploration(t *testing.T) {
	g := slowGrid{k: 5}
	props := Properties[[3]uint8]{Invariants: []Invariant[[3]uint8]{{Name: "true", Holds: func([3]uint8) bool { return true }}}}
	start := func() *Continuation[[3]uint8] {
		res, err := Check(context.Background(), g, props, Options{Workers: 1, Resumable: true, MaxStates: 10})
		if err != nil || res.Continuation == nil {
			t.Fatalf("no continuation: %v", err)
		}
		return res.Continuation
	}
	for _, o := range []Options{{Workers: 2}, {Workers: 1, CollectAll: true}, {Workers: 1, MaxDepth: 3}, {Workers: 1, NoSymmetry: true}} {
		if _, err := Resume(context.Background(), start(), o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%+v: %v, want ErrBadOptions", o, err)
		}
	}
	c := start()
	if _, err := Resume(context.Background(), c, Options{Workers: 1, MaxStates: 20, Timeout: time.Minute}); err != nil {
		t.Fatalf("raised bounds: %v", err)
	}
	if _, err := Resume(context.Background(), c, Options{Workers: 1}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("resumed twice: %v, want ErrBadOptions", err)
	}
	c = start()
	c.Release()
	c.Release()
	if _, err := Resume(context.Background(), c, Options{Workers: 1}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("resumed after Release: %v, want ErrBadOptions", err)
	}
}
