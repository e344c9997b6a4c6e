package checker

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults applied to zero Options fields.
const (
	DefaultBitstateBits   uint64 = 1 << 30
	DefaultBitstateHashes uint   = 3
	DefaultProgressEvery         = time.Second
	// MaxWorkers caps Options.Workers (state ids reserve 8 bits for the
	// shard, and bitstate mode gives every worker its own shard).
	MaxWorkers = 1 << maxShardBits
)

// Check explores the state space of sys and decides every property of
// props. A non-nil error means the engine could not produce a trustworthy
// result (bad options, a System that broke its contract, a counterexample
// that failed replay); an inconclusive search is not an error but Unknown
// verdicts with a Reason. See the package documentation for the details.
func Check[S any](ctx context.Context, sys System[S], props Properties[S], opts Options) (Result[S], error) {
	opts, err := normalizeOptions(opts, props)
	if err != nil {
		return Result[S]{}, err
	}
	e := &engine[S]{
		props:       props,
		opts:        opts,
		recordEdges: len(props.Cycles) > 0 && opts.Storage != Bitstate,
		ranked:      opts.Strategy == BFS && opts.Workers > 1,
		start:       time.Now(),
		ctx:         ctx,
	}
	if opts.Timeout > 0 {
		e.deadline = e.start.Add(opts.Timeout)
		e.exploreDeadline = e.deadline
		if e.recordEdges {
			e.exploreDeadline = e.start.Add(opts.Timeout - opts.Timeout/cycleReserve)
		}
	}
	e.found = make([]atomic.Uint64, len(props.Invariants)+len(props.EndConditions))
	e.hooks = newHooks(sys, opts)
	mode := map[Storage]storeMode{Exact: modeExact, HashCompaction: modeHash, Bitstate: modeBits}[opts.Storage]
	// Hash compaction keeps the ids of stored states in the table only
	// when matched states must be identified (cycle edges, the POR
	// proviso).
	withIDs := e.recordEdges || e.ample != nil
	e.visited = newVisitedSet(mode, opts.Workers, withIDs, opts.Fingerprint64, opts.BitstateBits, opts.BitstateHashes)
	e.visited.mayGrow = e.tableMayGrow
	if opts.ExpectedStates > 0 {
		e.visited.prepareLevel(opts.ExpectedStates)
	}
	for i := range opts.Workers {
		e.workers = append(e.workers, newWorker(e, i))
	}
	e.useStoredFrontier()
	return e.run(func() {
		switch opts.Strategy {
		case DFS:
			e.runDFS()
		default:
			e.runBFS()
		}
	})
}

// run explores with the watchers running, then builds the result
// (traces replayed against the stored states) and frees the run's memory
// unless the result keeps it as a Continuation.
func (e *engine[S]) run(explore func()) (Result[S], error) {
	var background sync.WaitGroup
	done := make(chan struct{})
	e.watch(e.ctx, done, &background)
	explore()
	close(done)
	background.Wait()
	if e.err != nil {
		e.visited.free()
		return Result[S]{}, e.err
	}
	res, err := e.result()
	if err == nil && e.resumable() {
		res.Continuation = &Continuation[S]{e: e, at: e.resumeAt, elapsed: time.Since(e.start), states: res.Stats.States}
		return res, nil
	}
	e.visited.free()
	return res, err
}

