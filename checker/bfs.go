package checker

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// span is a run of consecutive entries of one frontier, or in a ranked run
// (f nil) of consecutive ranks of the level: the unit of work a BFS worker
// claims.
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
	if e.opts.Resumable {
		e.visited.markLevel()
		e.keepResumePoint(initialLevel, 0, 0)
		e.resumeAt.mark, e.resumeAt.started = e.markLevel(), true
	}
	e.visited.enter()
	ok := e.addInitials(w0)
	e.visited.leave()
	if !ok {
		return
	}
	e.runLevels(0, 0, 0)
}

// runLevels explores from level depth, whose states are queued in the
// workers' out frontiers; prevIn and prevNew are the last level's states
// expanded and stored (0 for the first).
func (e *engine[S]) runLevels(depth int, prevIn, prevNew int64) {
	for ; ; depth++ {
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
			// Cut short, the last level is the one a resumed run starts
			// with.
			return
		}
		if e.opts.Resumable {
			e.keepResumePoint(depth, prevIn, prevNew)
			if e.stopBeforeLevel(total) {
				return
			}
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
		// The last level's input is expanded: its chunks are freed (the
		// small heap ones kept for reuse, frontier.recycle), and
		// after a switch to bitstate so are the encodings it referred to.
		var inBytes int64
		for _, w := range e.workers {
			w.out, w.spare = w.spare, w.out
			w.out.recycle()
			inBytes += w.spare.contentBytes()
		}
		if e.visited.mode == modeBits && !e.queuesStored() {
			e.visited.releaseKept()
		}
		e.levelFrontierBytes.Store(inBytes)
		e.levelStates.Store(int64(total))
		e.visited.markLevel()
		mark := e.markLevel()
		if e.opts.Resumable {
			e.resumeAt.mark, e.resumeAt.started = mark, true
		}
		// Size the table for this level's expected new states (the last
		// level's growth ratio, at most 2), so that workers rarely pause to
		// resize; a level that outgrows the estimate resizes as it goes.
		expected := int64(total)
		if prevIn > 0 {
			expected = int64(float64(total) * min(float64(prevNew)/float64(prevIn), 2))
		}
		if hint := e.opts.ExpectedStates; hint > 0 {
			// The caller's total bounds the estimate: a table sized for it
			// is not grown (and rehashed) for an overestimated level. A
			// run that outgrows it grows the table as it goes.
			expected = min(expected, max(hint-e.visited.count(), 0))
		}
		e.visited.prepareLevel(expected)
		for _, w := range e.workers {
			w.flush()
		}
		var spans []span
		if e.ranked {
			if depth == 0 {
				// The initial states are queued in Initial's order.
				e.order = resizeScratch(e.visited.mem, e.order, total)[:0]
				for i, w := range e.workers {
					for j := range w.spare.len() {
						e.order = append(e.order, uint64(i)<<32|uint64(j))
					}
				}
			}
			spans = splitRanks(total, len(e.workers))
		} else {
			spans = splitLevel(level, total, len(e.workers))
		}
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
				// The switch re-derives the key of every state of the
				// level and rebuilds the visited set: it is charged to the
				// deadline and ctx like the exploration, and a run that
				// expires during it ends with the level as explored.
				if e.expired() || !e.rollbackLevel(mark) || !e.switchToBitstate() {
					break
				}
				continue
			}
			if e.visited.mode == modeBits && e.overBudget() {
				e.halt(stopMemory)
			}
			break
		}
		if e.ranked {
			e.finishLevel()
		}
		if !e.stopped() && !lookupOnly && !e.switched {
			e.expandedLevels.Store(int64(depth) + 1)
		}
		prevIn, prevNew = int64(total), 0
		for _, w := range e.workers {
			prevNew += int64(w.out.len())
		}
	}
}

// queuesStored reports whether a queued state refers to an encoding the
// visited set stored (pushStored).
func (e *engine[S]) queuesStored() bool {
	for _, w := range e.workers {
		if w.spare.ids.len() > 0 || w.out.ids.len() > 0 {
			return true
		}
	}
	return false
}

