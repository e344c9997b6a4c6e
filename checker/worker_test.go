package checker_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/checker/internal/toys"
)

// ownedCounters is toys.Counters as a checker.WorkerSystem: every copy
// ForWorker makes records whether two goroutines ever run it at once, or
// whether the original expands states while workers run.
type ownedCounters struct {
	toys.Counters
	busy     *atomic.Int32 // Next or Decode under way on this copy
	shared   *atomic.Bool  // set when two calls overlapped
	forks    *atomic.Int32 // ForWorker calls
	original bool
	running  *atomic.Bool // workers are expanding
	misuse   *atomic.Bool // the original expanded while they were
}

func (o ownedCounters) enter() func() {
	if o.busy.Add(1) > 1 {
		o.shared.Store(true)
	}
	if o.original && o.running.Load() {
		o.misuse.Store(true)
	}
	return func() { o.busy.Add(-1) }
}

func (o ownedCounters) Next(s toys.CounterState, emit func(checker.Step, toys.CounterState)) {
	defer o.enter()()
	o.Counters.Next(s, emit)
}

func (o ownedCounters) Decode(enc []byte) (toys.CounterState, error) {
	defer o.enter()()
	return o.Counters.Decode(enc)
}

func (o ownedCounters) ForWorker() checker.System[toys.CounterState] {
	o.forks.Add(1)
	o.running.Store(true)
	w := o
	w.busy, w.original = new(atomic.Int32), false
	return w
}

// TestWorkerSystemGivesEachWorkerItsOwn: with checker.WorkerSystem every
// worker expands through its own System, never two goroutines through
// one, and the counts are those of the plain System.
func TestWorkerSystemGivesEachWorkerItsOwn(t *testing.T) {
	plain := toys.Counters{N: 4, Mod: 12}
	want, err := checker.Check[toys.CounterState](context.Background(), plain, checker.Properties[toys.CounterState]{}, checker.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 4} {
		for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
			if strategy == checker.DFS && workers > 1 {
				continue
			}
			o := ownedCounters{Counters: plain, busy: new(atomic.Int32), shared: new(atomic.Bool), forks: new(atomic.Int32),
				original: true, running: new(atomic.Bool), misuse: new(atomic.Bool)}
			res, err := checker.Check[toys.CounterState](context.Background(), o, checker.Properties[toys.CounterState]{},
				checker.Options{Workers: workers, Strategy: strategy})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.States != want.Stats.States || res.Stats.Transitions != want.Stats.Transitions {
				t.Errorf("workers %d: %d states %d transitions, want %d and %d", workers, res.Stats.States, res.Stats.Transitions, want.Stats.States, want.Stats.Transitions)
			}
			if got := o.forks.Load(); got != int32(workers) {
				t.Errorf("workers %d: ForWorker called %d times", workers, got)
			}
			if o.shared.Load() {
				t.Errorf("workers %d: two goroutines ran one worker's System at once", workers)
			}
			if o.misuse.Load() {
				t.Errorf("workers %d: the original System expanded states while the workers ran", workers)
			}
		}
	}
}
