package checker

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// stopCause is why exploration ended early; the first cause set wins.
type stopCause uint32

const (
	stopNone stopCause = iota
	stopViolation
	stopAllSettled
	stopCancelled
	stopTimeout
	stopStateBound
	stopMemory
	stopError
)

// engine is the state of one Check run shared by its workers.
type engine[S any] struct {
	hooks[S] // the System, for the initial states and traces
	props    Properties[S]
	opts     Options

	visited *visitedSet
	workers []*worker[S]

	stop          atomic.Uint32 // stopCause
	switchRequest atomic.Bool   // memory budget hit: switch to bitstate
	switched      bool
	switchDepth   int
	switchStates  int64
	depthBoundHit atomic.Bool
	violationSeen atomic.Bool

	// found holds, per safety property (invariants, then end
	// conditions), 1 + the id of a violating state, or 0.
	found      []atomic.Uint64
	foundCount atomic.Int32

	errMu sync.Mutex
	err   error

	// Counters flushed by workers, read by progress reporting and stats.
	states, matched, transitions atomic.Int64
	// ampleExpansions and provisoExpansions count partial-order
	// reduction's work: states expanded through a proper ample subset,
	// and states whose ample subset the cycle proviso rejected.
	ampleExpansions, provisoExpansions atomic.Int64
	stateCount                         atomic.Int64 // exact, only with MaxStates
	depth                              atomic.Int64
	maxDepth                           atomic.Int64
	// expandedLevels is how many breadth-first levels were expanded
	// completely (Stats.ExpandedLevels).
	expandedLevels     atomic.Int64
	queue              atomic.Int64
	levelFrontierBytes atomic.Int64
	levelStates        atomic.Int64 // states of the level being expanded

	// ranked: a parallel BFS run, which orders every level as a
	// one-worker run does (see finishLevel). order maps the rank of each
	// state of the level being expanded to where it is queued:
	// worker<<32 | position in that worker's frontier. orderNext and
	// counts are finishLevel's scratch.
	ranked    bool
	order     []uint64
	orderNext []uint64
	counts    []uint32

	recordEdges bool
	// edgeLimit, once the run switched to bitstate with edges recorded,
	// is per shard the number of states stored before the switch: the
	// only ones that can have recorded edges (nil: all states).
	edgeLimit []uint32
	start     time.Time

	// ctx and deadline (zero: none) are also polled by the workers
	// (worker.poll), so a stop does not wait for the watcher goroutine.
	// exploreDeadline ends the exploration: the deadline itself, or with
	// cycle properties an earlier one that leaves the cycle analysis
	// part of the time (cycleReserve).
	ctx             context.Context
	deadline        time.Time
	exploreDeadline time.Time

	// resumeAt, when resumeOK, is the start of the level under way
	// (Options.Resumable).
	resumeAt resumePoint
	resumeOK bool
}

func (e *engine[S]) halt(c stopCause) { e.stop.CompareAndSwap(uint32(stopNone), uint32(c)) }
func (e *engine[S]) stopped() bool    { return e.stop.Load() != uint32(stopNone) }

// interrupted reports whether the run was stopped by something that
// abandons it (cancellation, the timeout, the memory budget, an error):
// an expansion under way need not finish, however many successors it
// has left or however long each takes to compute.
func (e *engine[S]) interrupted() bool {
	switch stopCause(e.stop.Load()) {
	case stopCancelled, stopTimeout, stopMemory, stopError:
		return true
	}
	return false
}

// abandonExpansion unwinds System.Next from inside emit once the run is
// interrupted (worker.nextOf recovers it): a System whose successors are
// costly would otherwise compute all of them before the stop is seen.
type abandonExpansion struct{}

// nextOf runs the System's Next on s, ending it early (with w.halted set)
// when the run is interrupted.
func (w *worker[S]) nextOf(s S, emit func(Step, S)) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abandonExpansion); !ok {
				panic(r)
			}
		}
	}()
	w.next(s, emit)
}
func (e *engine[S]) cause() stopCause { return stopCause(e.stop.Load()) }

func (e *engine[S]) fail(err error) {
	e.errMu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.errMu.Unlock()
	e.halt(stopError)
}

