package checker_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/checker/internal/toys"
)

// grid is four counters climbing from 0 to k, one step at a time, until
// their sum reaches top: a state of sum d is at depth d and has up to four
// predecessors, and every state of sum top is terminal. Many states of one
// depth violate the same property, and most states are reached from
// several parents, so a parallel run has many ways to tie.
type grid struct{ k, top int }

type gridState = [4]uint8

func (g grid) Initial(emit func(gridState)) {
	emit(gridState{})
	emit(gridState{1, 0, 0, 0})
}

func (g grid) Next(s gridState, emit func(checker.Step, gridState)) {
	if gridSum(s) >= g.top {
		return
	}
	for i := range s {
		if int(s[i]) < g.k {
			t := s
			t[i]++
			emit(checker.Step{Actor: uint16(i), Choice: uint32(t[i])}, t)
		}
	}
}

func (g grid) AppendEncoding(dst []byte, s gridState) []byte { return append(dst, s[:]...) }

func (g grid) Decode(enc []byte) (gridState, error) {
	var s gridState
	if len(enc) != len(s) {
		return s, fmt.Errorf("grid: %d bytes", len(enc))
	}
	copy(s[:], enc)
	return s, nil
}

func gridSum(s gridState) int { return int(s[0]) + int(s[1]) + int(s[2]) + int(s[3]) }

func (g grid) props() checker.Properties[gridState] {
	return checker.Properties[gridState]{
		Invariants: []checker.Invariant[gridState]{
			{Name: "sum is not 5", Holds: func(s gridState) bool { return gridSum(s) != 5 }},
			{Name: "no two at 2", Holds: func(s gridState) bool {
				n := 0
				for _, c := range s {
					if c == 2 {
						n++
					}
				}
				return n < 2
			}},
		},
		EndConditions: []checker.EndCondition[gridState]{{Name: "never stuck", Holds: func(gridState) bool { return false }}},
	}
}

// symmetricGrid is grid up to permutations of its counters: the engine
// stores one state per orbit but expands whichever concrete state it
// reached first, so which concrete state that is must not depend on the
// scheduling either.
type symmetricGrid struct{ grid }

// Initial starts from concrete states that are not canonical, so that the
// concrete states of one orbit that different parents reach differ.
func (g symmetricGrid) Initial(emit func(gridState)) {
	emit(gridState{0, 0, 0, 1})
	emit(gridState{0, 2, 0, 1})
}

func (g symmetricGrid) Canonical(s gridState) gridState {
	slices.Sort(s[:])
	return s
}

// cycleCounters is toys.Counters with a mark per counter, for cycle
// properties: every state lies on many cycles.
type cycleCounters struct{ toys.Counters }

func (c cycleCounters) Next(s toys.CounterState, emit func(checker.Step, toys.CounterState)) {
	c.Counters.Next(s, func(st checker.Step, t toys.CounterState) {
		st.Marks = 1 << st.Actor
		emit(st, t)
	})
}

func cycleProps() checker.Properties[toys.CounterState] {
	return checker.Properties[toys.CounterState]{
		Invariants: []checker.Invariant[toys.CounterState]{{Name: "not all at 2", Holds: func(s toys.CounterState) bool {
			return s.C[0] != 2 || s.C[1] != 2 || s.C[2] != 2
		}}},
		Cycles: []checker.Cycle{
			{Name: "any cycle"},
			{Name: "counters 1 and 2 move", Require: 1<<1 | 1<<2},
			{Name: "all move", Require: 1<<0 | 1<<1 | 1<<2},
		},
	}
}

// traceText renders every verdict and counterexample of a result: the
// steps (actor, choice, marks) and the encodings of the states they reach.
func traceText[S any](sys checker.System[S], res checker.Result[S]) string {
	var b strings.Builder
	for _, p := range res.Properties {
		fmt.Fprintf(&b, "%s\n", p)
		if p.Trace == nil {
			continue
		}
		fmt.Fprintf(&b, "  init %x loop %d\n", sys.AppendEncoding(nil, p.Trace.Initial), p.Trace.LoopStart)
		for _, st := range p.Trace.Steps {
			fmt.Fprintf(&b, "  %d/%d/%#x -> %x\n", st.Step.Actor, st.Step.Choice, st.Step.Marks, sys.AppendEncoding(nil, st.State))
		}
	}
	return b.String()
}

// sameForAnyWorkers runs sys 20 times with each of 1, 2, 4 and 8 workers
// and requires every run to report what the first one-worker run reports.
func sameForAnyWorkers[S any](t *testing.T, sys checker.System[S], props checker.Properties[S], opts checker.Options, wantStates int64) {
	t.Helper()
	var want string
	for _, workers := range []int{1, 2, 4, 8} {
		for run := range 20 {
			o := opts
			o.Workers = workers
			res, err := checker.Check(context.Background(), sys, props, o)
			if err != nil {
				t.Fatalf("workers=%d run %d: %v", workers, run, err)
			}
			if wantStates > 0 && res.Stats.States != wantStates {
				t.Fatalf("workers=%d run %d: %d states, want %d", workers, run, res.Stats.States, wantStates)
			}
			got := traceText(sys, res)
			if want == "" {
				want = got
				if !strings.Contains(want, "violated") {
					t.Fatalf("no violation to compare:\n%s", want)
				}
				t.Logf("one worker: %x", sha256.Sum256([]byte(want)))
				continue
			}
			if got != want {
				t.Fatalf("workers=%d run %d reports\n%s\none worker reported\n%s", workers, run, got, want)
			}
		}
	}
}

func TestDeterministicSafetyCounterexamples(t *testing.T) {
	g := grid{k: 6, top: 12}
	for _, tc := range []struct {
		name string
		opts checker.Options
	}{
		{"exact", checker.Options{}},
		{"exact/collect-all", checker.Options{CollectAll: true}},
		{"exact/state-bound-not-reached", checker.Options{CollectAll: true, MaxStates: 1 << 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sameForAnyWorkers(t, checker.System[gridState](g), g.props(), tc.opts, 0)
		})
	}
	t.Run("symmetry", func(t *testing.T) {
		sym := symmetricGrid{g}
		sameForAnyWorkers(t, checker.System[gridState](sym), sym.props(), checker.Options{CollectAll: true}, 0)
	})
}

func TestDeterministicCycleCounterexamples(t *testing.T) {
	c := cycleCounters{toys.Counters{N: 4, Mod: 6}}
	want := toys.CountersCount(4, 6)
	for _, tc := range []struct {
		name string
		opts checker.Options
	}{
		{"exact", checker.Options{CollectAll: true}},
		{"hash-compaction", checker.Options{CollectAll: true, Storage: checker.HashCompaction}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sameForAnyWorkers(t, checker.System[toys.CounterState](c), cycleProps(), tc.opts, want)
		})
	}
	t.Run("philosophers/symmetry", func(t *testing.T) {
		p := toys.Philosophers{N: 5}
		props := checker.Properties[[]uint8]{
			EndConditions: []checker.EndCondition[[]uint8]{{Name: "no deadlock", Holds: func([]uint8) bool { return false }}},
			Cycles:        []checker.Cycle{{Name: "someone eats forever", Require: toys.MarkEat}},
		}
		sameForAnyWorkers(t, checker.System[[]uint8](p), props, checker.Options{CollectAll: true}, 0)
	})
}