// levelMark is what a level's rollback restores.
type levelMark struct {
	states, matched, transitions, stateCount, queue int64
	ampleExpansions, provisoExpansions              int64
	edges                                           []int
	// found is engine.found before the level: a deadlock found while
	// expanding the level is a state stored before it.
	found []uint64
}

func (e *engine[S]) markLevel() levelMark {
	m := levelMark{
		states: e.states.Load(), matched: e.matched.Load(), transitions: e.transitions.Load(),
		stateCount: e.stateCount.Load(), queue: e.queue.Load(),
		ampleExpansions: e.ampleExpansions.Load(), provisoExpansions: e.provisoExpansions.Load(),
	}
	for _, w := range e.workers {
		m.edges = append(m.edges, w.edges.len())
	}
	for i := range e.found {
		m.found = append(m.found, e.found[i].Load())
	}
	return m
}

// rollbackLevel undoes the current level: states it stored, their parent
// records, violations found in them, edges and counters. No worker runs.
// It reports false when the run expired first (deadline or ctx, polled
// every 256 states: each costs a decoding and a canonicalisation, far more
// than a look at the clock): the level then stays as explored, but for the
// table slots already marked, which nothing reads once the run is over.
func (e *engine[S]) rollbackLevel(m levelMark) bool {
	done := e.visited.rollbackLevel(func(yield func([]byte)) bool {
		n := 0
		for _, w := range e.workers {
			for i := range w.out.len() {
				if n++; n%256 == 0 && e.expired() {
					return false
				}
				_, enc := w.out.item(i)
				yield(e.keyOfEncoding(enc))
			}
		}
		return true
	})
	if !done {
		return false
	}
	count := int32(0)
	for p, v := range m.found {
		e.found[p].Store(v)
		if v != 0 {
			count++
		}
	}
	e.foundCount.Store(count)
	e.violationSeen.Store(count > 0)
	for i, w := range e.workers {
		w.out.release()
		w.edges.truncate(m.edges[i])
		w.cands, w.fixups, w.fixBuf = w.cands[:0], w.fixups[:0], w.fixBuf[:0]
		w.flush()
	}
	e.states.Store(m.states)
	e.matched.Store(m.matched)
	e.transitions.Store(m.transitions)
	e.stateCount.Store(m.stateCount)
	e.queue.Store(m.queue)
	e.ampleExpansions.Store(m.ampleExpansions)
	e.provisoExpansions.Store(m.provisoExpansions)
	return true
}

