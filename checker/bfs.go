package checker

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// span is a run of consecutive entries of one frontier: the unit of work a
// BFS worker claims.
type span struct {
	f      *frontier
	lo, hi int
}

// runBFS explores level by level. Every worker expands states of level d
// and appends new states (level d+1) to its own output frontier; a barrier
// separates levels. Because the set of states at each depth does not
// depend on scheduling, parallel runs store the same states and find
// counterexamples of the same (shortest) length as sequential ones.
func (e *engine[S]) runBFS() {
	w0 := e.workers[0]
	if !e.addInitials(w0) {
		return
	}
	w0.flush()
	for depth := 0; ; depth++ {
		var level []*frontier
		total := 0
		for _, w := range e.workers {
			if w.out.len() > 0 {
				level = append(level, w.out)
				total += w.out.len()
			}
		}
		if total == 0 {
			return
		}
		if e.stopped() {
			return
		}
		if e.violationSeen.Load() {
			if !e.opts.CollectAll {
				e.halt(stopViolation)
				return
			}
			if e.allSafetyViolated() {
				e.halt(stopAllSettled)
				return
			}
		}
		e.depth.Store(int64(depth))
		e.maxDepth.Store(int64(depth))
		e.queue.Store(int64(total))
		// The outputs of the last level are this level's input; every
		// worker writes into its spare buffer.
		var inBytes int64
		for _, w := range e.workers {
			w.out, w.spare = w.spare, w.out
			w.out.reset()
			inBytes += w.spare.bytes()
		}
		e.levelFrontierBytes.Store(inBytes)
		e.visited.markLevel()
		spans := splitLevel(level, total, len(e.workers))
		lookupOnly := e.opts.MaxDepth > 0 && depth >= e.opts.MaxDepth
		var next atomic.Int64
		for {
			e.runLevel(spans, &next, depth, lookupOnly)
			if e.switchRequest.Load() && !e.stopped() {
				e.switchToBitstate()
				continue // resume the level where it stopped
			}
			break
		}
	}
}

// addInitials stores the initial states; false means the run is over.
func (e *engine[S]) addInitials(w *worker[S]) bool {
	ordinal := uint32(0)
	e.sys.Initial(func(s S) {
		w.addInitial(s, ordinal)
		ordinal++
	})
	e.initials = int(ordinal)
	if ordinal == 0 {
		e.fail(ErrNoInitialState)
		return false
	}
	return !e.stopped()
}

// splitLevel cuts a level into spans small enough to balance the workers
// and to react quickly to stop requests.
func splitLevel(level []*frontier, total, workers int) []span {
	size := min(max(total/(workers*32), 1), 512)
	spans := make([]span, 0, total/size+len(level))
	for _, f := range level {
		for lo := 0; lo < f.len(); lo += size {
			spans = append(spans, span{f: f, lo: lo, hi: min(lo+size, f.len())})
		}
	}
	return spans
}

// runLevel lets every worker claim spans until the level is exhausted, the
// run stops, or a switch to bitstate is requested (a claimed span is always
// finished, so the level can resume exactly).
func (e *engine[S]) runLevel(spans []span, next *atomic.Int64, depth int, lookupOnly bool) {
	work := func(w *worker[S]) {
		w.lookupOnly = lookupOnly
		defer w.flush()
		for !e.switchRequest.Load() && !e.stopped() {
			i := int(next.Add(1) - 1)
			if i >= len(spans) {
				return
			}
			sp := spans[i]
			before := w.out.len()
			for j := sp.lo; j < sp.hi; j++ {
				if e.stopped() {
					return
				}
				id, enc := sp.f.item(j)
				s, err := e.sys.Decode(enc)
				if err != nil {
					e.fail(fmt.Errorf("%w: state %x: %w", ErrDecode, enc, err))
					return
				}
				w.expand(s, id, depth)
			}
			w.flush()
			e.queue.Add(int64(w.out.len() - before - (sp.hi - sp.lo)))
			e.checkMemory()
		}
	}
	if len(e.workers) == 1 {
		work(e.workers[0])
		return
	}
	var wg sync.WaitGroup
	for _, w := range e.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	wg.Wait()
}
