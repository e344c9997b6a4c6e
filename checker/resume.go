package checker

import (
	"context"
	"fmt"
	"time"
)

// Continuation is the exploration of a breadth-first run that MaxStates
// or Timeout stopped (Options.Resumable): the states stored before the
// level under way when it stopped, and that level's queue. Resume goes on
// from there. It holds the run's memory (the visited set, the parent
// records, the frontier) until Resume or Release.
type Continuation[S any] struct {
	e       *engine[S]
	at      resumePoint
	elapsed time.Duration
	states  int64
}

// resumePoint is where a resumed run starts: the beginning of the level
// at depth. Once the level started (started), mark is what rolling back
// its states and counters restores; before, the level is queued and
// nothing is to be undone.
type resumePoint struct {
	mark            levelMark
	started         bool
	depth           int
	prevIn, prevNew int64
	// order is the level's ranking (ranked runs), which finishing the
	// cut level overwrites.
	order []uint64
}

// initialLevel is the depth of a resume point before the initial
// states: the run starts again from Initial.
const initialLevel = -1

// keepResumePoint notes the start of the level at depth, before it
// starts.
func (e *engine[S]) keepResumePoint(depth int, prevIn, prevNew int64) {
	rp := resumePoint{depth: depth, prevIn: prevIn, prevNew: prevNew, order: e.resumeAt.order[:0]}
	if e.ranked {
		rp.order = append(rp.order, e.order...)
	}
	e.resumeAt, e.resumeOK = rp, true
}

// resumable reports whether the run can go on: it asked to, stopped at a
// bound a later run may raise (states, time) during the breadth-first
// levels, and stores states exactly without edges to analyse.
func (e *engine[S]) resumable() bool {
	c := e.cause()
	return e.opts.Resumable && e.resumeOK && e.opts.Strategy == BFS && e.visited.mode == modeExact &&
		!e.recordEdges && !e.switched && !e.switchRequest.Load() && (c == stopStateBound || c == stopTimeout)
}

// States is the number of states the continuation keeps: those stored
// before the level a resumed run starts with, and that level's.
func (c *Continuation[S]) States() int64 {
	if c.at.started {
		return c.at.mark.states
	}
	return c.states
}

// MemoryInUse is the memory the continuation holds, as Options.MaxMemory
// charges it.
func (c *Continuation[S]) MemoryInUse() int64 {
	if c == nil || c.e == nil {
		return 0
	}
	return c.e.memoryInUse()
}

// Release frees the continuation's memory; it cannot be resumed after.
// Releasing twice, or a continuation Resume used, does nothing.
func (c *Continuation[S]) Release() {
	if c == nil || c.e == nil {
		return
	}
	c.e.visited.free()
	c.e = nil
}

// Resume goes on with the run c was taken from: the level under way when
// it stopped is explored again from its start, then the levels after it,
// as the run would have with opts' bounds. opts may change MaxStates,
// Timeout, MaxMemory, ExpectedStates, Resumable and the progress
// reporting; every other field must be the first run's (normalized: a
// Workers of 0 is GOMAXPROCS). A breadth-first run is deterministic, so
// the result is the one a single run with opts gives: the same states,
// verdicts and traces. Its Stats count the whole exploration, and its
// Elapsed both runs' time. Resume uses c up, whatever its outcome.
func Resume[S any](ctx context.Context, c *Continuation[S], opts Options) (Result[S], error) {
	if c == nil || c.e == nil {
		return Result[S]{}, fmt.Errorf("%w: a continuation that was released or already resumed", ErrBadOptions)
	}
	e := c.e
	opts, err := normalizeOptions(opts, e.props)
	if err != nil {
		c.Release()
		return Result[S]{}, err
	}
	if !sameExploration(e.opts, opts) {
		c.Release()
		return Result[S]{}, fmt.Errorf("%w: Resume may change only the bounds and the progress reporting of the run it goes on with", ErrBadOptions)
	}
	c.e = nil
	e.opts = opts
	e.ctx = ctx
	e.start = time.Now().Add(-c.elapsed)
	e.deadline = time.Time{}
	if opts.Timeout > 0 {
		e.deadline = time.Now().Add(opts.Timeout)
	}
	e.exploreDeadline = e.deadline // a resumable run records no edges
	e.stop.Store(uint32(stopNone))
	e.resumeOK = false
	// The stop may have unwound a System's Next (abandonExpansion): each
	// worker gets a System of its own again, as a new run's workers do.
	for _, w := range e.workers {
		w.hooks = e.workerHooks()
	}
	at := c.at
	return e.run(func() {
		if !at.started {
			e.runLevels(at.depth, at.prevIn, at.prevNew)
			return
		}
		if !e.rollbackLevel(at.mark) {
			return
		}
		e.visited.rebuild()
		if at.depth == initialLevel {
			e.runBFS()
			return
		}
		for _, w := range e.workers {
			w.out, w.spare = w.spare, w.out
		}
		if e.ranked {
			e.order = resizeScratch(e.visited.mem, e.order, len(at.order))
			copy(e.order, at.order)
		}
		e.runLevels(at.depth, at.prevIn, at.prevNew)
	})
}

// sameExploration reports whether b explores as a does: every option but
// the bounds (MaxStates, Timeout, MaxMemory, ExpectedStates), Resumable
// and the progress reporting is equal.
func sameExploration(a, b Options) bool {
	return a.Strategy == b.Strategy && a.Storage == b.Storage && a.Workers == b.Workers &&
		a.MaxDepth == b.MaxDepth && a.BitstateBits == b.BitstateBits && a.BitstateHashes == b.BitstateHashes &&
		a.Fingerprint64 == b.Fingerprint64 && a.Seed == b.Seed && a.CollectAll == b.CollectAll &&
		a.NoSymmetry == b.NoSymmetry && a.NoPOR == b.NoPOR && a.NoLines == b.NoLines &&
		a.rankParallelMin == b.rankParallelMin
}

// stopBeforeLevel stops a resumable run with a deadline before a level
// of total states that it would not finish in time at the pace of the
// levels before it: the time is left to its caller, and a continuation
// keeps every state the run stored, where a level cut short is rolled
// back.
func (e *engine[S]) stopBeforeLevel(total int) bool {
	if e.deadline.IsZero() {
		return false
	}
	expanded := e.states.Load() - int64(total)
	if expanded <= 0 {
		return false
	}
	now := time.Now()
	perState := now.Sub(e.start) / time.Duration(expanded)
	if now.Add(perState * time.Duration(total)).After(e.deadline) {
		e.halt(stopTimeout)
	}
	return e.stopped()
}
