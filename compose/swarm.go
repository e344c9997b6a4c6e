package compose

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

// A swarm spreads the depth-first phase's idea over many machines: shard
// K of N runs seeded depth-first searches of the full model (the same
// model and reductions as the exhaustive search), with the seeds K+1,
// K+1+N, K+1+2N, …, so that the N shards together run every seed once.
// Each search reaches another part of a state space too large for one
// machine first. What a search finds violated is a violation on a real
// path; what it holds it holds only when it explored everything. A
// swarm therefore finds violations and rarely shows that an intent
// holds: report.MergeSwarm says so.

// ErrSwarmBound marks a swarm shard asked to run without a bound: its
// seeds never run out, so a shard needs a timeout or a state budget.
var ErrSwarmBound = errors.New("a swarm shard needs a bound")

// SwarmSeed is the seed of the i-th search (from 0) of shard k of n.
func SwarmSeed(k, n, i int) uint64 { return uint64(k + 1 + i*n) }

// SwarmShard runs shard k of a swarm of n (0 ≤ k < n): seeded
// depth-first searches, opts.Workers at a time (all cores for 0, at
// most maxDeepWorkers), each on its own
// copy of the problem, a new one started whenever one ends without an
// answer. It stops at opts.Timeout (the shard's, not each search's),
// when its searches together have explored opts.MaxStates states
// (shared evenly among the searches that run at once), at the first
// violation (unless opts.CollectAll; then once every intent is found
// violated), or when a search explored everything. One of Timeout and
// MaxStates must be set (ErrSwarmBound). The report is that of the
// search that explored everything, if one did, else that of the search
// that found most (combineDeep); every violation carries its seed.
func (p *Problem) SwarmShard(ctx context.Context, opts checker.Options, k, n int) (*report.Swarm, error) {
	if n < 1 || k < 0 || k >= n {
		return nil, fmt.Errorf("swarm shard %d/%d (accepted: 0 ≤ K < N): %w", k, n, ErrInput)
	}
	if opts.Timeout <= 0 && opts.MaxStates <= 0 {
		return nil, fmt.Errorf("%w: a timeout or a state budget (its seeds never run out)", ErrSwarmBound)
	}
	start := time.Now()
	sctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(sctx, opts.Timeout)
		defer cancel()
	}
	workers := deepWorkers(opts)
	probs, err := p.copies(workers)
	if err != nil {
		return nil, err
	}
	sopts := opts
	sopts.Strategy = checker.DFS
	sopts.Workers = 1
	if opts.MaxMemory > 0 {
		sopts.MaxMemory = max(opts.MaxMemory/int64(workers), 1)
	}
	sw := &swarmShard{k: k, n: n, opts: sopts, collectAll: opts.CollectAll, timed: opts.Timeout > 0, cancel: cancelAll}
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w, budget := range stateShares(opts.MaxStates, workers) {
		wg.Go(func() { errs[w] = sw.work(sctx, probs[w], opts.MaxStates > 0, budget) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil && ctx.Err() == nil {
		return nil, err
	}
	runs := sw.runs
	out := &report.Swarm{K: k, N: n, All: opts.CollectAll, Fingerprint: p.Fingerprint(opts),
		Interrupted: ctx.Err() != nil}
	if len(runs) == 0 {
		// Cancelled before any search started: one search under the
		// cancelled context reports every intent unknown, with why.
		o := sopts
		o.Seed = SwarmSeed(k, n, 0)
		r, err := p.checkOnce(sctx, o)
		if err != nil {
			return nil, err
		}
		runs = append(runs, swarmRun{seed: o.Seed, r: r})
	}
	// In seed order, so that combineDeep's ties keep the lowest seed and
	// the document lists the seeds as they were dealt.
	slices.SortFunc(runs, func(a, b swarmRun) int { return a.i - b.i })
	reps := make([]*report.Report, len(runs))
	for j, x := range runs {
		out.Seeds = append(out.Seeds, x.seed)
		reps[j] = x.r
		if x.r.Complete && out.Finished == 0 {
			out.Finished = x.seed
		}
	}
	out.Report = swarmReport(reps)
	out.Report.Elapsed = time.Since(start)
	st := &out.Report.Stats
	st.Elapsed = out.Report.Elapsed
	if s := st.Elapsed.Seconds(); s > 0 {
		st.StatesPerS = float64(st.States) / s
	}
	for _, r := range reps {
		st.BytesPerState = max(st.BytesPerState, r.Stats.BytesPerState)
	}
	markFoundBy(out.Report, report.PhaseDepthFirst)
	return out, nil
}

// swarmShard is a running shard: its searches take their seeds in
// turn (next) and record what they found (runs).
type swarmShard struct {
	k, n       int
	opts       checker.Options // each search's: DFS, one worker
	collectAll bool
	timed      bool // the context's deadline is the shard's timeout
	cancel     context.CancelFunc
	next       atomic.Int64
	mu         sync.Mutex
	runs       []swarmRun
}

// work runs searches on p, one after another, each with the next seed,
// until the shard has its answer, its time is up or, when bounded, this
// worker's share of the state budget is spent.
func (sw *swarmShard) work(ctx context.Context, p *Problem, bounded bool, budget int64) error {
	for ctx.Err() == nil && (!bounded || budget > 0) {
		i := int(sw.next.Add(1) - 1)
		o := sw.opts
		o.Seed = SwarmSeed(sw.k, sw.n, i)
		o.MaxStates = budget
		if d, ok := ctx.Deadline(); ok && sw.timed {
			o.Timeout = max(time.Until(d), time.Nanosecond) // 0 would be no bound
		}
		r, err := p.checkOnce(ctx, o)
		if err != nil {
			sw.cancel()
			return err
		}
		setSeed(r, o.Seed)
		budget -= r.Stats.States
		if sw.record(swarmRun{i: i, seed: o.Seed, r: r}) {
			sw.cancel()
			return nil
		}
	}
	return nil
}

// record adds a finished search and reports whether the shard has its
// answer (swarmDone).
func (sw *swarmShard) record(x swarmRun) bool {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.runs = append(sw.runs, x)
	return swarmDone(sw.runs, sw.collectAll)
}

// swarmRun is one search of a shard: its position among the shard's
// searches, its seed and its report.
type swarmRun struct {
	i    int
	seed uint64
	r    *report.Report
}

// stateShares splits a state budget between the searches that run at
// once: each worker's searches, one after another, stay within its
// share, so the shard stays within the whole (0: no budget).
func stateShares(total int64, workers int) []int64 {
	out := make([]int64, workers)
	if total <= 0 {
		return out
	}
	for w := range out {
		out[w] = total / int64(workers)
		if int64(w) < total%int64(workers) {
			out[w]++
		}
	}
	return out
}

// swarmDone reports whether a shard has its answer: a search explored
// everything (every other seed explores the same state space), or found
// a violation when the run stops at the first, or the searches together
// found every intent violated.
func swarmDone(runs []swarmRun, collectAll bool) bool {
	violated := map[string]bool{}
	names := 0
	for _, x := range runs {
		if x.r.Complete || !collectAll && len(x.r.Violated()) > 0 {
			return true
		}
		names = len(x.r.Results)
		for _, v := range x.r.Violated() {
			violated[v.Name] = true
		}
	}
	return names > 0 && len(violated) == names
}

// swarmReport is the shard's report: that of a search that explored
// everything, if one did, else combineDeep's; with the stats of all the
// searches together.
func swarmReport(reps []*report.Report) *report.Report {
	all := combineDeep(reps)
	for _, r := range reps {
		if r.Complete {
			out := *r
			out.Results = append([]report.IntentResult(nil), r.Results...)
			out.Stats = all.Stats
			return &out
		}
	}
	return all
}

// Fingerprint identifies what a swarm shard searched: the compiled
// model (the universe with its options, the initial state, the
// controllers, the intents) and the options that change the state space
// a search walks (reductions, storage, settling every intent). Shards
// of a merge must agree on it: a violation found by one of them is a
// violation of the others' model only then.
func (p *Problem) Fingerprint(opts checker.Options) string {
	h := sha256.New()
	fmt.Fprintln(h, "kivi swarm 1")
	writeJSON(h, p.System.U)
	fmt.Fprintln(h, model.Describe(p.System.U, p.System.Init))
	writeJSON(h, p.System.Init)
	for _, a := range p.System.Actors {
		fmt.Fprintln(h, "actor", a.Process.Name(), a.Gate)
	}
	for _, in := range p.Intents {
		fmt.Fprintln(h, "intent", in.Name, in.Internal, in.Kind, in.Explain, in.Marks)
	}
	fmt.Fprintln(h, "symmetry", !opts.NoSymmetry, "por", !opts.NoPOR, "storage", opts.Storage,
		"bitstate", opts.BitstateBits, opts.BitstateHashes, opts.Fingerprint64, "all", opts.CollectAll)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// writeJSON writes v's exported fields as JSON; a value JSON cannot
// carry (a function of a custom controller) is written by its type.
func writeJSON(w io.Writer, v any) {
	if err := json.NewEncoder(w).Encode(v); err != nil {
		fmt.Fprintf(w, "%T\n", v)
	}
}