func (e *engine[S]) safetyCount() int {
	return len(e.props.Invariants) + len(e.props.EndConditions)
}

// recordViolation keeps the first violating state found for property p.
func (e *engine[S]) recordViolation(p int, id stateID) {
	if !e.found[p].CompareAndSwap(0, uint64(id)+1) {
		return
	}
	e.foundCount.Add(1)
	e.violationSeen.Store(true)
	if e.opts.Strategy == DFS && !e.opts.CollectAll {
		e.halt(stopViolation)
	}
}

// allSafetyViolated: with CollectAll, nothing is left to learn by exploring.
func (e *engine[S]) allSafetyViolated() bool {
	return len(e.props.Cycles) == 0 && int(e.foundCount.Load()) == e.safetyCount()
}

// memoryInUse is what the memory budget charges: the memory the run's
// large structures take, all of them outside the Go heap (offHeap) so
// that they take what they hold and are given back when freed. It is a
// function of what was stored and queued, not of how the work was
// scheduled: at the end of a BFS level it is the same for any run with
// the same worker count, and during a level it never exceeds its value
// at the level's end.
//
//   - The visited set and parent records (visitedSet.budgetBytes): the
//     table as allocated, the records by content.
//   - The frontiers and recorded edges, by content: they are written in
//     order into chunks whose untouched pages take no memory, and BFS
//     frees a level's chunks once it is expanded.
//   - In a parallel BFS, the ranking of the levels (finishLevel): 8
//     bytes per state of the level being expanded and of the next one, 4
//     per state of the level for the counting sort, and as much again per
//     worker when the next level is ranked by all workers.
//   - In Exact and HashCompaction mode, the bit array a switch to
//     bitstate would allocate while the table is still there, so that
//     the switch is made within the budget.
//   - With cycle properties, what the analysis after the exploration
//     will need (graphEdgeBytes per recorded edge, graphVertexBytes per
//     state that can have edges), so that a run which kept within its
//     budget leaves room for that analysis.
//
// Not charged, and so the allowance over the budget that a process needs:
// the Go heap (the System's states and scratch, each worker's staging
// buffers, below a few MiB each), the first small chunks of each
// structure (on the heap), and the work of one span per worker between
// two checks.
func (e *engine[S]) memoryInUse() int64 {
	n := e.visited.budgetBytes() + e.levelFrontierBytes.Load()
	var edges, queued int64
	for _, w := range e.workers {
		n += w.publishedBytes.Load()
		edges += w.publishedEdges.Load()
		queued += w.publishedQueued.Load()
	}
	if e.ranked {
		in := e.levelStates.Load()
		n += 12*in + 8*queued
		if queued >= int64(e.opts.rankParallelMin) {
			n += 4 * in * int64(len(e.workers))
		}
	}
	if e.visited.mode != modeBits {
		n += e.switchBitBytes()
	}
	if len(e.props.Cycles) > 0 && e.opts.Storage != Bitstate {
		vertices := e.visited.publishedCount()
		if e.edgeLimit != nil {
			vertices = 0
			for _, l := range e.edgeLimit {
				vertices += int64(l)
			}
		}
		n += edges*graphEdgeBytes + vertices*graphVertexBytes
	}
	return n
}

// switchBits is the size of the bit array a switch to bitstate makes: a
// quarter of the budget, at most BitstateBits (rounded up to a power of
// two as a Bitstate run's), at least 2^16 bits.
func (e *engine[S]) switchBits() uint64 {
	nbits := uint64(1) << bits.Len64(max(e.opts.BitstateBits, 64)-1)
	if budgetBits := uint64(e.opts.MaxMemory) * 8 / 4; budgetBits < nbits {
		nbits = max(uint64(1)<<(bits.Len64(budgetBits)-1), 1<<16)
	}
	return nbits
}

// switchBitBytes is what the bit array of a switch takes; 0 without a
// budget (no switch).
func (e *engine[S]) switchBitBytes() int64 {
	if e.opts.MaxMemory == 0 {
		return 0
	}
	return int64(e.switchBits() / 8)
}