func normalizeOptions[S any](o Options, props Properties[S]) (Options, error) {
	bad := func(format string, args ...any) (Options, error) {
		return o, fmt.Errorf("%w: "+format, append([]any{ErrBadOptions}, args...)...)
	}
	switch {
	case o.Strategy > DFS:
		return bad("unknown strategy %d", o.Strategy)
	case o.Storage > Bitstate:
		return bad("unknown storage %d", o.Storage)
	case o.Workers < 0, o.MaxStates < 0, o.ExpectedStates < 0, o.MaxDepth < 0, o.Timeout < 0, o.MaxMemory < 0, o.ProgressEvery < 0:
		return bad("negative worker count or bound")
	case o.BitstateHashes > 64:
		return bad("BitstateHashes %d > 64", o.BitstateHashes)
	}
	for _, inv := range props.Invariants {
		if inv.Holds == nil {
			return bad("invariant %q has no Holds", inv.Name)
		}
	}
	for _, end := range props.EndConditions {
		if end.Holds == nil {
			return bad("end condition %q has no Holds", end.Name)
		}
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	o.Workers = min(o.Workers, MaxWorkers)
	if o.Strategy == DFS {
		o.Workers = 1
	}
	if o.BitstateBits == 0 {
		o.BitstateBits = DefaultBitstateBits
	}
	if o.BitstateHashes == 0 {
		o.BitstateHashes = DefaultBitstateHashes
	}
	if o.ProgressEvery == 0 {
		o.ProgressEvery = DefaultProgressEvery
	}
	if o.rankParallelMin == 0 {
		o.rankParallelMin = defaultRankParallelMin
	}
	return o, nil
}

// watch starts the goroutines that turn cancellation, the timeout and the
// progress ticker into engine events. They end when done is closed.
func (e *engine[S]) watch(ctx context.Context, done <-chan struct{}, wg *sync.WaitGroup) {
	if err := ctx.Err(); err != nil {
		e.halt(causeOf(err))
	}
	var timeout <-chan time.Time
	var timer *time.Timer
	if !e.exploreDeadline.IsZero() {
		timer = time.NewTimer(time.Until(e.exploreDeadline))
		timeout = timer.C
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if timer != nil {
			defer timer.Stop()
		}
		select {
		case <-ctx.Done():
			e.halt(causeOf(ctx.Err()))
		case <-timeout:
			e.halt(stopTimeout)
		case <-done:
		}
	}()
	if e.opts.OnProgress == nil {
		return
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(e.opts.ProgressEvery)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				e.opts.OnProgress(e.progress())
			case <-done:
				e.opts.OnProgress(e.progress())
				return
			}
		}
	}()
}

func causeOf(err error) stopCause {
	if errors.Is(err, context.DeadlineExceeded) {
		return stopTimeout
	}
	return stopCancelled
}

func (e *engine[S]) progress() Progress {
	el := time.Since(e.start)
	p := Progress{
		States:      e.states.Load(),
		Transitions: e.transitions.Load(),
		Depth:       int(e.depth.Load()),
		Queue:       max(e.queue.Load(), 0),
		Elapsed:     el,
	}
	if el > 0 {
		p.StatesPerS = float64(p.States) / el.Seconds()
	}
	return p
}

// hooks are a System with its optional interfaces resolved for one run:
// the engine's own (for the initial states and traces) and each worker's
// (WorkerSystem).
type hooks[S any] struct {
	sys   System[S]
	canon Canonicalizer[S] // nil: no symmetry reduction
	ample AmpleSetter[S]   // nil: no partial-order reduction
	// canonEnc, when the Canonicalizer has it, encodes canonical forms
	// directly.
	canonEnc CanonicalEncoder[S]
	// repr, when the Canonicalizer has it, makes the engine explore
	// representatives: the frontier holds their encodings.
	repr RepresentativeEncoder[S]
	// next generates successors: the System's Next, or its
	// NextUpToSymmetry when the engine canonicalises.
	next func(S, func(Step, S))
	// ampleFilter, when the AmpleSetter has one, says which states are
	// worth collecting successors for.
	ampleFilter AmpleFilter[S]
	release     Releaser[S] // nil: decoded states are left to the GC
	copier      Copier[S]   // nil: successors kept for ample are decoded
}

func newHooks[S any](sys System[S], opts Options) hooks[S] {
	h := hooks[S]{sys: sys, next: sys.Next}
	if c, ok := sys.(Canonicalizer[S]); ok && !opts.NoSymmetry {
		h.canon = c
		h.canonEnc, _ = sys.(CanonicalEncoder[S])
		if r, ok := sys.(RepresentativeEncoder[S]); ok && r.ExploreRepresentatives() {
			h.repr = r
		}
	}
	if ss, ok := sys.(SymmetricSuccessors[S]); ok && h.canon != nil {
		h.next = ss.NextUpToSymmetry
	}
	if a, ok := sys.(AmpleSetter[S]); ok && !opts.NoPOR {
		h.ample = a
		h.ampleFilter, _ = sys.(AmpleFilter[S])
	}
	h.release, _ = sys.(Releaser[S])
	h.copier, _ = sys.(Copier[S])
	return h
}

// decodeQueued decodes a state of the frontier (or the DFS stack): a
// representative's encoding when the engine explores representatives.
func (h *hooks[S]) decodeQueued(enc []byte) (S, error) {
	if h.repr != nil {
		return h.repr.DecodeRepresentative(enc)
	}
	return h.sys.Decode(enc)
}

// workerHooks are the hooks of worker goroutine: its own System when the
// System has WorkerSystem, else the engine's.
func (e *engine[S]) workerHooks() hooks[S] {
	if f, ok := e.sys.(WorkerSystem[S]); ok {
		return newHooks(f.ForWorker(), e.opts)
	}
	return e.hooks
}
