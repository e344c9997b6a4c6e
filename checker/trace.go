package checker

import (
	"bytes"
	"fmt"
	"slices"
)

// hop is one step of a trace plan: take the successor with this ordinal
// (position in Next's emission order), which must be the stored state dst.
// Cycle edges also fix the step's marks. With symmetry a replayed state
// may be a permutation of the one that was expanded, so ordinals can
// differ; then the successor is found by its canonical key instead.
type hop struct {
	ordinal   uint32
	dst       stateID
	marks     uint32
	wantMarks bool
}

// tracePlan is a counterexample as stored data, before replay.
type tracePlan struct {
	rootOrdinal uint32
	root        stateID
	hops        []hop
	loopStart   int // -1: not a lasso
}

// planTo follows parent records from id back to an initial state.
func (e *engine[S]) planTo(id stateID) tracePlan {
	var hops []hop
	for {
		rec := e.visited.parentOf(id)
		if rec.isRoot() {
			slices.Reverse(hops)
			return tracePlan{rootOrdinal: rec.ordinal(), root: id, hops: hops, loopStart: -1}
		}
		hops = append(hops, hop{ordinal: rec.ordinal(), dst: id})
		id = rec.parent()
	}
}

// candidate is one successor collected during replay.
type candidate struct {
	step Step
	enc  []byte
}

// replay re-executes a plan through the System and returns the concrete
// trace. Every state is checked against the stored key of the state the
// search recorded (when the storage still holds keys). Only the successor
// a hop names is kept (the others are encoded only when it does not
// match), so a state with millions of successors costs time, not memory.
func (e *engine[S]) replay(p tracePlan) (Trace[S], error) {
	if e.repr != nil {
		return e.replayRepresentatives(p)
	}
	tr, cur, err := e.traceRoot(p, func(_ S, enc []byte) bool { return e.storedAs(p.root, enc) })
	if err != nil {
		return tr, err
	}
	explainer := e.explainer()
	for i, h := range p.hops {
		ok := func(c candidate) bool {
			return (!h.wantMarks || c.step.Marks == h.marks) && e.storedAs(h.dst, c.enc)
		}
		var chosen *candidate
		var count uint32
		e.next(cur, func(st Step, t S) {
			if count == h.ordinal {
				c := candidate{step: st, enc: e.sys.AppendEncoding(nil, t)}
				if ok(c) {
					chosen = &c
				}
			}
			count++
		})
		if chosen == nil && e.visited.mode != modeBits {
			// Under symmetry a replayed state may be a permutation of
			// the expanded one: the successor is found by its key.
			var buf []byte
			e.next(cur, func(st Step, t S) {
				if chosen != nil {
					return
				}
				buf = e.sys.AppendEncoding(buf[:0], t)
				if c := (candidate{step: st, enc: buf}); ok(c) {
					c.enc = append([]byte(nil), buf...)
					chosen = &c
				}
			})
		}
		if chosen == nil {
			return tr, fmt.Errorf("%w: step %d (successor %d of %d) does not reach the stored state", ErrInvalidTrace, i+1, h.ordinal, count)
		}
		var err error
		if cur, err = e.appendStep(&tr, cur, chosen, explainer); err != nil {
			return tr, err
		}
	}
	return tr, nil
}