// tableMayGrow is the visited set's mayGrow: whether the budget has room
// for extra more bytes of table.
func (e *engine[S]) tableMayGrow(extra int64) bool {
	return e.opts.MaxMemory == 0 || e.memoryInUse()+extra <= e.opts.MaxMemory
}

// expired stops the run when ctx is done or the deadline has passed, and
// reports whether the run is stopped.
func (e *engine[S]) expired() bool {
	if e.stopped() {
		return true
	}
	if err := e.ctx.Err(); err != nil {
		e.halt(causeOf(err))
	} else if e.outOfExploreTime() {
		e.halt(stopTimeout)
	}
	return e.stopped()
}

// outOfExploreTime reports whether the exploration must end for the
// timeout: its own deadline has passed, or with cycle properties the
// analysis of the edges recorded so far (at analysisPerEdge each) would
// not end before the run's deadline.
func (e *engine[S]) outOfExploreTime() bool {
	if e.exploreDeadline.IsZero() {
		return false
	}
	now := time.Now()
	if !now.Before(e.exploreDeadline) {
		return true
	}
	if !e.recordEdges {
		return false
	}
	var edges int64
	for _, w := range e.workers {
		edges += w.publishedEdges.Load()
	}
	return now.Add(time.Duration(edges) * analysisPerEdge).After(e.deadline)
}

func (e *engine[S]) overBudget() bool {
	return e.opts.MaxMemory > 0 && e.memoryInUse() > e.opts.MaxMemory
}

// checkMemory enforces MaxMemory: a table-mode run asks to switch to
// bitstate, a bitstate run stops.
func (e *engine[S]) checkMemory() {
	if !e.overBudget() {
		return
	}
	if e.visited.mode != modeBits {
		e.switchRequest.Store(true)
		return
	}
	e.halt(stopMemory)
}

// useStoredFrontier makes the BFS frontiers refer to the encodings the
// visited set stores instead of copying them: in an Exact run without
// symmetry a new state's queued encoding is its key, already stored. (DFS
// pops its stack while it pushes, and keeps copies.)
func (e *engine[S]) useStoredFrontier() {
	if e.opts.Strategy == DFS || e.visited.mode != modeExact || e.canon != nil {
		return
	}
	stored := func(id stateID) []byte { return e.visited.shards[id.shard()].encoding(id.local()) }
	for _, w := range e.workers {
		w.storedFrontier = true
		w.out.stored, w.spare.stored = stored, stored
	}
}

// switchToBitstate is called with no worker running. The bit array is
// sized to a quarter of the budget (at most BitstateBits) so that the run
// can go on within it; the budget held it back (memoryInUse). The queued
// states of an Exact BFS refer to the encodings the visited set stored:
// those are kept until they are expanded (visitedSet.releaseKept), the
// rest is freed. It reports false when the run expired during the
// switch: the exact table then stays.
func (e *engine[S]) switchToBitstate() bool {
	e.switchDepth, e.switchStates = int(e.depth.Load()), e.visited.count()
	keep := make([]uint32, len(e.visited.shards))
	for i := range keep {
		keep[i] = math.MaxUint32
	}
	for _, w := range e.workers {
		if w.storedFrontier {
			w.out.minStored(keep)
			w.spare.minStored(keep)
		}
	}
	if !e.visited.switchToBits(e.switchBits(), e.opts.BitstateHashes, keep, e.expired) {
		return false
	}
	// New states are queued as copies from now on.
	for _, w := range e.workers {
		w.storedFrontier = false
	}
	for i := range e.visited.shards {
		e.visited.publish(i)
	}
	e.switched = true
	e.switchRequest.Store(false)
	if e.recordEdges {
		// Matched bitstate successors have no id: the edge list would be
		// incomplete from here on, so cycle search uses what was recorded.
		e.recordEdges = false
		e.edgeLimit = make([]uint32, len(e.visited.shards))
		for i := range e.visited.shards {
			e.edgeLimit[i] = e.visited.shards[i].n
		}
	}
	return true
}

// edge is one explored transition, recorded only for cycle properties.
type edge struct {
	src, dst stateID
	ordinal  uint32
	marks    uint32
}

