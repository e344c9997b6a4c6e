package checker

import "fmt"

// runDFS explores depth first on one worker (DFS is inherently
// sequential; use BFS for parallel runs). Successors are stored when they
// are generated and pushed on an explicit stack of encodings, so the stack
// costs no heap object per state.
func (e *engine[S]) runDFS() {
	w := e.workers[0]
	e.visited.enter()
	defer e.visited.leave()
	if !e.addInitials(w) {
		return
	}
	stack := w.out
	var scratch []byte
	for n := 0; stack.len() > 0; n++ {
		if n&255 == 0 {
			w.flush()
			e.queue.Store(int64(stack.len()))
			e.checkMemory()
			e.expired()
			if e.switchRequest.Load() && !e.stopped() {
				e.switchToBitstate()
			}
		}
		if e.stopped() {
			break
		}
		id, enc, depth := stack.pop()
		// The next push overwrites enc, and Decode may alias its input.
		scratch = append(scratch[:0], enc...)
		s, err := w.decodeQueued(scratch)
		if err != nil {
			e.fail(fmt.Errorf("%w: state %x: %w", ErrDecode, scratch, err))
			break
		}
		if int64(depth) > e.maxDepth.Load() {
			e.maxDepth.Store(int64(depth))
			e.depth.Store(int64(depth))
		}
		w.lookupOnly = e.opts.MaxDepth > 0 && int(depth) >= e.opts.MaxDepth
		w.expand(s, id, int(depth))
		if w.release != nil {
			w.release.Release(s)
		}
		if e.violationSeen.Load() && e.opts.CollectAll && e.allSafetyViolated() {
			e.halt(stopAllSettled)
		}
	}
	w.flush()
}
