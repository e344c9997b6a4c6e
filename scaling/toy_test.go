package scaling

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/kivi-go/kivi/checker"
	"pgregory.net/rapid"
)

// toyWorld is a random verification problem: a setup list and, for each
// setup, its verdict, an optional error and how many times its
// verification yields the processor (instead of sleeping, so that the
// interleaving varies without clocks).
type toyWorld struct {
	setups  []Setup
	verdict []checker.Verdict
	fails   []bool // the VerifyFunc returns an error
	yields  []int
}

var errToy = errors.New("toy verifier error")

// drawWorld draws bounds, enumerates them, and marks a setup violated iff
// a random monotone predicate holds (enough nodes and replicas), plus a
// few random unknowns and, optionally, errors.
func drawWorld(t *rapid.T, withErrors bool) toyWorld {
	var b Bounds
	for i := range rapid.IntRange(1, 2).Draw(t, "nodeTypes") {
		lo := rapid.IntRange(0, 2).Draw(t, "min")
		b.NodeTypes = append(b.NodeTypes, TypeBounds{Name: fmt.Sprint(i), Min: lo, Max: lo + rapid.IntRange(1, 2).Draw(t, "span")})
	}
	for i := range rapid.IntRange(1, 2).Draw(t, "deployments") {
		b.Deployments = append(b.Deployments, DeploymentBounds{Name: fmt.Sprint(i), Max: rapid.IntRange(1, 8).Draw(t, "maxReplicas"),
			MaxPodsPerNode: rapid.IntRange(1, 7).Draw(t, "perNode")})
	}
	setups, err := Enumerate(b, EnumerateOptions{})
	if err != nil {
		t.Skip(err)
	}
	w := toyWorld{setups: setups}
	needNodes := rapid.IntRange(1, 8).Draw(t, "needNodes")
	needReplicas := rapid.IntRange(1, 12).Draw(t, "needReplicas")
	unknownEvery := rapid.IntRange(0, 5).Draw(t, "unknownEvery")
	errorAt := -1
	if withErrors && rapid.Bool().Draw(t, "hasError") {
		errorAt = rapid.IntRange(0, len(setups)-1).Draw(t, "errorAt")
	}
	for i, s := range setups {
		v := checker.Holds
		switch {
		case s.TotalNodes() >= needNodes && s.TotalReplicas() >= needReplicas:
			v = checker.Violated
		case unknownEvery > 0 && i%(unknownEvery+3) == unknownEvery:
			v = checker.Unknown
		}
		w.verdict = append(w.verdict, v)
		w.fails = append(w.fails, i == errorAt)
		w.yields = append(w.yields, rapid.IntRange(0, 20).Draw(t, "yields"))
	}
	return w
}

func (w toyWorld) index(s Setup) int {
	for i, x := range w.setups {
		if x.Equal(s) {
			return i
		}
	}
	panic("unknown setup " + s.String())
}

// verify is the world's VerifyFunc: deterministic yields, honours ctx.
func (w toyWorld) verify(ctx context.Context, s Setup) (Outcome, error) {
	i := w.index(s)
	for range w.yields[i] {
		if ctx.Err() != nil {
			return Outcome{Verdict: checker.Unknown}, ctx.Err()
		}
		runtime.Gosched()
	}
	if w.fails[i] {
		return Outcome{}, errToy
	}
	out := Outcome{Verdict: w.verdict[i], Stats: checker.Stats{States: int64(100 + i)}, Detail: map[string]string{"setup": s.String()}}
	if out.Verdict == checker.Violated {
		out.Violated = []string{"toy_intent"}
	}
	return out, nil
}

// sequential is Kivi's loop, the reference the parallel
// search must agree with: statuses per setup and whether it errs.
func (w toyWorld) sequential(all bool) ([]Status, bool) {
	st := make([]Status, len(w.setups))
	for i := range w.setups {
		if w.fails[i] {
			return st, true
		}
		st[i] = statusOf(w.verdict[i])
		if st[i] == Failed && !all {
			break
		}
	}
	return st, false
}

// sameAnswer compares a Result with the reference statuses.
func sameAnswer(r Result, want []Status) error {
	if len(r.Setups) != len(want) {
		return fmt.Errorf("%d results for %d setups", len(r.Setups), len(want))
	}
	first, held, failed, unknown := -1, 0, 0, 0
	var states int64
	for i, s := range want {
		got := r.Setups[i]
		if got.Status != s || got.Index != i {
			return fmt.Errorf("setup %d %s: %v (index %d), want %v", i, got.Setup, got.Status, got.Index, s)
		}
		switch s {
		case Held:
			held++
		case Failed:
			failed++
			if first < 0 {
				first = i
			}
		case Unknown:
			unknown++
		}
		if s != NotRun {
			states += int64(100 + i)
			if got.Outcome.Stats.States != int64(100+i) {
				return fmt.Errorf("setup %d: stats %d", i, got.Outcome.Stats.States)
			}
		}
	}
	if r.First != first || r.Held != held || r.Failed != failed || r.Unknown != unknown || r.NotRun != len(want)-held-failed-unknown || r.States != states {
		return fmt.Errorf("summary %s first %d states %d; want first %d, %d held %d failed %d unknown, states %d", r.String(), r.First, r.States, first, held, failed, unknown, states)
	}
	return nil
}