// worker expands states. Its scratch buffers and emit closures are made
// once, so successor generation allocates nothing per state.
type worker[S any] struct {
	e   *engine[S]
	idx int
	// hooks are the worker's own System (checker.WorkerSystem), or the
	// engine's.
	hooks[S]

	out            *frontier // where new states go
	spare          *frontier // BFS: the other level buffer
	publishedBytes atomic.Int64
	publishedEdges atomic.Int64
	// publishedQueued is the number of states in out, for the ranking's
	// share of the budget.
	publishedQueued atomic.Int64

	cur      stateID
	curDepth int
	// rank is cur's rank in its level (ranked runs only). In a ranked
	// run, the parent record of a state stored during the level holds
	// (rank of the parent, ordinal) until the level ends: the smallest
	// over the state's predecessors, which is the parent a one-worker
	// run records.
	rank       uint64
	lookupOnly bool // depth bound reached: look, do not store
	// storedFrontier: new states go to the frontier as references to
	// the encodings the visited set stored (useStoredFrontier).
	storedFrontier bool
	ordinal        uint32
	emitted        int
	// halted: the expansion under way is abandoned (the run stops, or a
	// switch to bitstate was requested); its remaining successors are
	// ignored.
	halted bool

	keyBuf, encBuf []byte
	emitFn         func(Step, S)

	// staging: emitFn stages successors (stage, storeStaged).
	staging  bool
	staged   []staged
	stageBuf []byte

	// shuffle, set in a depth-first run with Options.Seed, orders the
	// successors of each expansion before they are pushed; order is its
	// scratch.
	shuffle *rand.Rand
	order   []int

	// partial-order reduction scratch
	collectFn func(Step, S)
	succs     []Successor[S]
	succEnc   frontier
	// kept holds the states the Copier copied successors into, reused
	// by the next expansions.
	kept []S

	states, matched, transitions int64
	ampleExp, provisoExp         int64
	edges                        edgeList
	// backEdge: some recorded edge may close a cycle (see store).
	backEdge bool

	// Ranked runs only, emptied when the level ends. cands are the
	// violations found in the level; fixups, under symmetry, the concrete
	// successors of the parents this worker gave to states of the level,
	// with their encodings in fixBuf.
	cands  []violationCandidate
	fixups []fixup
	fixBuf []byte
	// rankOff is rankLevelParallel's scratch: per parent rank, the count
	// and then the position of this worker's new states.
	rankOff []uint32
}

// violationCandidate is a violation of safety property p by state id, found in a
// ranked run; the level's end picks one per property. An end condition's
// key is the rank of the violating state (it is of the level being
// expanded); an invariant's is the parent record of the state (stored in
// this level) when the level ends.
type violationCandidate struct {
	p   int
	id  stateID
	key uint64
	end bool
}

// fixup: under symmetry, the state id, whose parent record was lowered to
// key, was reached as the concrete state whose encoding is
// fixBuf[off:off+n].
type fixup struct {
	id     stateID
	key    uint64
	off, n int
}

func newWorker[S any](e *engine[S], idx int) *worker[S] {
	w := &worker[S]{e: e, idx: idx, out: &frontier{}, spare: &frontier{}, hooks: e.workerHooks()}
	w.out.setMem(e.visited.mem)
	w.spare.setMem(e.visited.mem)
	w.edges.mem = e.visited.mem
	if e.opts.Strategy == DFS && e.opts.Seed != 0 {
		w.shuffle = rand.New(rand.NewPCG(e.opts.Seed, uint64(idx)))
	}
	w.emitFn = func(st Step, t S) {
		ord := w.ordinal
		w.ordinal++
		w.emitted++
		if w.halted {
			return
		}
		if e.interrupted() {
			w.halted = true
			panic(abandonExpansion{})
		}
		if w.staging {
			w.stage(st, t, ord)
			if len(w.staged) >= stageMax || len(w.stageBuf) >= stageBufMax {
				w.storeStaged()
				w.poll()
			}
			return
		}
		w.process(st, t, ord, nil)
		if w.ordinal%pollEvery == 0 {
			w.poll()
		}
	}
	w.collectFn = func(st Step, t S) {
		w.emitted++
		if w.halted {
			return
		}
		if e.interrupted() {
			w.halted = true
			panic(abandonExpansion{})
		}
		if w.emitted%pollEvery == 0 {
			w.poll()
		}
		w.encBuf = w.sys.AppendEncoding(w.encBuf[:0], t)
		w.succEnc.push(noState, w.encBuf, 0)
		if c, ok := w.keep(t); ok {
			w.succs = append(w.succs, Successor[S]{Step: st, State: c})
		}
	}
	return w
}

