package checker_test

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestNoLines: with NoLines a trace's steps carry their states and steps
// but no lines, though the System is an Explainer; without it they carry
// the Explainer's lines.
func TestNoLines(t *testing.T) {
	props := checker.Properties[mutexState]{Invariants: []checker.Invariant[mutexState]{{
		Name:  "mutual exclusion",
		Holds: func(s mutexState) bool { return s.pc[0] != 2 || s.pc[1] != 2 },
	}}}
	for _, noLines := range []bool{false, true} {
		res, err := checker.Check(context.Background(), checker.System[mutexState](testThenSet{}), props,
			checker.Options{Workers: 1, NoLines: noLines})
		if err != nil {
			t.Fatal(err)
		}
		tr := res.Properties[0].Trace
		if tr == nil || len(tr.Steps) == 0 {
			t.Fatalf("NoLines %v: no trace", noLines)
		}
		for i, st := range tr.Steps {
			if got := len(st.Lines) > 0; got == noLines {
				t.Errorf("NoLines %v: step %d has lines %v", noLines, i, st.Lines)
			}
			if i == len(tr.Steps)-1 && props.Invariants[0].Holds(st.State) {
				t.Errorf("NoLines %v: the last step's state %v does not violate the invariant", noLines, st.State)
			}
		}
	}
}
