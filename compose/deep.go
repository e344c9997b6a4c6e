package compose

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/report"
)

// The depth-first phase runs between the quick pass and the exhaustive
// search when the probe showed that the exhaustive search is large. A
// breadth-first search looks at every run of n steps before any of n+1:
// on a cluster of tens of nodes its budget may end a few dozen steps
// deep, while the runs that break an intent (a rollout that finishes, a
// node drained after the one before) are longer. A depth-first search
// follows runs to their end first. Its runs are seeded (checker.Options.Seed),
// several at once, as SPIN's swarm verification does: each seed reaches
// another part of the state space first. What it finds is a violation
// on a real path of the full model (it explores the same model as the
// exhaustive search, with the same reductions), reported as found; its
// counterexample need not be the shortest, and the exhaustive search then
// looks for a shorter one as after the quick pass. A depth-first search
// that explores everything settles every intent, as the exhaustive search
// would.

// deepRounds is how many rounds of seeded searches share the phase's
// budget; each round runs one search per worker.
const deepRounds = 2

// maxDeepWorkers bounds the searches of one round.
const maxDeepWorkers = 8

// deepBudget is the time the depth-first phase may take after a probe
// that ran for probe: as long as the probe, at least a second, and at
// most the quick pass's share of the run (a quarter of the timeout, ten
// seconds without one). The two strategies get about equal time before
// the exhaustive search goes on: an exhaustive search that the probe
// cut just short of its end (a 73 000-state search of 500 nodes needs
// 1.8 s against the probe's 2) then waits seconds, not a quarter of the
// run, and a search too large for either gets the rest of the run
// anyway.
func deepBudget(timeout, probe time.Duration) time.Duration {
	return min(quickBudget(timeout), max(probe, time.Second))
}

// deepWorkers is the number of searches of one round.
func deepWorkers(opts checker.Options) int {
	w := opts.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return min(max(w, 1), maxDeepWorkers)
}

// deepDescription says how the phase searched, for people.
func deepDescription(seeds int) string {
	switch seeds {
	case 1:
		return "a depth-first search with seed 1, which follows runs to their end first"
	case 2:
		return "randomised depth-first searches with seeds 1 and 2, which follow runs to their end first"
	}
	return fmt.Sprintf("randomised depth-first searches with seeds 1 to %d, which follow runs to their end first", seeds)
}

// deepSearch runs the depth-first phase within budget: rounds of seeded
// depth-first searches, one per worker, each with an equal share of the
// round's time and of the memory budget. It stops after the round in
// which a search settled every intent (settled), or found a violation
// when not every intent is to be settled. The report is that of the
// search that settled every intent, if one did; otherwise that of the
// search that
// found the most violations (then the shortest counterexamples, then the
// lowest seed), with the violations the others found of other intents,
// and the stats of all of them together.
func (p *Problem) deepSearch(ctx context.Context, opts checker.Options, budget time.Duration) (*report.Report, int, error) {
	start := time.Now()
	workers := deepWorkers(opts)
	probs, err := p.copies(workers)
	if err != nil {
		return nil, 0, err
	}
	var all []*report.Report
	var seeds []uint64
	for round := range deepRounds {
		left := budget - time.Since(start)
		if left <= 0 || ctx.Err() != nil {
			break
		}
		mopts := opts
		mopts.Strategy = checker.DFS
		mopts.Workers = 1
		mopts.Timeout = left / time.Duration(deepRounds-round)
		if opts.MaxMemory > 0 {
			mopts.MaxMemory = max(opts.MaxMemory/int64(workers), 1)
		}
		rctx, cancel := context.WithCancel(ctx)
		reps := make([]*report.Report, workers)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for i := range workers {
			seed := uint64(round*workers + i + 1)
			seeds = append(seeds, seed)
			wg.Go(func() {
				o := mopts
				o.Seed = seed
				if i > 0 {
					// One live status line: the round's first search's.
					o.OnProgress = nil
				}
				reps[i], errs[i] = probs[i].checkOnce(rctx, o)
				if errs[i] == nil && (settled(reps[i]) || !opts.CollectAll && len(reps[i].Violated()) > 0) {
					cancel() // this round has its answer
				}
			})
		}
		wg.Wait()
		cancel()
		for i, err := range errs {
			if err != nil {
				return nil, 0, err
			}
			r := reps[i]
			setSeed(r, seeds[round*workers+i])
			all = append(all, r)
		}
		if done := deepDone(all, opts.CollectAll); done {
			break
		}
	}
	if len(all) == 0 {
		return nil, 0, nil
	}
	r := combineDeep(all)
	r.Elapsed = time.Since(start)
	return r, len(seeds), nil
}

// copies returns p and n-1 copies of it, one for each search that runs
// at once: a System serves one Check at a time (twin).
func (p *Problem) copies(n int) ([]*Problem, error) {
	probs := []*Problem{p}
	for len(probs) < n {
		q, err := p.twin()
		if err != nil {
			return nil, err
		}
		probs = append(probs, q)
	}
	return probs, nil
}

// setSeed records on r's violations the seed of the search that found
// them.
func setSeed(r *report.Report, seed uint64) {
	for i := range r.Results {
		if r.Results[i].Verdict == checker.Violated {
			r.Results[i].Seed = seed
		}
	}
}

// settled: the search explored everything and settled every intent (a
// search stopped while analysing its cycles, because another one of its
// round finished first, did not).
func settled(r *report.Report) bool { return r.Complete && len(r.Unknown()) == 0 }

// deepDone reports whether the phase has its answer: a search explored
// everything, or found a violation when the run stops at the first.
func deepDone(reps []*report.Report, collectAll bool) bool {
	for _, r := range reps {
		if settled(r) || !collectAll && len(r.Violated()) > 0 {
			return true
		}
	}
	return false
}

// combineDeep makes the phase's report out of its searches' (see
// deepSearch).
func combineDeep(reps []*report.Report) *report.Report {
	for _, r := range reps {
		if settled(r) {
			return r
		}
	}
	best := reps[0]
	for _, r := range reps[1:] {
		if moreFound(r, best) {
			best = r
		}
	}
	out := *best
	out.Results = append([]report.IntentResult(nil), best.Results...)
	for i := range out.Results {
		x := &out.Results[i]
		for _, r := range reps {
			if x.Verdict == checker.Violated {
				break
			}
			if y := r.Result(x.Name); y != nil && y.Verdict == checker.Violated {
				*x = *y
			}
		}
	}
	var st checker.Stats
	for _, r := range reps {
		st.States += r.Stats.States
		st.Matched += r.Stats.Matched
		st.Transitions += r.Stats.Transitions
		st.MaxDepth = max(st.MaxDepth, r.Stats.MaxDepth)
	}
	st.Storage, st.Strategy, st.Workers = best.Stats.Storage, checker.DFS, len(reps)
	out.Stats = st
	return &out
}

// moreFound: r found more violations than best, or as many with shorter
// counterexamples in all (the searches are in seed order, so a tie keeps
// the lower seed).
func moreFound(r, best *report.Report) bool {
	a, b := r.Violated(), best.Violated()
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return traceSteps(a) < traceSteps(b)
}

func traceSteps(xs []report.IntentResult) int {
	n := 0
	for _, x := range xs {
		if x.Trace != nil {
			n += len(x.Trace.Steps)
		}
	}
	return n
}