// keep returns a copy of successor t that outlives Next's reuse of it:
// copied into a state the worker reuses when the System is a Copier,
// decoded from its encoding (the last one collected) otherwise.
func (w *worker[S]) keep(t S) (S, bool) {
	e := w.e
	i := len(w.succs)
	if w.copier != nil {
		if i == len(w.kept) {
			var zero S
			w.kept = append(w.kept, zero)
		}
		w.kept[i] = w.copier.CopyState(w.kept[i], t)
		return w.kept[i], true
	}
	_, enc := w.succEnc.item(w.succEnc.len() - 1)
	c, err := w.sys.Decode(enc)
	if err != nil {
		e.fail(fmt.Errorf("%w: copying a successor: %w", ErrDecode, err))
		return c, false
	}
	return c, true
}

// pollEvery is how many successors (or initial states) a worker handles
// between two polls: a state with millions of successors must not delay
// a stop, a timeout or the memory budget until its expansion ends.
const pollEvery = 1 << 12

// poll publishes the worker's counters and checks cancellation, the
// deadline and the memory budget in the middle of an expansion. DFS
// switches to bitstate on the spot (its one worker is here, with nothing
// staged), and so does BFS while it stores the initial states; a BFS
// worker abandons the expansion, as the level is rolled back and
// explored again anyway.
func (w *worker[S]) poll() {
	e := w.e
	w.flush()
	e.checkMemory()
	if e.expired() {
		w.halted = true
		return
	}
	switch {
	case !e.switchRequest.Load():
	case e.opts.Strategy == DFS || w.cur == noState:
		// DFS, and BFS while it stores its initial states (one worker,
		// in Initial's order), switch where they are.
		e.switchToBitstate()
	default:
		w.halted = true
	}
}

// flush publishes local counters.
func (w *worker[S]) flush() {
	e := w.e
	e.states.Add(w.states)
	e.matched.Add(w.matched)
	e.transitions.Add(w.transitions)
	e.ampleExpansions.Add(w.ampleExp)
	e.provisoExpansions.Add(w.provisoExp)
	w.states, w.matched, w.transitions = 0, 0, 0
	w.ampleExp, w.provisoExp = 0, 0
	w.publishedBytes.Store(w.out.contentBytes() + int64(w.edges.len())*edgeBytes)
	w.publishedEdges.Store(int64(w.edges.len()))
	w.publishedQueued.Store(int64(w.out.len()))
	e.visited.publish(w.idx)
}

// key returns the encoding states are deduplicated by, and the concrete
// encoding to queue (the same slice without symmetry).
func (w *worker[S]) key(t S, concrete []byte) (key, enc []byte) {
	if concrete == nil && w.repr == nil {
		w.encBuf = w.sys.AppendEncoding(w.encBuf[:0], t)
		concrete = w.encBuf
	}
	if w.canon == nil {
		return concrete, concrete
	}
	if w.repr != nil {
		w.keyBuf, w.encBuf = w.repr.AppendRepresentative(w.keyBuf[:0], w.encBuf[:0], t)
		return w.keyBuf, w.encBuf
	}
	if w.canonEnc != nil {
		w.keyBuf = w.canonEnc.AppendCanonical(w.keyBuf[:0], t)
	} else {
		w.keyBuf = w.sys.AppendEncoding(w.keyBuf[:0], w.canon.Canonical(t))
	}
	return w.keyBuf, concrete
}

// addInitial stores one initial state.
func (w *worker[S]) addInitial(t S, ordinal uint32) {
	w.cur = noState
	w.curDepth = -1
	w.process(Step{}, t, ordinal, nil)
}

