package checker_test

import (
	"context"
	"fmt"

	"github.com/kivi-go/kivi/checker"
)

// mutexState is a two-process "test, then set" lock: pc is 0 (idle),
// 1 (saw the lock free) or 2 (critical).
type mutexState struct {
	pc     [2]uint8
	locked bool
}

const markEnter uint32 = 1

type testThenSet struct{}

func (testThenSet) Initial(emit func(mutexState)) { emit(mutexState{}) }

func (testThenSet) Next(s mutexState, emit func(checker.Step, mutexState)) {
	for i := range 2 {
		t := s
		var marks uint32
		switch s.pc[i] {
		case 0:
			if s.locked {
				continue
			}
			t.pc[i] = 1
		case 1:
			t.pc[i], t.locked, marks = 2, true, markEnter
		case 2:
			t.pc[i], t.locked = 0, false
		}
		emit(checker.Step{Actor: uint16(i), Marks: marks}, t)
	}
}

func (testThenSet) AppendEncoding(dst []byte, s mutexState) []byte {
	locked := byte(0)
	if s.locked {
		locked = 1
	}
	return append(dst, s.pc[0], s.pc[1], locked)
}

func (testThenSet) Decode(enc []byte) (mutexState, error) {
	if len(enc) != 3 {
		return mutexState{}, fmt.Errorf("bad encoding %x", enc)
	}
	return mutexState{pc: [2]uint8{enc[0], enc[1]}, locked: enc[2] == 1}, nil
}

// Explain makes traces readable (optional Explainer hook).
func (testThenSet) Explain(s mutexState, st checker.Step) []checker.Line {
	msg := [...]string{"sees the lock free", "takes the lock", "releases the lock"}[s.pc[st.Actor]]
	return []checker.Line{{Component: fmt.Sprintf("p%d", st.Actor), Message: msg}}
}

func Example() {
	props := checker.Properties[mutexState]{
		Invariants: []checker.Invariant[mutexState]{{
			Name:    "mutual exclusion",
			Holds:   func(s mutexState) bool { return s.pc[0] != 2 || s.pc[1] != 2 },
			Explain: func(mutexState) string { return "both processes are critical" },
		}},
		EndConditions: []checker.EndCondition[mutexState]{{
			Name:  "no deadlock",
			Holds: func(mutexState) bool { return false }, // any terminal state is a deadlock
		}},
		Cycles: []checker.Cycle{{Name: "enters forever", Require: markEnter}},
	}
	res, err := checker.Check(context.Background(), checker.System[mutexState](testThenSet{}), props,
		checker.Options{CollectAll: true, Workers: 1})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	for _, p := range res.Properties {
		fmt.Println(p)
		if p.Trace == nil {
			continue
		}
		for i, st := range p.Trace.Steps {
			if i == p.Trace.LoopStart {
				fmt.Println("  -- loop --")
			}
			for _, l := range st.Lines {
				fmt.Printf("  [%s] %s\n", l.Component, l.Message)
			}
		}
		if p.Explanation != "" {
			fmt.Println("  =>", p.Explanation)
		}
	}
	fmt.Println("states:", res.Stats.States, "complete:", res.Complete, "overall:", res.Verdict())
	// Output:
	// invariant mutual exclusion: violated
	//   [p0] sees the lock free
	//   [p1] sees the lock free
	//   [p0] takes the lock
	//   [p1] takes the lock
	//   => both processes are critical
	// end no deadlock: holds
	// cycle enters forever: violated
	//   -- loop --
	//   [p0] sees the lock free
	//   [p0] takes the lock
	//   [p0] releases the lock
	// states: 13 complete: true overall: violated
}

// A run cut by its state bound goes on where it stopped: Resume explores
// only what the first run did not, and ends as one run would.
func ExampleResume() {
	props := checker.Properties[mutexState]{
		Invariants: []checker.Invariant[mutexState]{{
			Name:  "mutual exclusion",
			Holds: func(s mutexState) bool { return s.pc[0] != 2 || s.pc[1] != 2 },
		}},
	}
	sys := checker.System[mutexState](testThenSet{})
	first, err := checker.Check(context.Background(), sys, props,
		checker.Options{Workers: 1, MaxStates: 5, Resumable: true})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println("first run:", first.Properties[0], first.Stats.States, "states")
	fmt.Println("kept:", first.Continuation.States(), "states")
	// Every bound may change; the rest of the options are the first run's.
	res, err := checker.Resume(context.Background(), first.Continuation, checker.Options{Workers: 1})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println("resumed:", res.Properties[0], res.Stats.States, "states,", len(res.Properties[0].Trace.Steps), "steps")
	// Output:
	// first run: invariant mutual exclusion: unknown (state bound) 5 states
	// kept: 3 states
	// resumed: invariant mutual exclusion: violated 9 states, 4 steps
}
