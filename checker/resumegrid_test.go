package checker_test

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestResumeLargeLevels: resumed runs of the grid, whose levels are wide
// and whose states have several predecessors, give one run's
// counterexamples with any number of workers, with symmetry too, from
// bounds inside the initial states, inside a level and at a level's end.
func TestResumeLargeLevels(t *testing.T) {
	g := grid{k: 6, top: 12}
	for _, sys := range []checker.System[gridState]{g, symmetricGrid{g}} {
		for _, workers := range []int{1, 2, 4} {
			opts := checker.Options{Workers: workers, CollectAll: true}
			one, err := checker.Check(context.Background(), sys, g.props(), opts)
			if err != nil {
				t.Fatal(err)
			}
			want := traceText(sys, one)
			for _, first := range []int64{1, 2, 7, 100, 1000, one.Stats.States - 1} {
				if first >= one.Stats.States {
					continue
				}
				o := opts
				o.Resumable, o.MaxStates = true, first
				res, err := checker.Check(context.Background(), sys, g.props(), o)
				resumes := 0
				for err == nil && res.Continuation != nil {
					o.MaxStates = o.MaxStates*3 + 1
					res, err = checker.Resume(context.Background(), res.Continuation, o)
					resumes++
				}
				if err != nil {
					t.Fatal(err)
				}
				// A parallel run stores up to Workers-1 states past its
				// bound: one cut just below the end may finish.
				if resumes == 0 && first+int64(workers)-1 < one.Stats.States {
					t.Fatalf("%T workers=%d from %d states: not resumed", sys, workers, first)
				}
				if got := traceText(sys, res); got != want || res.Stats.States != one.Stats.States || res.Stats.Transitions != one.Stats.Transitions {
					t.Fatalf("%T workers=%d resumed %d times from %d states: %d states, %d transitions\n%s\none run: %d states, %d transitions\n%s",
						sys, workers, resumes, first, res.Stats.States, res.Stats.Transitions, got, one.Stats.States, one.Stats.Transitions, want)
				}
			}
		}
	}
}
