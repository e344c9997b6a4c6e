package checker

import "time"

// Strategy selects the exploration order.
type Strategy uint8

const (
	// BFS explores level by level: counterexamples to invariants are
	// shortest. It is the default.
	BFS Strategy = iota
	// DFS explores depth first: less frontier memory, and the order in
	// which cycles are searched.
	DFS
)

// Storage selects how visited states are remembered.
type Storage uint8

const (
	// Exact stores every state's full encoding: no omission is possible.
	Exact Storage = iota
	// HashCompaction stores a 128-bit xxh3 fingerprint per state (fixed
	// seed; 64-bit with Fingerprint64). Two distinct states may collide; the result reports the
	// probability, and a run that finds nothing is Unknown.
	HashCompaction
	// Bitstate sets a few bits per state in a shared Bloom filter. Lowest
	// memory, lossy; a run that finds nothing is Unknown.
	Bitstate
)

// Progress is a snapshot of a running check, for live status lines.
type Progress struct {
	States      int64
	Transitions int64
	Depth       int
	Queue       int64
	Elapsed     time.Duration
	StatesPerS  float64
}

// Options configures Check. The zero value is valid: BFS, exact storage,
// GOMAXPROCS workers, no bounds, stop at the first violation.
type Options struct {
	Strategy Strategy
	Storage  Storage
	// Workers is the number of goroutines exploring; 0 means GOMAXPROCS.
	Workers int
	// MaxStates, MaxDepth, Timeout and MaxMemory bound the run; 0 means
	// unbounded. Reaching a bound makes unresolved properties Unknown.
	MaxStates int64
	MaxDepth  int
	Timeout   time.Duration
	// MaxMemory is a budget in bytes for the run's memory: the visited
	// set, parent records, frontier, recorded edges, the ranking of
	// parallel BFS levels, the bit array of a switch to bitstate and the
	// cycle analysis, all held outside the Go heap and charged as they
	// are held (see the package documentation). When it is reached in
	// Exact or HashCompaction mode the run switches to Bitstate and says
	// so in the result; when it is reached again the run stops, Unknown.
	// Not charged: the Go heap (the System's states and garbage, a few
	// MiB of scratch per worker), which Check leaves to the program; the
	// command sets the runtime's soft memory limit for it.
	MaxMemory int64
	// BitstateBits is the Bloom filter size in bits (default 2^30) and
	// BitstateHashes the number of hash functions (default 3).
	BitstateBits   uint64
	BitstateHashes uint
	// Fingerprint64 makes HashCompaction store 64-bit instead of 128-bit
	// fingerprints: 8 instead of 16 bytes per table slot, at a collision
	// probability of about n²/2^65 for n states (Stats.OmissionProbability;
	// 3·10^-8 for 10^6 states, 2.7 % for 10^9). Ignored by other storage.
	Fingerprint64 bool
	// ExpectedStates, if set, pre-sizes the Exact or HashCompaction table
	// for that many states, saving the resizes of a growing run.
	ExpectedStates int64
	// Seed, when not 0, shuffles the order in which a depth-first search
	// (Strategy DFS) pushes each state's successors, drawing it from a
	// generator seeded with Seed: runs with different seeds reach
	// different parts of a state space too large to finish first, as in
	// SPIN's swarm verification, and a run is the same for the same seed.
	// Without it successors are pushed in the order Next emits them. A
	// breadth-first search ignores it. Successors stored one by one
	// (more than 64 invariants, outside partial-order reduction) keep
	// their order.
	Seed uint64
	// CollectAll keeps exploring after a violation so that every property
	// gets its own verdict (one counterexample each). The default stops at
	// the first violation.
	CollectAll bool
	// NoSymmetry and NoPOR switch off the System's optional reduction hooks.
	NoSymmetry bool
	NoPOR      bool
	// NoLines leaves the Lines of traces' steps empty even when the
	// System is an Explainer: for a caller that renders the lines from
	// the trace's states itself, so that each step is not re-executed
	// once more to explain it.
	NoLines bool
	// Resumable keeps what a breadth-first run explored when MaxStates or
	// Timeout stopped it, in Result.Continuation, so that Resume goes on
	// from there instead of exploring it again. It applies to Exact
	// storage without cycle properties (whose edges the end-of-run
	// analysis consumes); other runs get no Continuation. With a Timeout,
	// such a run stops before a level it would not finish in time at the
	// pace of the levels before it (its states would be explored again),
	// Unknown/ReasonTimeout as at the deadline.
	Resumable bool
	// OnProgress, when set, is called about every ProgressEvery (default
	// 1 s) from one goroutine.
	OnProgress    func(Progress)
	ProgressEvery time.Duration
	// rankParallelMin is the smallest level a parallel BFS ranks with
	// all workers (rankLevelParallel); 0 means defaultRankParallelMin.
	// The package's tests lower it to compare both rankings.
	rankParallelMin int
	_               struct{}
}

// defaultRankParallelMin: below it, ranking a level on one goroutine
// costs less than starting the others.
const defaultRankParallelMin = 1 << 15