// keyOfEncoding is the deduplication key of a queued state's encoding.
func (e *engine[S]) keyOfEncoding(enc []byte) []byte {
	if e.canon == nil {
		return enc
	}
	s, err := e.decodeQueued(enc)
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

// splitRanks cuts the ranks of a level like splitLevel cuts frontiers.
func splitRanks(total, workers int) []span {
	size := min(max(total/(workers*32), 1), 512)
	spans := make([]span, 0, total/size+1)
	for lo := 0; lo < total; lo += size {
		spans = append(spans, span{lo: lo, hi: min(lo+size, total)})
	}
	return spans
}

// runLevel lets every worker claim spans until the level is exhausted, the
// run stops, or a switch to bitstate is requested (the level is then
// rolled back and explored again, so work in progress may be dropped).
func (e *engine[S]) runLevel(spans []span, next *atomic.Int64, depth int, lookupOnly bool) {
	// The level's input frontiers, read here rather than from the
	// workers, whose fields their owners write all the time.
	inputs := make([]*frontier, len(e.workers))
	for i, w := range e.workers {
		inputs[i] = w.spare
	}
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
				f, pos := sp.f, j
				if f == nil {
					ref := e.order[j]
					f, pos = inputs[ref>>32], int(uint32(ref))
					w.rank = uint64(j)
				}
				id, enc := f.item(pos)
				s, err := w.decodeQueued(enc)
				if err != nil {
					e.fail(fmt.Errorf("%w: state %x: %w", ErrDecode, enc, err))
					return
				}
				w.expand(s, id, depth)
				if w.release != nil {
					w.release.Release(s)
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

// finishLevel ends a level of a ranked run, once no worker runs. The
// states stored during the level (the next level) are ranked as a
// one-worker run queues them: by the smallest (parent rank, ordinal) over
// their predecessors, which their parent records hold (store). A
// one-worker run expands its level in that order and each state's
// successors in emission order, so it stores each state from that
// predecessor and finds the violations in that order. Here the parent
// records become (parent id, ordinal) again; each property violated
// during the level keeps the candidate a one-worker run finds first; and
// under symmetry each new state is queued as the concrete state that
// predecessor reached. This runs also when the level was cut short (the
// parent records must name states), but then the ranks are not those of
// a finished level.
func (e *engine[S]) finishLevel() {
	e.chooseViolations()
	if e.canon != nil {
		e.applyFixups()
	}
	e.rankLevel()
}

func (e *engine[S]) chooseViolations() {
	type best struct {
		id  stateID
		key uint64
		ok  bool
	}
	var bests []best
	for _, w := range e.workers {
		for _, c := range w.cands {
			if e.found[c.p].Load() != 0 {
				continue
			}
			if bests == nil {
				bests = make([]best, len(e.found))
			}
			key := c.key
			if !c.end {
				key = uint64(e.visited.parentOf(c.id))
			}
			if b := &bests[c.p]; !b.ok || key < b.key {
				*b = best{id: c.id, key: key, ok: true}
			}
		}
		w.cands = w.cands[:0]
	}
	for p, b := range bests {
		if b.ok {
			e.recordViolation(p, b.id)
		}
	}
}

// applyFixups queues each state whose parent record was lowered as the
// concrete state its final parent reached.
func (e *engine[S]) applyFixups() {
	for _, w := range e.workers {
		for _, fx := range w.fixups {
			if uint64(e.visited.parentOf(fx.id)) != fx.key {
				continue
			}
			owner := fx.id.shard()
			pos := int(fx.id.local() - e.visited.shards[owner].level)
			e.workers[owner].out.replace(pos, w.fixBuf[fx.off:fx.off+fx.n])
		}
		w.fixups, w.fixBuf = w.fixups[:0], w.fixBuf[:0]
	}
}

// idAtRank is the id of the state of rank r in the level being expanded.
func (e *engine[S]) idAtRank(r uint64) stateID {
	ref := e.order[r]
	return e.workers[ref>>32].spare.idAt(int(uint32(ref)))
}

// rankLevel sorts the new level by (parent rank, ordinal), a counting
// sort by parent rank, then by ordinal among the few successors of one
// parent, and turns the parent records back into (parent id, ordinal).
// Next, the order of the new level, packs (ordinal, worker, position)
// while sorting, so that a parent's states sort as plain integers.
func (e *engine[S]) rankLevel() {
	n := 0
	for _, w := range e.workers {
		n += w.out.len()
	}
	prev := len(e.order)
	next := resizeScratch(e.visited.mem, e.orderNext, n)
	if uint64(n) > math.MaxUint32 {
		e.rankLevelLarge(next)
		return
	}
	counts := resizeScratch(e.visited.mem, e.counts, prev+1)
	if n >= e.opts.rankParallelMin {
		e.rankLevelParallel(next, counts)
		return
	}
	clear(counts)
	for _, w := range e.workers {
		for j := range w.out.len() {
			counts[e.visited.parentOf(w.out.idAt(j)).parent()+1]++
		}
	}
	for r := range prev {
		counts[r+1] += counts[r]
	}
	for i, w := range e.workers {
		for j := range w.out.len() {
			id := w.out.idAt(j)
			rec := e.visited.parentOf(id)
			r := uint64(rec.parent())
			next[counts[r]] = uint64(rec.ordinal())<<(32+maxShardBits) | uint64(i)<<32 | uint64(j)
			counts[r]++
			e.visited.setParent(id, makeParent(e.idAtRank(r), rec.ordinal()))
		}
	}
	// counts[r] is now the end of parent r's states.
	lo := uint32(0)
	for r := range prev {
		hi := counts[r]
		if hi-lo > 1 {
			slices.Sort(next[lo:hi])
		}
		lo = hi
	}
	for k := range next {
		next[k] &= 1<<(32+maxShardBits) - 1
	}
	e.order, e.orderNext, e.counts = next, e.order, counts
	e.freeRankScratch()
}

// rankLevelParallel is rankLevel's counting sort with the workers'
// goroutines: each counts its own new states by parent rank, the counts
// become, for each parent rank and then each worker, where that worker's
// states of that parent go (the order rankLevel places them in), each
// worker places its states and sets their parent records (in its own
// slab), and the parents' groups are sorted and masked in slices of
// ranks. The result is rankLevel's, position for position.
func (e *engine[S]) rankLevelParallel(next []uint64, start []uint32) {
	prev := len(e.order)
	mem := e.visited.mem
	for _, w := range e.workers {
		w.rankOff = resizeScratch(mem, w.rankOff, prev)
	}
	e.parallel(func(i int) {
		w := e.workers[i]
		off := w.rankOff
		clear(off)
		for j := range w.out.len() {
			off[e.visited.parentOf(w.out.idAt(j)).parent()]++
		}
	})
	// Parent rank r's states start at start[r]; worker i's of them at
	// its rankOff[r] (workers in order, as rankLevel places them).
	pos := uint32(0)
	for r := range prev {
		start[r] = pos
		for _, w := range e.workers {
			c := w.rankOff[r]
			w.rankOff[r] = pos
			pos += c
		}
	}
	start[prev] = pos
	e.parallel(func(i int) {
		w := e.workers[i]
		off := w.rankOff
		for j := range w.out.len() {
			id := w.out.idAt(j)
			rec := e.visited.parentOf(id)
			r := uint64(rec.parent())
			next[off[r]] = uint64(rec.ordinal())<<(32+maxShardBits) | uint64(i)<<32 | uint64(j)
			off[r]++
			e.visited.setParent(id, makeParent(e.idAtRank(r), rec.ordinal()))
		}
	})
	e.parallel(func(i int) {
		lo, hi := prev*i/len(e.workers), prev*(i+1)/len(e.workers)
		for r := lo; r < hi; r++ {
			if a, b := start[r], start[r+1]; b-a > 1 {
				slices.Sort(next[a:b])
			}
		}
		for k := start[lo]; k < start[hi]; k++ {
			next[k] &= 1<<(32+maxShardBits) - 1
		}
	})
	e.order, e.orderNext, e.counts = next, e.order, start
	e.freeRankScratch()
}

// parallel runs f(i) for every worker index i, each on a goroutine of
// its own, and waits for them; no worker may be running.
func (e *engine[S]) parallel(f func(i int)) {
	var wg sync.WaitGroup
	for i := range e.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}

// rankLevelLarge is rankLevel for a level too large for 32-bit counts: a
// comparison sort.
func (e *engine[S]) rankLevelLarge(next []uint64) {
	k := 0
	for i, w := range e.workers {
		for j := range w.out.len() {
			next[k] = uint64(i)<<32 | uint64(j)
			k++
		}
	}
	key := func(ref uint64) parentRecord {
		return e.visited.parentOf(e.workers[ref>>32].out.idAt(int(uint32(ref))))
	}
	slices.SortFunc(next, func(a, b uint64) int { return cmp.Compare(key(a), key(b)) })
	for _, ref := range next {
		id := e.workers[ref>>32].out.idAt(int(uint32(ref)))
		rec := e.visited.parentOf(id)
		e.visited.setParent(id, makeParent(e.idAtRank(uint64(rec.parent())), rec.ordinal()))
	}
	e.order, e.orderNext = next, e.order
	e.freeRankScratch()
}

// freeRankScratch frees what ranking a level needed besides the new
// order: the memory budget charges the ranking of the next level while
// it is expanded (engine.memoryInUse), not what the last one left.
func (e *engine[S]) freeRankScratch() {
	mem := e.visited.mem
	freeSlice(mem, e.orderNext)
	freeSlice(mem, e.counts)
	e.orderNext, e.counts = nil, nil
	for _, w := range e.workers {
		freeSlice(mem, w.rankOff)
		w.rankOff = nil
	}
}

// resizeScratch returns a block of n elements from h for scratch whose
// contents need not survive: s when it is not much larger (its pages
// were written, and take memory), else a new one, s being freed first.
func resizeScratch[T any](h *offHeap, s []T, n int) []T {
	if n <= cap(s) && cap(s) <= n+n/4+1024 {
		return s[:n]
	}
	freeSlice(h, s)
	return allocSlice[T](h, n)
}