// ordinalFits fails the run when a parent record cannot hold ord.
func (w *worker[S]) ordinalFits(ord uint32) bool {
	if ord <= maxOrdinal {
		return true
	}
	if w.cur == noState {
		w.e.fail(fmt.Errorf("%w: more than %d initial states", ErrTooManyInitialStates, maxOrdinal+1))
	} else {
		w.e.fail(fmt.Errorf("%w: more than %d successors", ErrTooManySuccessors, maxOrdinal+1))
	}
	w.halted = true
	return false
}

// process handles one transition cur --st--> t.
func (w *worker[S]) process(st Step, t S, ord uint32, concrete []byte) {
	e := w.e
	if !w.ordinalFits(ord) {
		return
	}
	key, enc := w.key(t, concrete)
	id, isNew := w.store(st, ord, key, enc, e.visited.fingerprint(key))
	if isNew {
		for i := range e.props.Invariants {
			if e.found[i].Load() == 0 && !e.props.Invariants[i].Holds(t) {
				w.violation(i, id, false)
			}
		}
	}
}

// violation records that state id violates safety property p (end: p is
// an end condition and id the state being expanded). A sequential run
// finds its states in the order it reports, so the first violation found
// is the one kept; a ranked run collects candidates for the level's end.
func (w *worker[S]) violation(p int, id stateID, end bool) {
	e := w.e
	if !e.ranked || w.cur == noState {
		e.recordViolation(p, id)
		return
	}
	c := violationCandidate{p: p, id: id, end: end}
	if end {
		c.key = w.rank
	}
	w.cands = append(w.cands, c)
}

// store inserts the successor with the given key (and concrete
// encoding enc, queued when new) reached from cur by st, counts it,
// queues it and records its edge. isNew reports a state stored now.
func (w *worker[S]) store(st Step, ord uint32, key, enc []byte, f fingerprint) (id stateID, isNew bool) {
	e := w.e
	rec := makeParent(w.cur, ord)
	if w.cur != noState {
		w.transitions++
		if e.ranked {
			rec = makeParent(stateID(w.rank), ord)
		}
	}
	var outcome insertOutcome
	switch {
	case w.lookupOnly:
		var found bool
		id, found = e.visited.lookup(f, key)
		if !found {
			e.depthBoundHit.Store(true)
			return noState, false
		}
		outcome = outcomeMatched
	case e.opts.MaxStates > 0 && e.stateCount.Load() >= e.opts.MaxStates:
		var found bool
		id, found = e.visited.lookup(f, key)
		if !found {
			e.halt(stopStateBound)
			return noState, false
		}
		outcome = outcomeMatched
	default:
		id, outcome = e.visited.insert(f, key, rec, w.idx)
		// The table is full and the budget has no room for a larger one:
		// DFS, and BFS while it stores its initial states, switch here
		// and store the state in the bit array.
		if outcome == outcomeNoRoom && (e.opts.Strategy == DFS || w.cur == noState) && e.switchToBitstate() {
			id, outcome = e.visited.insert(e.visited.fingerprint(key), key, rec, w.idx)
		}
	}
	switch outcome {
	case outcomeFull:
		e.halt(stopMemory)
		return noState, false
	case outcomeNoRoom:
		// The budget is reached, and the level is rolled back and
		// explored again in bitstate mode (runBFS).
		e.switchRequest.Store(true)
		w.halted = true
		return noState, false
	case outcomeMatched:
		w.matched++
		// A state of the level being generated takes the smallest
		// (parent rank, ordinal) of its predecessors as its parent.
		if e.ranked && id != noState && w.cur != noState && !e.visited.storedBeforeLevel(id) &&
			e.visited.lowerParent(id, rec) && w.canon != nil && w.repr == nil {
			w.fixups = append(w.fixups, fixup{id: id, key: uint64(rec), off: len(w.fixBuf), n: len(enc)})
			w.fixBuf = append(w.fixBuf, enc...)
		}
	case outcomeNew:
		w.states++
		if e.opts.MaxStates > 0 {
			e.stateCount.Add(1)
		}
		if w.storedFrontier {
			w.out.pushStored(id)
		} else {
			w.out.push(id, enc, int32(w.curDepth+1))
		}
	}
	if e.recordEdges && id != noState && w.cur != noState {
		w.edges.push(edge{src: w.cur, dst: id, ordinal: ord, marks: st.Marks})
		// In BFS an edge to a new state, or to one stored during this
		// level, goes one level deeper; only an edge to a state of this
		// level or an earlier one can close a cycle. Without one, the
		// recorded graph is acyclic and the cycle search is skipped.
		if outcome == outcomeMatched && (e.opts.Strategy == DFS || e.visited.storedBeforeLevel(id)) {
			w.backEdge = true
		}
	}
	return id, outcome == outcomeNew
}

