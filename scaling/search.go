package scaling

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/kivi-go/kivi/checker"
)

// VerifyFunc builds and checks one setup. It must honour ctx (the search
// cancels it when an earlier setup has failed, and Options.Timeout bounds
// it) and be safe to call from several goroutines at once. Returning an
// error stops the search, unless an earlier setup failed (then Kivi's
// loop would never have reached it and the error is dropped).
type VerifyFunc func(ctx context.Context, s Setup) (Outcome, error)

// Options tune Search.
type Options struct {
	// Workers is how many setups are verified at once (default
	// GOMAXPROCS). The answer does not depend on it.
	Workers int
	// All verifies every setup and lists every failure (Kivi's -a);
	// otherwise the search stops at the first failure in order.
	All bool
	// Timeout bounds each setup's verification (0 = none); a setup that
	// runs out of time is Unknown, never held.
	Timeout time.Duration
	// Progress, when set, is called after each setup starts and ends, from
	// one goroutine at a time.
	Progress func(Progress)
}

// Progress is a snapshot of a running search.
type Progress struct {
	// Done setups out of Total; Total shrinks to the setups still needed
	// once a failure is known (without All).
	Done, Total int
	// Current is the lowest-index setup still being verified (or the one
	// just finished when none is).
	Current Setup
	// States is the sum of the states of the finished setups.
	States int64
	// Elapsed since the start; ETA estimates the rest from the mean wall
	// time per finished setup so far (0 before the first one; setups grow
	// along the order, so it is optimistic).
	Elapsed, ETA time.Duration
}

// Search verifies setups in order and returns Kivi's answer (Kivi's scaling search
// §6): the minimal violating setup is the first failing one of the list.
// Setups run on Options.Workers goroutines; as soon as a failure is known,
// setups after it are cancelled and no later ones start, while earlier
// ones still run to completion (one of them may fail and become the
// minimum). The Result is the same as a sequential run's.
//
// A non-nil error comes with the partial Result: a VerifyFunc error at a
// setup before any failure, or ctx's error when the caller cancelled
// (then Result.Interrupted is set).
func Search(ctx context.Context, setups []Setup, verify VerifyFunc, opts Options) (Result, error) {
	indices := make([]int, len(setups))
	for i := range indices {
		indices[i] = i
	}
	return search(ctx, setups, indices, verify, opts)
}

// finished is one verification's report to the coordinator.
type finished struct {
	pos      int // position in the searched slice
	outcome  Outcome
	err      error
	timedOut bool
	elapsed  time.Duration
}

// search runs the setups at the given global indices (a shard's slice or
// the whole list) and reports them under those indices.
func search(ctx context.Context, all []Setup, indices []int, verify VerifyFunc, opts Options) (Result, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	results := make([]SetupResult, len(indices))
	for p, i := range indices {
		results[p] = SetupResult{Index: i, Setup: all[i]}
	}
	// stop is the position of the earliest setup that ends the search (a
	// failure without All, or an error); nothing at or after it starts.
	stop := len(indices)
	var stopErr error
	running := map[int]context.CancelFunc{}
	done := make(chan finished)
	next, finishedCount := 0, 0
	var states int64
	interrupted := false

	report := func(cur int) {
		if opts.Progress == nil {
			return
		}
		lowest := -1
		for p := range running {
			if lowest < 0 || p < lowest {
				lowest = p
			}
		}
		if lowest < 0 {
			lowest = cur
		}
		total := stop
		if stop < len(indices) {
			total = stop + 1 // the stopping setup counts as done
		}
		pr := Progress{Done: finishedCount, Total: max(total, finishedCount), States: states, Elapsed: time.Since(start)}
		if lowest >= 0 && lowest < len(indices) {
			pr.Current = results[lowest].Setup
		}
		if finishedCount > 0 && pr.Total > finishedCount {
			pr.ETA = pr.Elapsed / time.Duration(finishedCount) * time.Duration(pr.Total-finishedCount)
		}
		opts.Progress(pr)
	}

	launch := func(p int) {
		var sctx context.Context
		var cancel context.CancelFunc
		if opts.Timeout > 0 {
			sctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		} else {
			sctx, cancel = context.WithCancel(ctx)
		}
		running[p] = cancel
		s := results[p].Setup.clone()
		go func() {
			t0 := time.Now()
			out, err := verify(sctx, s)
			f := finished{pos: p, outcome: out, err: err, elapsed: time.Since(t0)}
			f.timedOut = errors.Is(sctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
			done <- f
		}()
	}

	for {
		for len(running) < workers && next < stop && !interrupted {
			launch(next)
			next++
			report(next - 1)
		}
		if len(running) == 0 {
			break
		}
		var f finished
		select {
		case f = <-done:
		case <-ctx.Done():
			if !interrupted {
				interrupted = true
				for _, cancel := range running {
					cancel()
				}
			}
			f = <-done
		}
		running[f.pos]()
		delete(running, f.pos)
		if ctx.Err() != nil && !interrupted {
			interrupted = true
			for _, cancel := range running {
				cancel()
			}
		}
		if f.pos >= stop {
			continue // after the minimal stop: Kivi never ran it
		}
		if interrupted && (f.err != nil || f.outcome.Verdict == checker.Unknown) {
			continue // cut short by the caller: not a verdict
		}
		finishedCount++
		sr := &results[f.pos]
		sr.Elapsed = f.elapsed
		switch {
		case f.err != nil && f.timedOut:
			sr.Status = Unknown
			sr.Outcome = Outcome{Verdict: checker.Unknown, Stats: f.outcome.Stats, Detail: f.outcome.Detail}
		case f.err != nil:
			stop, stopErr = f.pos, fmt.Errorf("setup %s: %w", sr.Setup, f.err)
			cancelAfter(running, stop)
		default:
			sr.Outcome = f.outcome
			sr.Status = statusOf(f.outcome.Verdict)
			if sr.Status == Failed && !opts.All {
				stop, stopErr = f.pos, nil
				cancelAfter(running, stop)
			}
		}
		// A verifier that ignored its deadline and still decided is
		// believed; only an undecided setup is marked timed out.
		sr.TimedOut = f.timedOut && sr.Status == Unknown
		states += sr.Outcome.Stats.States
		report(f.pos)
	}
	if stopErr != nil {
		// Kivi's loop stops at the error: what later setups found does
		// not count.
		for p := stop + 1; p < len(results); p++ {
			results[p] = SetupResult{Index: results[p].Index, Setup: results[p].Setup}
		}
	}
	r := finish(results, opts.All)
	r.Interrupted = interrupted
	r.Elapsed = time.Since(start)
	if stopErr != nil {
		return r, stopErr
	}
	if interrupted {
		return r, ctx.Err()
	}
	return r, nil
}

// cancelAfter cancels the running setups after position stop; the order
// of cancellation does not matter.
func cancelAfter(running map[int]context.CancelFunc, stop int) {
	for p, cancel := range running {
		if p > stop {
			cancel()
		}
	}
}
