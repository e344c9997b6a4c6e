package scaling

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kivi-go/kivi/checker"
	"pgregory.net/rapid"
)

// TestParallelMatchesSequential: whatever the number of workers and the
// interleaving, Search returns Kivi's sequential answer:
// the same minimal failing setup, the same verdicts before it, nothing
// after it (or everything with All), and an error only if the sequential
// loop would have met it.
func TestParallelMatchesSequential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, true)
		all := rapid.Bool().Draw(t, "all")
		workers := rapid.IntRange(1, 8).Draw(t, "workers")
		want, wantErr := w.sequential(all)
		r, err := Search(context.Background(), w.setups, w.verify, Options{Workers: workers, All: all})
		if (err != nil) != wantErr || err != nil && !errors.Is(err, errToy) {
			t.Fatalf("error %v, sequential errs: %v", err, wantErr)
		}
		if e := sameAnswer(r, want); e != nil {
			t.Fatal(e)
		}
	})
}

// TestCancelAfterFailure: once setup 0 fails, the setups running after it
// are cancelled (their verifiers block until then, so the test would hang
// otherwise) and no later setup starts.
func TestCancelAfterFailure(t *testing.T) {
	setups, _ := Enumerate(Bounds{NodeTypes: []TypeBounds{{Max: 3}}, Deployments: []DeploymentBounds{{Max: 10, MaxPodsPerNode: 7}}}, EnumerateOptions{})
	var started, cancelled atomic.Int64
	verify := func(ctx context.Context, s Setup) (Outcome, error) {
		started.Add(1)
		if s.Equal(setups[0]) {
			return Outcome{Verdict: checker.Violated, Violated: []string{"x"}}, nil
		}
		<-ctx.Done()
		cancelled.Add(1)
		return Outcome{Verdict: checker.Unknown}, nil
	}
	r, err := Search(context.Background(), setups, verify, Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r.First != 0 || r.Held != 0 || r.Unknown != 0 || r.NotRun != len(setups)-1 {
		t.Fatalf("%s", r.String())
	}
	if started.Load() > 4 || cancelled.Load() != started.Load()-1 {
		t.Fatalf("%d started, %d cancelled with 4 workers", started.Load(), cancelled.Load())
	}
}

// TestTimeoutIsUnknown: a setup that runs out of Options.Timeout is
// Unknown and timed out, never held, and the search goes on (Kivi counts
// it as passing, docs/divergences.md ("Scaling search")).
func TestTimeoutIsUnknown(t *testing.T) {
	setups, _ := Enumerate(Bounds{NodeTypes: []TypeBounds{{Max: 1}}, Deployments: []DeploymentBounds{{Max: 3, MaxPodsPerNode: 7}}}, EnumerateOptions{})
	for _, viaError := range []bool{false, true} {
		verify := func(ctx context.Context, s Setup) (Outcome, error) {
			switch s.Replicas[0] {
			case 1:
				<-ctx.Done() // never finishes on its own
				if viaError {
					return Outcome{}, ctx.Err()
				}
				return Outcome{Verdict: checker.Unknown}, nil // as checker.Check reports a timeout
			case 3:
				return Outcome{Verdict: checker.Violated}, nil
			}
			return Outcome{Verdict: checker.Holds}, nil
		}
		r, err := Search(context.Background(), setups, verify, Options{Workers: 2, Timeout: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if s := r.Setups[0]; s.Status != Unknown || !s.TimedOut {
			t.Fatalf("error=%v: setup 1: %v timed out %v", viaError, s.Status, s.TimedOut)
		}
		if r.Held != 1 || r.Unknown != 1 || r.First != 2 {
			t.Fatalf("error=%v: %s", viaError, r.String())
		}
	}
}

// TestInterrupted: the caller's cancellation ends the search with the
// partial result and ctx's error.
func TestInterrupted(t *testing.T) {
	setups, _ := Enumerate(Bounds{NodeTypes: []TypeBounds{{Max: 2}}, Deployments: []DeploymentBounds{{Max: 6, MaxPodsPerNode: 7}}}, EnumerateOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	verify := func(ctx context.Context, s Setup) (Outcome, error) {
		if s.Replicas[0] == 3 {
			cancel()
			<-ctx.Done()
			return Outcome{Verdict: checker.Unknown}, nil
		}
		return Outcome{Verdict: checker.Holds}, nil
	}
	r, err := Search(ctx, setups, verify, Options{Workers: 1})
	if !errors.Is(err, context.Canceled) || !r.Interrupted || r.Held != 2 || r.Unknown != 0 || r.First != -1 {
		t.Fatalf("%v: %s", err, r.String())
	}
}

// TestProgress: the callback sees every setup finish, from one goroutine
// at a time, and ends at done = total.
func TestProgress(t *testing.T) {
	setups, _ := Enumerate(Bounds{NodeTypes: []TypeBounds{{Max: 2}}, Deployments: []DeploymentBounds{{Max: 6, MaxPodsPerNode: 7}}}, EnumerateOptions{})
	var calls []Progress
	var inside atomic.Int32
	verify := func(ctx context.Context, s Setup) (Outcome, error) {
		runtime.Gosched()
		return Outcome{Verdict: checker.Holds, Stats: checker.Stats{States: 10}}, nil
	}
	_, err := Search(context.Background(), setups, verify, Options{Workers: 3, Progress: func(p Progress) {
		if inside.Add(1) != 1 {
			t.Error("progress called concurrently")
		}
		calls = append(calls, p)
		inside.Add(-1)
	}})
	if err != nil {
		t.Fatal(err)
	}
	last := calls[len(calls)-1]
	if len(calls) != 2*len(setups) || last.Done != len(setups) || last.Total != len(setups) || last.States != int64(10*len(setups)) || last.ETA != 0 {
		t.Fatalf("%d calls, last %+v", len(calls), last)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i].Done < calls[i-1].Done {
			t.Fatalf("done went back: %+v then %+v", calls[i-1], calls[i])
		}
	}
}

// TestCancelledBeforeStart: a context cancelled before the search is an
// interruption, not a verifier error.
func TestCancelledBeforeStart(t *testing.T) {
	setups, _ := Enumerate(Bounds{NodeTypes: []TypeBounds{{Max: 2}}, Deployments: []DeploymentBounds{{Max: 6, MaxPodsPerNode: 7}}}, EnumerateOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	verify := func(ctx context.Context, s Setup) (Outcome, error) { return Outcome{}, ctx.Err() }
	r, err := Search(ctx, setups, verify, Options{Workers: 3})
	if !errors.Is(err, context.Canceled) || !r.Interrupted || r.Verified() != 0 || strings.Contains(err.Error(), "setup") {
		t.Fatalf("%v: %s", err, r.String())
	}
}
