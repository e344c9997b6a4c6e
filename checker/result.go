package checker

import "time"

// Verdict is the tri-state outcome for one property.
type Verdict uint8

const (
	// Unknown: the search did not settle the property (a bound, a timeout,
	// the memory budget, or lossy storage). Reason says which.
	Unknown Verdict = iota
	// Holds: the property holds in the whole (exhaustively explored)
	// state space.
	Holds
	// Violated: a validated counterexample exists.
	Violated
)

// Reason explains an Unknown verdict.
type Reason uint8

const (
	ReasonNone Reason = iota
	ReasonTimeout
	ReasonCancelled
	ReasonMemory
	ReasonStateBound
	ReasonDepthBound
	ReasonBitstate
	ReasonHashCompaction
	// ReasonStopped: the run stopped at another property's violation
	// before this one was settled.
	ReasonStopped
	// ReasonUnreplayable: a cycle property's lasso, found among the
	// stored states up to symmetry, does not replay as a concrete run.
	// The System's representatives are not exact there (a state and
	// another of its orbit may step to different orbits), so the lasso
	// may not exist concretely: neither a violation nor a proof.
	ReasonUnreplayable
)

// TraceStep is one transition of a counterexample.
type TraceStep[S any] struct {
	Step  Step
	Lines []Line
	// State is the state reached by the step.
	State S
}

// Trace is a counterexample: an initial state, then steps. For cycle
// properties LoopStart is the index in Steps where the loop begins (the
// state before Steps[LoopStart] equals the last state); otherwise -1.
type Trace[S any] struct {
	Initial   S
	Steps     []TraceStep[S]
	LoopStart int
}

// PropertyResult is the verdict on one property.
type PropertyResult[S any] struct {
	Name    string
	Kind    string // "invariant", "end", "cycle"
	Verdict Verdict
	Reason  Reason
	// Explanation is the property's explanation of the violating state.
	Explanation string
	Trace       *Trace[S]
}

// Stats describes the search.
type Stats struct {
	States  int64 // distinct states stored
	Matched int64 // successors and initial states that were already stored
	// Transitions counts the successors generated and handled (stored,
	// matched, or looked up at the depth bound); initial states are not
	// transitions. After an early stop all three say how far the run got.
	Transitions int64
	MaxDepth    int
	// ExpandedLevels is how many breadth-first levels were expanded
	// completely, none of them cut by a stop, a depth bound or a switch
	// of storage: every state reachable in fewer than ExpandedLevels
	// steps was stored, checked and expanded. Over Exact storage without
	// partial-order reduction (AmpleExpansions 0; an ample set may
	// postpone a step past the level where a full expansion takes it)
	// it is a bound the run settles every invariant and deadlock within,
	// whatever stopped it. 0 in depth-first runs.
	ExpandedLevels int
	Elapsed        time.Duration
	StatesPerS     float64
	BytesPerState  float64
	TableLoad      float64
	// OmissionProbability estimates the chance that a state was wrongly
	// considered visited (hash compaction, bitstate); 0 for Exact.
	OmissionProbability float64
	Storage             Storage
	// SwitchedToBitstate is set when the memory budget forced the switch.
	// SwitchDepth and SwitchStates then say where: the states of depth <=
	// SwitchDepth (SwitchStates of them) were moved into the bit array and
	// the level SwitchDepth was (re-)expanded in bitstate mode. In BFS both
	// depend only on the model and the options, not on scheduling.
	SwitchedToBitstate bool
	SwitchDepth        int
	SwitchStates       int64
	Workers            int

	// VisitedBytes is the memory allocated for the visited set (table,
	// encodings and their offsets, or bit array) and ParentBytes that of the
	// parent records used to rebuild traces; BytesPerState is their sum
	// divided by States.
	VisitedBytes int64
	ParentBytes  int64
	// ExpectedOmissions estimates how many states bitstate storage
	// skipped because all their bits were already set; 0 otherwise.
	ExpectedOmissions float64
	// Edges is the number of transitions recorded for cycle properties.
	Edges    int64
	Strategy Strategy
	// AmpleExpansions is the number of states that partial-order
	// reduction expanded through a proper ample subset of their
	// successors; ProvisoExpansions the number it expanded fully because
	// the cycle proviso rejected the subset. Both are 0 without an
	// AmpleSetter or with Options.NoPOR.
	AmpleExpansions, ProvisoExpansions int64
}

// Result is the outcome of Check.
type Result[S any] struct {
	Properties []PropertyResult[S]
	Stats      Stats
	// Complete is true when the whole state space was explored with
	// lossless storage.
	Complete bool
	// Continuation, with Options.Resumable, is the exploration of a run
	// that MaxStates or Timeout stopped, for Resume; nil otherwise. It
	// holds the run's memory until Resume or its Release.
	Continuation *Continuation[S]
}

// Property returns the result for the property with the given name.
func (r *Result[S]) Property(name string) (PropertyResult[S], bool) {
	for _, p := range r.Properties {
		if p.Name == name {
			return p, true
		}
	}
	return PropertyResult[S]{}, false
}

// Verdict is the overall verdict: Violated if any property is violated,
// Holds if every property holds, Unknown otherwise.
func (r *Result[S]) Verdict() Verdict {
	v := Holds
	for _, p := range r.Properties {
		switch p.Verdict {
		case Violated:
			return Violated
		case Unknown:
			v = Unknown
		}
	}
	return v
}

// String renders the verdict, e.g. "invariant mutex: violated" or
// "cycle progress: unknown (depth bound)".
func (p PropertyResult[S]) String() string {
	s := p.Kind + " " + p.Name + ": " + p.Verdict.String()
	if p.Verdict == Unknown {
		s += " (" + p.Reason.String() + ")"
	}
	return s
}