// traceRoot starts the trace of plan p at its initial state, which
// stored (given the state and its encoding) must find stored as the
// plan's root; it returns the trace and that state, decoded from its
// encoding.
func (e *engine[S]) traceRoot(p tracePlan, stored func(S, []byte) bool) (Trace[S], S, error) {
	tr := Trace[S]{LoopStart: p.loopStart}
	var root []byte
	ok := false
	if err := e.initialOf(p, func(s S) {
		root = e.sys.AppendEncoding(nil, s)
		ok = stored(s, root)
	}); err != nil {
		return tr, tr.Initial, err
	}
	if !ok {
		return tr, tr.Initial, fmt.Errorf("%w: initial state %d does not match the stored state", ErrInvalidTrace, p.rootOrdinal)
	}
	cur, err := e.sys.Decode(root)
	if err != nil {
		return tr, cur, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	tr.Initial = cur
	return tr, cur, nil
}

// initialOf calls f with the plan's initial state.
func (e *engine[S]) initialOf(p tracePlan, f func(S)) error {
	n := uint32(0)
	e.sys.Initial(func(s S) {
		if n == p.rootOrdinal {
			f(s)
		}
		n++
	})
	if n <= p.rootOrdinal {
		return fmt.Errorf("%w: initial state %d of %d", ErrInvalidTrace, p.rootOrdinal, n)
	}
	return nil
}

// explainer is the System as an Explainer, or nil when it is not one or
// the run leaves lines out (Options.NoLines).
func (e *engine[S]) explainer() Explainer[S] {
	if x, ok := e.sys.(Explainer[S]); ok && !e.opts.NoLines {
		return x
	}
	return nil
}

// appendStep appends the step to the chosen successor of cur to tr, with
// its explanation, and returns that successor.
func (e *engine[S]) appendStep(tr *Trace[S], cur S, chosen *candidate, explainer Explainer[S]) (S, error) {
	next, err := e.sys.Decode(chosen.enc)
	if err != nil {
		return next, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	ts := TraceStep[S]{Step: chosen.step, State: next}
	if explainer != nil {
		ts.Lines = explainer.Explain(cur, ts.Step)
	}
	tr.Steps = append(tr.Steps, ts)
	return next, nil
}

// replayRepresentatives is replay for a run that explored
// representatives: a hop's ordinal names a successor of the
// representative, not of the concrete state the trace is at. The trace
// takes the first concrete successor with the hop's key (and marks); the
// System's symmetry makes one exist. Exact storage holds every key, so
// the hops are read from it; lossy storage keeps no key to read, so the
// plan is followed on the representatives, which gives each hop's key.
func (e *engine[S]) replayRepresentatives(p tracePlan) (Trace[S], error) {
	if e.visited.mode == modeExact {
		return e.replayStoredKeys(p)
	}
	var tr Trace[S]
	tr.LoopStart = p.loopStart
	var root, repKey, repEnc []byte
	if err := e.initialOf(p, func(s S) {
		root = e.sys.AppendEncoding(nil, s)
		repKey, repEnc = e.repr.AppendRepresentative(nil, nil, s)
	}); err != nil {
		return tr, err
	}
	if !e.keyStoredAs(p.root, repKey) {
		return tr, fmt.Errorf("%w: initial state %d does not match the stored state", ErrInvalidTrace, p.rootOrdinal)
	}
	cur, err := e.sys.Decode(root)
	if err != nil {
		return tr, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	rep, err := e.repr.DecodeRepresentative(repEnc)
	if err != nil {
		return tr, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	tr.Initial = cur
	explainer := e.explainer()
	var buf []byte
	for i, h := range p.hops {
		var key, enc []byte
		var count uint32
		var marks uint32
		e.next(rep, func(st Step, t S) {
			if count == h.ordinal {
				key, enc = e.repr.AppendRepresentative(nil, nil, t)
				marks = st.Marks
			}
			count++
		})
		if key == nil || (h.wantMarks && marks != h.marks) {
			return tr, fmt.Errorf("%w: step %d: the representative has no successor %d of %d with the recorded marks", ErrInvalidTrace, i+1, h.ordinal, count)
		}
		if !e.keyStoredAs(h.dst, key) {
			return tr, fmt.Errorf("%w: step %d (successor %d of %d) does not reach the stored state", ErrInvalidTrace, i+1, h.ordinal, count)
		}
		var chosen *candidate
		e.next(cur, func(st Step, t S) {
			if chosen != nil || (h.wantMarks && st.Marks != h.marks) {
				return
			}
			if buf = e.appendKey(buf[:0], t); bytes.Equal(buf, key) {
				chosen = &candidate{step: st, enc: e.sys.AppendEncoding(nil, t)}
			}
		})
		if chosen == nil {
			return tr, fmt.Errorf("%w: step %d: no successor of the concrete state has the representative's key", ErrInvalidTrace, i+1)
		}
		var err error
		if rep, err = e.repr.DecodeRepresentative(enc); err != nil {
			return tr, fmt.Errorf("%w: %w", ErrDecode, err)
		}
		if cur, err = e.appendStep(&tr, cur, chosen, explainer); err != nil {
			return tr, err
		}
	}
	return tr, nil
}

// replayStoredKeys is replayRepresentatives over Exact storage: each
// hop's key is the one stored for the state it reaches, and only the
// concrete states are expanded.
func (e *engine[S]) replayStoredKeys(p tracePlan) (Trace[S], error) {
	tr, cur, err := e.traceRoot(p, func(s S, _ []byte) bool { return e.keyStoredAs(p.root, e.appendKey(nil, s)) })
	if err != nil {
		return tr, err
	}
	explainer := e.explainer()
	var buf []byte
	for i, h := range p.hops {
		want, _ := e.visited.storedKey(h.dst)
		var chosen *candidate
		var count uint32
		e.next(cur, func(st Step, t S) {
			count++
			if chosen != nil || (h.wantMarks && st.Marks != h.marks) {
				return
			}
			if buf = e.appendKey(buf[:0], t); bytes.Equal(buf, want) {
				chosen = &candidate{step: st, enc: e.sys.AppendEncoding(nil, t)}
			}
		})
		if chosen == nil {
			return tr, fmt.Errorf("%w: step %d: none of the concrete state's %d successors reaches the stored state", ErrInvalidTrace, i+1, count)
		}
		if cur, err = e.appendStep(&tr, cur, chosen, explainer); err != nil {
			return tr, err
		}
	}
	return tr, nil
}

// storedAs reports whether the concrete encoding enc is (up to symmetry)
// the stored state id; true when the storage keeps no keys to compare.
func (e *engine[S]) storedAs(id stateID, enc []byte) bool {
	key := enc
	if e.canon != nil {
		s, err := e.sys.Decode(enc)
		if err != nil {
			return false
		}
		key = e.sys.AppendEncoding(nil, e.canon.Canonical(s))
	}
	return e.keyStoredAs(id, key)
}

// keyStoredAs reports whether key is the stored state id's key; true
// when the storage keeps no keys to compare.
func (e *engine[S]) keyStoredAs(id stateID, key []byte) bool {
	match, keyed := e.visited.keyMatches(id, key)
	return match || !keyed
}

// Final returns the last state of the trace.
func (t *Trace[S]) Final() S {
	if len(t.Steps) == 0 {
		return t.Initial
	}
	return t.Steps[len(t.Steps)-1].State
}

// stateBefore returns the state from which Steps[i] is taken.
func (t *Trace[S]) stateBefore(i int) S {
	if i == 0 {
		return t.Initial
	}
	return t.Steps[i-1].State
}

// keyOf is the deduplication key of s (its canonical encoding).
func (e *engine[S]) keyOf(s S) []byte { return e.appendKey(nil, s) }

// appendKey appends the deduplication key of s to dst.
func (e *engine[S]) appendKey(dst []byte, s S) []byte {
	switch {
	case e.canonEnc != nil:
		return e.canonEnc.AppendCanonical(dst, s)
	case e.canon != nil:
		s = e.canon.Canonical(s)
	}
	return e.sys.AppendEncoding(dst, s)
}

// validateInvariant: the final state must violate the invariant.
func (e *engine[S]) validateInvariant(tr *Trace[S], inv Invariant[S]) error {
	if inv.Holds(tr.Final()) {
		return fmt.Errorf("%w: invariant %q holds in the final state", ErrInvalidTrace, inv.Name)
	}
	return nil
}

// validateEnd: the final state must be terminal and violate the condition.
func (e *engine[S]) validateEnd(tr *Trace[S], end EndCondition[S]) error {
	n := 0
	e.next(tr.Final(), func(Step, S) { n++ })
	if n != 0 {
		return fmt.Errorf("%w: end condition %q: final state has %d successors", ErrInvalidTrace, end.Name, n)
	}
	if end.Holds(tr.Final()) {
		return fmt.Errorf("%w: end condition %q holds in the final state", ErrInvalidTrace, end.Name)
	}
	return nil
}

// validateCycle: the loop must be non-empty, close (up to symmetry), and
// carry every required mark.
func (e *engine[S]) validateCycle(tr *Trace[S], c Cycle) error {
	if tr.LoopStart < 0 || tr.LoopStart >= len(tr.Steps) {
		return fmt.Errorf("%w: cycle %q: empty loop", ErrInvalidTrace, c.Name)
	}
	if !bytes.Equal(e.keyOf(tr.stateBefore(tr.LoopStart)), e.keyOf(tr.Final())) {
		return fmt.Errorf("%w: cycle %q: loop does not close", ErrInvalidTrace, c.Name)
	}
	var marks uint32
	for _, st := range tr.Steps[tr.LoopStart:] {
		marks |= st.Step.Marks
	}
	if marks&c.Require != c.Require {
		return fmt.Errorf("%w: cycle %q: loop marks %#x do not cover %#x", ErrInvalidTrace, c.Name, marks, c.Require)
	}
	return nil
}