// A staged successor waits for the end of its expansion to be stored.
// Staging every successor first (encoding, fingerprint, invariants) and
// touching its table slot lets the slots' cache misses overlap, where
// storing each at once waited for one miss after another: the table is
// the one structure an exploration reads at random.
type staged struct {
	step     Step
	ord      uint32
	f        fingerprint
	key, enc [2]int // offsets in worker.stageBuf
	violated uint64 // bit i: invariant i does not hold
}

// maxStagedInvariants is how many invariants a staged successor can
// carry results for; with more, successors are stored at once.
const maxStagedInvariants = 64

// stageMax and stageBufMax bound what is staged at once: a state with
// millions of successors is stored in batches, so staging costs bounded
// memory and the batches' cache misses still overlap.
const (
	stageMax    = 1 << 12
	stageBufMax = 1 << 20
)

// stage records successor t of the state being expanded.
func (w *worker[S]) stage(st Step, t S, ord uint32) {
	e := w.e
	if !w.ordinalFits(ord) {
		return
	}
	k0 := len(w.stageBuf)
	var k, c [2]int
	var f fingerprint
	if w.canon == nil {
		// The encoding is the key: encoded in place, copied nowhere.
		w.stageBuf = w.sys.AppendEncoding(w.stageBuf, t)
		k = [2]int{k0, len(w.stageBuf)}
		c = k
		f = e.visited.fingerprint(w.stageBuf[k0:])
	} else {
		key, enc := w.key(t, nil)
		f = e.visited.fingerprint(key)
		w.stageBuf = append(w.stageBuf, key...)
		k = [2]int{k0, len(w.stageBuf)}
		w.stageBuf = append(w.stageBuf, enc...)
		c = [2]int{k[1], len(w.stageBuf)}
	}
	e.visited.prefetchSlot(f)
	var violated uint64
	for i := range e.props.Invariants {
		if e.found[i].Load() == 0 && !e.props.Invariants[i].Holds(t) {
			violated |= 1 << i
		}
	}
	w.staged = append(w.staged, staged{step: st, ord: ord, f: f, key: k, enc: c, violated: violated})
}

// storeStaged stores the staged successors in the order they were
// emitted (a batch of them is always stored whole: what a stop leaves
// out is decided at batch boundaries).
func (w *worker[S]) storeStaged() {
	e := w.e
	mode := e.visited.mode
	var order []int
	if w.shuffle != nil {
		order = w.storeOrder(len(w.staged))
	}
	for j := range w.staged {
		p := w.staged[j]
		if order != nil {
			p = w.staged[order[j]]
		}
		if w.halted {
			break
		}
		key := w.stageBuf[p.key[0]:p.key[1]]
		if e.visited.mode != mode {
			// A DFS run switched to bitstate within the batch: the bit
			// array takes other fingerprints.
			p.f = e.visited.fingerprint(key)
		}
		id, isNew := w.store(p.step, p.ord, key, w.stageBuf[p.enc[0]:p.enc[1]], p.f)
		for v := p.violated; isNew && v != 0; v &= v - 1 {
			if i := bits.TrailingZeros64(v); e.found[i].Load() == 0 {
				w.violation(i, id, false)
			}
		}
	}
	w.staged, w.stageBuf = w.staged[:0], w.stageBuf[:0]
}

