package checker

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// unresolvedReason is the Reason given to properties the search did not
// settle; ReasonNone means the exploration was exhaustive and exact, so
// they hold.
func (e *engine[S]) unresolvedReason() Reason {
	switch e.cause() {
	case stopViolation:
		return ReasonStopped
	case stopCancelled:
		return ReasonCancelled
	case stopTimeout:
		return ReasonTimeout
	case stopStateBound:
		return ReasonStateBound
	case stopMemory:
		return ReasonMemory
	}
	switch {
	case e.depthBoundHit.Load():
		return ReasonDepthBound
	case e.switched:
		return ReasonMemory
	case e.opts.Storage == HashCompaction:
		return ReasonHashCompaction
	case e.opts.Storage == Bitstate:
		return ReasonBitstate
	}
	return ReasonNone
}

func settle[S any](p *PropertyResult[S], reason Reason) {
	if reason == ReasonNone {
		p.Verdict = Holds
		return
	}
	p.Verdict, p.Reason = Unknown, reason
}

// result turns the search into verdicts, replaying and validating every
// counterexample.
func (e *engine[S]) result() (res Result[S], err error) {
	res.Stats = e.stats()
	// Elapsed covers the whole run, trace replay and cycle analysis
	// included.
	defer func() { res.Stats.Elapsed = time.Since(e.start) }()
	reason := e.unresolvedReason()
	res.Complete = reason == ReasonNone && e.cause() == stopNone
	for i, inv := range e.props.Invariants {
		p := PropertyResult[S]{Name: inv.Name, Kind: "invariant"}
		if v := e.found[i].Load(); v != 0 {
			tr, err := e.replay(e.planTo(stateID(v - 1)))
			if err == nil {
				err = e.validateInvariant(&tr, inv)
			}
			if err != nil {
				return res, fmt.Errorf("invariant %q: %w", inv.Name, err)
			}
			p.Verdict, p.Trace = Violated, &tr
			if inv.Explain != nil {
				p.Explanation = inv.Explain(tr.Final())
			}
		} else {
			settle(&p, reason)
		}
		res.Properties = append(res.Properties, p)
	}
	for j, end := range e.props.EndConditions {
		p := PropertyResult[S]{Name: end.Name, Kind: "end"}
		if v := e.found[len(e.props.Invariants)+j].Load(); v != 0 {
			tr, err := e.replay(e.planTo(stateID(v - 1)))
			if err == nil {
				err = e.validateEnd(&tr, end)
			}
			if err != nil {
				return res, fmt.Errorf("end condition %q: %w", end.Name, err)
			}
			p.Verdict, p.Trace = Violated, &tr
			if end.Explain != nil {
				p.Explanation = end.Explain(tr.Final())
			}
		} else {
			settle(&p, reason)
		}
		res.Properties = append(res.Properties, p)
	}
	if len(e.props.Cycles) == 0 {
		return res, nil
	}
	var g *graph
	m := &meter{check: e.analysisCheck}
	if e.searchCycles() && e.mayHaveCycle() {
		// The frontiers and the ranking are of no further use; their
		// memory goes to the analysis.
		var lists []*edgeList
		for _, w := range e.workers {
			w.out.release()
			w.spare.release()
			lists = append(lists, &w.edges)
		}
		freeSlice(e.visited.mem, e.order)
		e.order = nil
		e.freeRankScratch()
		limit := e.edgeLimit
		if limit == nil {
			limit = make([]uint32, len(e.visited.shards))
			for i := range e.visited.shards {
				limit[i] = e.visited.shards[i].n
			}
		}
		g = buildGraph(e.visited, lists, limit, e.ranked, m)
	}
	for _, c := range e.props.Cycles {
		p := PropertyResult[S]{Name: c.Name, Kind: "cycle"}
		l, ok := lasso{}, false
		if g != nil && m.ok() {
			l, ok = g.findLasso(c.Require)
		}
		if !ok {
			if m.ok() {
				settle(&p, reason)
			} else {
				// The analysis was cut short: a cycle may have been missed.
				p.Verdict, p.Reason = Unknown, m.reason
			}
			res.Properties = append(res.Properties, p)
			continue
		}
		tr, err := e.replay(e.planLasso(g, l))
		if err == nil {
			err = e.validateCycle(&tr, c)
		}
		if err != nil && errors.Is(err, ErrInvalidTrace) && e.canon != nil && e.repr == nil {
			// Concrete states were explored up to symmetry: the lasso's
			// closing edges join states by their keys only, and where
			// representatives are not exact no concrete run need
			// follow them.
			p.Verdict, p.Reason = Unknown, ReasonUnreplayable
			res.Properties = append(res.Properties, p)
			continue
		}
		if err != nil {
			return res, fmt.Errorf("cycle %q: %w", c.Name, err)
		}
		p.Verdict, p.Trace, p.Explanation = Violated, &tr, c.Explain
		res.Properties = append(res.Properties, p)
	}
	return res, nil
}

