// Package checker is Kivi's generic explicit-state model-checking engine.
// It explores every reachable state of a transition system and decides
// safety properties (invariants, end conditions) and cycle properties,
// returning verdicts as data and counterexamples as replayed, validated
// traces. It imports nothing else of the project.
//
// # Systems
//
// A model implements [System]: Initial emits the initial states, Next emits
// every successor of a state together with a [Step] (Actor, Choice, Marks),
// AppendEncoding gives a state's canonical bytes (equal bytes ⇔ equal
// states) and Decode inverts it. The engine keeps states only as
// encodings, so a System must be deterministic, side-effect free and safe
// for concurrent calls. From one state, (Actor, Choice) must identify one
// successor. A parent record names a state's step by its position in
// Next's (or, for an initial state, Initial's) emission order, in 24
// bits: a state with more than 2^24 successors fails the run with
// [ErrTooManySuccessors], more than 2^24 initial states with
// [ErrTooManyInitialStates]. Any number of successors below that is
// handled in bounded batches (a state with 10^7 successors costs no more
// scratch memory than one with 10^4).
//
// Optional hooks, detected by type assertion:
//   - [Explainer] renders the "[Component] Message" lines of a step; they
//     are produced only for counterexamples, by re-executing the step.
//   - [Canonicalizer] enables symmetry reduction (unless
//     Options.NoSymmetry): states are deduplicated by the encoding of
//     Canonical(s) and reported as concrete states, so a trace is a real
//     execution of the unreduced system; Stats.States then
//     counts orbits. Its companions: [CanonicalEncoder] encodes the
//     canonical form without building it, [RepresentativeEncoder] makes
//     the engine expand the representatives themselves (traces are then
//     mapped back to concrete runs by key), and [SymmetricSuccessors] lets
//     the System leave out successors that have the canonical form of one
//     it emits (the engine then uses it for expansion and trace rebuilding
//     alike).
//   - [AmpleSetter] enables partial-order reduction (unless Options.NoPOR):
//     only the returned ample subset of a state's successors is explored.
//     The engine enforces the cycle proviso: if an ample successor is
//     already stored the state is expanded fully (in BFS: stored before
//     the current level, which keeps parallel runs deterministic). Every
//     cycle of the reduced graph therefore contains a fully expanded state.
//     Deadlocks are detected on the full successor set. The subset's
//     successors are stored in emission order, whatever order Ample
//     returns them in. Its companion
//     [AmpleFilter] says cheaply which states are worth collecting
//     successors for; Stats.AmpleExpansions and ProvisoExpansions count
//     the reduction's work.
//   - [WorkerSystem] gives each worker goroutine its own System
//     (ForWorker, called once per worker), so that a System can keep
//     scratch memory per goroutine without locks or pools; the engine's
//     own calls (initial states, traces) go to the original, one call at a
//     time.
//   - [Releaser] and [Copier] let the engine hand decoded states back and
//     copy kept successors into memory it reuses.
//
// # Properties
//
// [Properties] groups [Invariant] (must hold in every reachable state),
// [EndCondition] (must hold in every reachable state without successors:
// deadlocks and invalid end states) and [Cycle] (violated by a reachable
// cycle whose steps' Marks together contain every bit of Require;
// Require == 0 asks for any cycle). Invariants are evaluated on each new
// concrete state, end conditions on each expanded state with no successor.
//
// # Search
//
// [Options] selects the search. The zero value is a breadth-first search
// with exact storage on GOMAXPROCS workers, unbounded, stopping at the
// first violation.
//
// BFS (default) is level-synchronous: all workers expand level d, writing
// level d+1 into their own buffers, then meet at a barrier. The set of
// states of each level does not depend on scheduling, so any number of
// workers stores exactly the states a sequential run stores, reaches the
// same verdicts and reports counterexamples of the same, shortest, length.
// When a violation is found the current level is finished before stopping,
// so which properties are violated is deterministic too.
//
// The counterexamples are deterministic as well: with any number of
// workers BFS reports the traces a one-worker run reports. A one-worker
// run expands each level in the order it stored its states and each
// state's successors in emission order, so a state's recorded parent is
// its predecessor with the smallest (rank of the predecessor in its level,
// ordinal of the step), the next level is ranked by that pair, and the
// violation it reports is the first of its level in that order. A
// parallel run rebuilds exactly this: while level d is expanded, a state
// of level d+1 keeps in its parent record the smallest such pair any
// worker reached it with (an atomic minimum; the worker that stored it
// and every worker that matches it compete), violations are collected,
// and when the level ends the new states are sorted by that pair (a
// counting sort by parent rank), their records are turned back into
// (parent id, ordinal), and each property keeps its candidate with the
// smallest pair (an end condition: the smallest rank). Under symmetry
// the state queued for expansion is the concrete successor of that
// smallest predecessor, as in a one-worker run (the worker that lowers a
// record keeps that successor's encoding for the level's end), or the
// representative, which is the same from every predecessor. The cycle
// analysis makes its choices in the order its breadth-first search from
// the initial states reaches the states, which depends on the graph, not
// on which worker stored a state. This covers Exact storage, and
// HashCompaction when the ids of matched states are kept (with cycle
// properties or partial-order reduction); without them, and in Bitstate
// mode (also after a switch to it), a matched state cannot be found to
// lower its record, and which predecessor becomes the parent, and so the
// trace and the violation reported, may depend on scheduling. A run cut
// short in the middle of a level (a bound, a timeout, cancellation)
// reports what it found, not necessarily what a one-worker run finds.
// With one worker none of this runs. The ranking costs 8 bytes per state
// of the level being expanded and per state of the next one, and 4 per
// state of the level for the sort (4 more per worker when all workers
// rank a large level), which the memory budget charges; it does not
// charge the collected violations and, under symmetry, the kept
// encodings, whose replacement of queued encodings of another length can
// also make the switch to bitstate depend on scheduling.
//
// DFS runs on one
// worker (Workers is ignored), storing successors when generated and
// keeping an explicit stack of encodings; its counterexamples are not
// shortest.
//
// Workers share one visited set. Nothing is kept per state as a Go heap
// object: a state's id is (worker, index) into the slabs of the worker
// that stored it (parent records, and in Exact mode the encodings and
// their fingerprints), so storing needs no shared counter. States are
// found through one lock-free open-addressing table with linear probing.
// In Exact mode a slot is one 64-bit word, a 24-bit tag of the state's
// 32-bit fingerprint and the state's id, claimed and published by one
// compare-and-swap after the state's encoding and parent record are
// written (the id is the storing worker's next index); a slot whose tag
// matches is confirmed by comparing encodings in full. Encodings of one
// length are kept as fixed-width records, found from the id alone; from
// the first encoding of another length on, a worker keeps its encodings
// length-prefixed with an offset each. In HashCompaction mode a slot is
// the fingerprint's hi (0 = empty) claimed by a compare-and-swap, then
// its lo published by an atomic store that readers wait for (with 64-bit
// fingerprints, the one word hi). The table is sized between BFS levels
// for the stored states plus the last level's growth (load <= 0.7, or
// Options.ExpectedStates up front, which then also bounds the estimate);
// a level that outgrows it makes the workers pause at their next insert
// while the last one to arrive doubles it (each worker has a quota of
// free slots, so the load never passes 0.9); an Exact table is refilled
// from the fingerprints the workers keep (4 bytes a state), one goroutine
// per worker. A parent record is 8 bytes: the parent's id and the ordinal
// of the step in the parent's Next order (in a parallel BFS, until the
// level ends, the parent's rank in its level instead of its id). Traces
// need no stored states: they are rebuilt by re-executing Next from the
// initial state (as TLC does).
//
// The table, the encodings, fingerprints and parent records, the bit
// array, the frontiers, the recorded edges, the level ranking and the
// cycle analysis' arrays live outside the Go heap, in anonymous mappings
// that are unmapped when they are of no further use and at the latest
// when Check returns (blocks under 256 KiB, and everything where mappings
// are not available or under the race detector, are ordinary heap
// memory). The collector then paces itself by what the
// System allocates: these blocks, most of a run's memory, would
// otherwise let the heap grow to twice their size before a collection.
// The table asks for transparent huge pages (Linux), as it is read at
// random. A System's Decode may alias the encoding it is given, but the
// state it returns must not be used after Check returns.
//
// Storage modes:
//   - Exact stores full encodings (compared whenever a slot's tag
//     matches): no state can be omitted. Only Exact storage and a
//     complete exploration give Holds.
//   - HashCompaction stores 128-bit xxh3 fingerprints (fixed seed) in the
//     table itself, or 64-bit ones with Options.Fingerprint64. Two states
//     could collide; Stats.OmissionProbability is the birthday bound
//     n²/2^129 (n²/2^65). Properties not violated are
//     Unknown/ReasonHashCompaction. The ids of matched states are kept
//     (8 more bytes per slot) only when cycles or partial-order reduction
//     need them; without them trace replay checks that each state is
//     stored, not that it is the recorded one.
//   - Bitstate sets BitstateHashes (default 3) bits per state in a
//     BitstateBits-bit array (default 2^30, rounded up to a power of two),
//     all within one 64-bit word so that test-and-set is one atomic OR:
//     workers share it without locks and two of them cannot both claim
//     the same state. Stats.OmissionProbability is the measured final
//     false-positive rate and Stats.ExpectedOmissions the estimated number
//     of states skipped. Unviolated properties are Unknown/ReasonBitstate;
//     cycle properties are not searched (matches have no identity).
//
// # Bounds and cancellation
//
// MaxStates, MaxDepth, Timeout and MaxMemory bound the run. Cancellation,
// the deadline and the memory budget are checked between work units and,
// within Initial and a state's expansion, every few thousand initial
// states or successors, so a stop waits for no more than that (and for
// the System's own work in between). The switch to bitstate when the
// memory budget runs out (rolling the level back, building the bit array)
// and the cycle analysis are charged to the same deadline and ctx: a run
// that expires during them ends there. None of these is an error: unsettled properties become Unknown with ReasonStateBound,
// ReasonDepthBound, ReasonTimeout (also for a ctx deadline),
// ReasonCancelled or ReasonMemory. With MaxStates, a sequential run stores
// exactly MaxStates states (parallel: at most Workers-1 more). With
// MaxDepth, states up to that depth are stored and the last level is
// expanded without storing, so a run whose bound is not actually cut
// still completes. MaxMemory bounds the memory the run holds: the
// visited set (the table as allocated, the encodings and fingerprints by
// length), 8 bytes per parent record, the frontier and the recorded edges
// by content, the ranking of a parallel BFS's levels, in Exact and
// HashCompaction mode the bit array a switch to bitstate would make, and
// what the cycle analysis will need for the recorded edges (12 bytes per
// edge, 32 per state). All of it is outside the Go heap, written in order
// into chunks whose untouched pages take no memory (the table excepted,
// charged whole), and freed when it is of no further use (a BFS level's
// frontier once expanded, an edge chunk once the analysis moved it), so
// that what is charged is what the process holds. The charge is a
// function of what was stored, not of scheduling: the table grows only
// when the number of states reaches its hard load (the workers' quotas of
// free slots are shared out again until then), and only when the budget
// has room for the larger table, which is filled without holding both
// (an Exact table is refilled from the stored fingerprints, a
// HashCompaction table read in order and given back as it is read). It
// only grows during a level. When it is exceeded in Exact or
// HashCompaction mode during BFS level d (checked after every work unit,
// at every table growth and at the level's end), the workers stop at a
// work-unit boundary, the level's new states are forgotten (parent
// records, violations, edges and counters are rolled back), every state
// of depth <= d is moved into a bit array sized to a quarter of the
// budget (at most BitstateBits), the table and the encodings are freed
// but those of the queued states of level d, and level d is expanded
// again in bitstate mode (Stats.SwitchedToBitstate, SwitchDepth,
// SwitchStates). The switch point is therefore the same for any
// scheduling (a parallel run's budget also pays for the ranking, so it
// can differ between one worker and several). DFS switches where it is
// (it is sequential). From then on verdicts are Violated or
// Unknown/ReasonMemory; if the budget is exceeded again the run stops.
// What the budget does not cover is the Go heap: the System's states and
// their garbage, each worker's scratch (staging buffers of at most a few
// MiB) and the first, small chunks of each structure; Check does not
// change the runtime's settings (cmd/kivi sets a soft memory limit for
// its process). Measured peaks are in docs/performance.md.
//
// With CollectAll the search goes on after a violation and every property
// gets its own verdict and one counterexample; otherwise properties not
// settled when the run stopped are Unknown/ReasonStopped.
//
// # Going on with a stopped run
//
// A breadth-first run with Options.Resumable that MaxStates or Timeout
// stopped (Exact storage, no cycle property) keeps its exploration in
// Result.Continuation instead of freeing it. Resume goes on with it
// under new bounds: the level under way when the run stopped is rolled
// back as for a switch to bitstate (with the violations found while
// expanding it), the table is rebuilt from the states kept, and the run
// goes on from that level's start. Since every level of a breadth-first
// run is the same whatever the scheduling, the result is the one a single
// run with the new bounds gives: the same states, transitions, verdicts
// and counterexamples (TestResumeGivesTheSingleRunsResult). A
// continuation holds its memory (Continuation.MemoryInUse) until it is
// resumed or released. compose's probe uses it: the exhaustive phase goes
// on from the states the probe stored.
//
// # Cycle properties
//
// When Cycles are requested (and storage is not Bitstate) every explored
// transition is recorded as a 24-byte edge; runs without cycle properties
// record nothing. After the exploration the edges are moved, chunk by
// chunk, into compressed sparse row form (12 bytes an edge: each edge is
// held once), an iterative Tarjan pass finds strongly connected
// components and, for each component with an internal edge, the union of
// its internal edges' marks. The analysis is part of the run: it checks
// the deadline, ctx and the memory budget every 2^16 steps and on every
// allocation, and when one of them stops it the cycle properties it has
// not settled are Unknown with that reason (the safety verdicts of the
// finished exploration stand). A component qualifies when that union covers
// Require: within it, a closed walk through one carrying edge per missing
// bit exists. The reported lasso is a shortest path from an initial state
// to the qualifying component's nearest state, then such a closed walk
// (Trace.LoopStart marks its start). Cycles are searched on the recorded
// graph also after a bound was hit (any cycle found is real), and after a
// timeout: a run with cycle properties and a Timeout stops exploring
// once a fifth of it is left, or earlier once the analysis of the edges
// recorded so far would need more than what is left (an estimate per
// edge), and searches in that time what it explored. They are not
// searched after cancellation or a stop at a safety violation.
//
// # Results
//
// [Result] holds one [PropertyResult] per property (invariants, end
// conditions, cycles, in order): Holds, Violated with a [Trace], or
// Unknown with a [Reason]. Result.Complete is true only for an exhaustive
// exact exploration. Every trace is replayed through the System before it
// is reported: each step is re-executed from the initial state, each
// reached state is matched against the stored one (by encoding, or by
// canonical encoding under symmetry), and the property is re-checked (the
// final state violates the invariant; is terminal and violates the end
// condition; the loop closes, up to the canonicaliser, and carries every
// required mark). A trace that fails is reported as an error wrapping
// [ErrInvalidTrace]: it means a nondeterministic System, a non-canonical
// encoding, a Canonicalizer that is not a symmetry, or an engine bug.
// One exception: where the engine explores concrete states up to
// symmetry (a RepresentativeEncoder whose representatives are not exact,
// or none), a cycle's lasso joins stored states by their keys, and a
// System whose orbit members do not all step alike may have no concrete
// run along it; that property is Unknown/ReasonUnreplayable.
//
// [Stats] reports states stored and matched, transitions, depth, elapsed
// time and rate, memory per state (VisitedBytes and ParentBytes), table
// load and the omission estimates. OnProgress, if set, is called every
// ProgressEvery (default 1 s) and once at the end, always from the same
// goroutine.
package checker
