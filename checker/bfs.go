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
	e.visited.enter()
	ok := e.addInitials(w0)
	e.visited.leave()
	if !ok {
		return
	}
	var prevIn, prevNew int64 // last level: states expanded, states stored
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
			inBytes += w.spare.contentBytes()
		}
		e.levelFrontierBytes.Store(inBytes)
		e.visited.markLevel()
		mark := e.markLevel()
		// Size the table for this level's expected new states (the last
		// level's growth ratio, at most 2), so that workers rarely pause to
		// resize; a level that outgrows the estimate resizes as it goes.
		expected := int64(total)
		if prevIn > 0 {
			expected = int64(float64(total) * min(float64(prevNew)/float64(prevIn), 2))
		}
		e.visited.prepareLevel(expected)
		for _, w := range e.workers {
			w.flush()
		}
		spans := splitLevel(level, total, len(e.workers))
		lookupOnly := e.opts.MaxDepth > 0 && depth >= e.opts.MaxDepth
		for {
			var next atomic.Int64
			e.runLevel(spans, &next, depth, lookupOnly)
			if e.stopped() {
				break
			}
			// The switch decision is taken on the level as a whole: a
			// request made during the level means the budget would be
			// exceeded at its end too (the charged memory only grows), and
			// the end-of-level figure is deterministic. The level's new
			// states are forgotten and the level is explored again in
			// bitstate mode, so the bit array starts from exactly the
			// states of depth <= d whatever the scheduling.
			if e.visited.mode != modeBits && (e.switchRequest.Load() || e.overBudget()) {
				e.rollbackLevel(mark)
				e.switchToBitstate()
				continue
			}
			if e.visited.mode == modeBits && e.overBudget() {
				e.halt(stopMemory)
			}
			break
		}
		prevIn, prevNew = int64(total), 0
		for _, w := range e.workers {
			prevNew += int64(w.out.len())
		}
	}
}

// levelMark is what a level's rollback restores.
type levelMark struct {
	states, matched, transitions, stateCount, queue int64
	edges                                           []int
}

func (e *engine[S]) markLevel() levelMark {
	m := levelMark{
		states: e.states.Load(), matched: e.matched.Load(), transitions: e.transitions.Load(),
		stateCount: e.stateCount.Load(), queue: e.queue.Load(),
	}
	for _, w := range e.workers {
		m.edges = append(m.edges, w.edges.len())
	}
	return m
}

// rollbackLevel undoes the current level: states it stored, their parent
// records, violations found in them, edges and counters. No worker runs.
func (e *engine[S]) rollbackLevel(m levelMark) {
	for p := range e.found {
		if v := e.found[p].Load(); v != 0 && !e.visited.storedBeforeLevel(stateID(v-1)) {
			e.found[p].Store(0)
			e.foundCount.Add(-1)
		}
	}
	e.violationSeen.Store(e.foundCount.Load() > 0)
	e.visited.rollbackLevel(func(yield func([]byte)) {
		for _, w := range e.workers {
			for i := range w.out.len() {
				_, enc := w.out.item(i)
				yield(e.keyOfEncoding(enc))
			}
		}
	})
	for i, w := range e.workers {
		w.out.reset()
		w.edges.truncate(m.edges[i])
		w.flush()
	}
	e.states.Store(m.states)
	e.matched.Store(m.matched)
	e.transitions.Store(m.transitions)
	e.stateCount.Store(m.stateCount)
	e.queue.Store(m.queue)
}

// keyOfEncoding is the deduplication key of a stored concrete encoding.
func (e *engine[S]) keyOfEncoding(enc []byte) []byte {
	if e.canon == nil {
		return enc
	}
	s, err := e.sys.Decode(enc)
	if err != nil {
		e.fail(fmt.Errorf("%w: state %x: %w", ErrDecode, enc, err))
		return enc
	}
	return e.keyOf(s)
}

// addInitials stores the initial states; false means the run is over.
// Once the run stops, the remaining initial states are ignored.
func (e *engine[S]) addInitials(w *worker[S]) bool {
	n := 0
	w.halted = false
	e.sys.Initial(func(s S) {
		n++
		if w.halted || e.stopped() {
			return
		}
		w.addInitial(s, uint32(min(n-1, maxOrdinal+1)))
		if n%pollEvery == 0 {
			w.poll()
		}
	})
	w.halted = false
	w.flush()
	if n == 0 {
		e.fail(ErrNoInitialState)
		return false
	}
	return !e.expired()
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
// run stops, or a switch to bitstate is requested (the level is then
// rolled back and explored again, so work in progress may be dropped).
func (e *engine[S]) runLevel(spans []span, next *atomic.Int64, depth int, lookupOnly bool) {
	work := func(w *worker[S]) {
		w.lookupOnly = lookupOnly
		e.visited.enter()
		defer e.visited.leave()
		defer w.flush()
		for !e.switchRequest.Load() && !e.stopped() {
			i := int(next.Add(1) - 1)
			if i >= len(spans) {
				return
			}
			sp := spans[i]
			before := w.out.len()
			for j := sp.lo; j < sp.hi; j++ {
				if e.stopped() || e.switchRequest.Load() {
					return
				}
				id, enc := sp.f.item(j)
				s, err := e.sys.Decode(enc)
				if err != nil {
					e.fail(fmt.Errorf("%w: state %x: %w", ErrDecode, enc, err))
					return
				}
				w.expand(s, id, depth)
				if e.release != nil {
					e.release.Release(s)
				}
			}
			w.flush()
			e.queue.Add(int64(w.out.len() - before - (sp.hi - sp.lo)))
			e.checkMemory()
			e.expired()
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