// expand generates the successors of s (stored as id at depth d).
func (w *worker[S]) expand(s S, id stateID, d int) {
	e := w.e
	w.cur, w.curDepth = id, d
	w.ordinal, w.emitted = 0, 0
	w.halted = false
	if w.ample == nil || (w.ampleFilter != nil && !w.ampleFilter.MayReduce(s)) {
		w.staging = len(e.props.Invariants) <= maxStagedInvariants
		w.nextOf(s, w.emitFn)
		w.staging = false
		if w.halted {
			w.staged, w.stageBuf = w.staged[:0], w.stageBuf[:0]
		} else {
			w.storeStaged()
		}
	} else {
		w.expandReduced(s)
	}
	if w.halted {
		return
	}
	if w.emitted == 0 {
		for j := range e.props.EndConditions {
			p := len(e.props.Invariants) + j
			if e.found[p].Load() == 0 && !e.props.EndConditions[j].Holds(s) {
				w.violation(p, w.cur, true)
			}
		}
	}
}

// expandReduced applies the AmpleSetter: only the ample subset is
// explored, unless the cycle proviso fails, i.e. some ample successor was
// already stored (in BFS: before the current level, which keeps parallel
// runs deterministic). Every cycle of the reduced graph closes through such
// a successor, so every cycle has a fully expanded state.
func (w *worker[S]) expandReduced(s S) {
	e := w.e
	w.succs = w.succs[:0]
	w.succEnc.reset()
	defer w.releaseKept()
	w.nextOf(s, w.collectFn)
	n := len(w.succs)
	if n == 0 || w.halted || e.stopped() {
		return
	}
	sel := w.ample.Ample(s, w.succs)
	if !slices.IsSorted(sel) {
		// Successors are stored in emission order, whatever the order of
		// the subset, so that the parent a parallel run records (the
		// smallest ordinal) is the one a sequential run records.
		sel = slices.Sorted(slices.Values(sel))
	}
	full := sel == nil || len(sel) >= n
	if !full && !w.provisoHolds(sel) {
		full = true
		w.provisoExp++
	}
	if full {
		sel = nil
	} else {
		w.ampleExp++
	}
	switch {
	case w.shuffle != nil:
		order := w.storeOrder(len(w.succs))
		if sel != nil {
			order = w.storeOrder(len(sel))
			for j, i := range order {
				order[j] = sel[i]
			}
		}
		for _, i := range order {
			w.processCollected(i)
		}
	case sel != nil:
		for _, i := range sel {
			w.processCollected(i)
		}
	default:
		for i := range w.succs {
			w.processCollected(i)
		}
	}
}

// storeOrder returns the order in which to store n successors of one
// expansion: their emission order, or in a depth-first run with a seed a
// permutation of it drawn from the seed, so that the stack is popped in
// that permutation's reverse.
func (w *worker[S]) storeOrder(n int) []int {
	w.order = w.order[:0]
	for i := range n {
		w.order = append(w.order, i)
	}
	if w.shuffle != nil {
		w.shuffle.Shuffle(n, func(i, j int) { w.order[i], w.order[j] = w.order[j], w.order[i] })
	}
	return w.order
}

// processCollected stores the i-th collected successor, polling now and
// then like emitFn.
func (w *worker[S]) processCollected(i int) {
	if w.halted {
		return
	}
	_, enc := w.succEnc.item(i)
	w.process(w.succs[i].Step, w.succs[i].State, uint32(i), enc)
	if (i+1)%pollEvery == 0 {
		w.poll()
	}
}

// releaseKept hands the decoded successors of an expansion back to the
// System (copied ones stay with the worker for the next expansion).
func (w *worker[S]) releaseKept() {
	if w.copier != nil || w.release == nil {
		return
	}
	for i := range w.succs {
		w.release.Release(w.succs[i].State)
	}
}

func (w *worker[S]) provisoHolds(sel []int) bool {
	e := w.e
	if len(sel) == 0 {
		return false
	}
	for _, i := range sel {
		if i < 0 || i >= len(w.succs) {
			e.fail(fmt.Errorf("%w: Ample returned index %d of %d successors", ErrSystemContract, i, len(w.succs)))
			return false
		}
		_, enc := w.succEnc.item(i)
		key, _ := w.key(w.succs[i].State, enc)
		id, found := e.visited.lookup(e.visited.fingerprint(key), key)
		if !found {
			continue
		}
		if e.opts.Strategy == DFS || id == noState || e.visited.storedBeforeLevel(id) {
			return false
		}
	}
	return true
}