// analysisCheck is the cycle analysis' meter check: the run's deadline,
// its context and its memory budget (the visited set and parent records,
// plus the held bytes of the analysis and the edges not yet consumed).
func (e *engine[S]) analysisCheck(held int64) Reason {
	if err := e.ctx.Err(); err != nil {
		if causeOf(err) == stopTimeout {
			return ReasonTimeout
		}
		return ReasonCancelled
	}
	if !e.deadline.IsZero() && !time.Now().Before(e.deadline) {
		return ReasonTimeout
	}
	if e.opts.MaxMemory > 0 && e.visited.budgetBytes()+held > e.opts.MaxMemory {
		return ReasonMemory
	}
	return ReasonNone
}

// mayHaveCycle reports whether some worker recorded an edge that may
// close a cycle (worker.backEdge): without one the graph is acyclic.
func (e *engine[S]) mayHaveCycle() bool {
	for _, w := range e.workers {
		if w.backEdge {
			return true
		}
	}
	return false
}

// searchCycles: the recorded graph is worth searching unless the run was
// interrupted, stopped at a safety violation, or lost the keys symmetric
// replay needs. A run its timeout stopped is searched within the time
// it kept for that (cycleReserve): a loop among the states it explored
// is a loop of the model, and one not found there settles nothing.
func (e *engine[S]) searchCycles() bool {
	if e.opts.Storage == Bitstate || (e.switched && e.canon != nil) {
		return false
	}
	switch e.cause() {
	case stopTimeout:
		return e.exploreDeadline.Before(e.deadline) && e.ctx.Err() == nil
	case stopCancelled, stopViolation, stopError:
		return false
	}
	return true
}

// cycleReserve: a run with cycle properties and a timeout stops
// exploring after all but 1/cycleReserve of it, or earlier once the
// analysis of the edges recorded would need the rest (analysisPerEdge),
// and searches the graph it recorded in the rest.
const cycleReserve = 5

// analysisPerEdge is a generous estimate of the cycle analysis' time per
// recorded edge (building the graph, its components and the lasso's
// search; about 100 ns on the machines measured).
const analysisPerEdge = 300 * time.Nanosecond

func (e *engine[S]) planLasso(g *graph, l lasso) tracePlan {
	root := g.idOf(l.root)
	p := tracePlan{
		rootOrdinal: e.visited.parentOf(root).ordinal(),
		root:        root,
		loopStart:   len(l.prefix),
	}
	for _, pos := range append(append([]uint32(nil), l.prefix...), l.loop...) {
		p.hops = append(p.hops, hop{ordinal: g.ord[pos], dst: g.idOf(g.adj[pos]), marks: g.marks[pos], wantMarks: true})
	}
	return p
}

// idOf maps a dense vertex back to its state id.
func (g *graph) idOf(v int32) stateID {
	s := sort.Search(len(g.base), func(i int) bool { return g.base[i] > v }) - 1
	// Empty shards share their base with the next one; the last shard whose
	// base is <= v holds v.
	return makeID(s, uint32(v-g.base[s]))
}

func (e *engine[S]) stats() Stats {
	st := Stats{
		States:             e.states.Load(),
		Matched:            e.matched.Load(),
		Transitions:        e.transitions.Load(),
		MaxDepth:           int(e.maxDepth.Load()),
		ExpandedLevels:     int(e.expandedLevels.Load()),
		Elapsed:            time.Since(e.start),
		Storage:            e.opts.Storage,
		Strategy:           e.opts.Strategy,
		SwitchedToBitstate: e.switched,
		SwitchDepth:        e.switchDepth,
		SwitchStates:       e.switchStates,
		Workers:            e.opts.Workers,
		VisitedBytes:       e.visited.visitedBytes.Load(),
		ParentBytes:        e.visited.parentBytes.Load(),
		TableLoad:          e.visited.tableLoad(),
		AmpleExpansions:    e.ampleExpansions.Load(),
		ProvisoExpansions:  e.provisoExpansions.Load(),
	}
	for _, w := range e.workers {
		st.Edges += int64(w.edges.len())
	}
	if st.Elapsed > 0 {
		st.StatesPerS = float64(st.States) / st.Elapsed.Seconds()
	}
	if st.States > 0 {
		st.BytesPerState = float64(st.VisitedBytes+st.ParentBytes) / float64(st.States)
	}
	switch e.visited.mode {
	case modeHash:
		st.OmissionProbability = hashCompactionCollision(uint64(st.States), e.visited.fp64)
	case modeBits:
		b := e.visited.bits
		st.OmissionProbability = b.falsePositiveRate()
		st.ExpectedOmissions = bitstateOmission(uint64(st.States), b.sizeBits(), b.hashes)
	}
	return st
}
