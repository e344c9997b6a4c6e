package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// Report is the outcome of one verification, as data.
type Report struct {
	Name    string
	Results []IntentResult
	Stats   checker.Stats
	Elapsed time.Duration
	// Complete is true when the whole state space was explored losslessly.
	Complete bool
	// Symmetry and POR say which reductions the run used: symmetry over
	// interchangeable nodes and pods, partial-order reduction (its work is
	// in Stats.AmpleExpansions and Stats.ProvisoExpansions).
	Symmetry, POR bool
	// Phases are the searches that ran, in order (phases.go); Stats,
	// Complete and the reductions are the last one's.
	Phases []Phase
	// Bound, when not empty, says which bound of the model the run
	// reached and what raises it: no intent that is not violated holds
	// (each is Unknown with Bound as its reason), and BoundTrace is the
	// shortest way there.
	Bound      string
	BoundTrace *Trace
	// Hints say what makes the state space large, for a run that some
	// budget (time, memory, states) ended before every intent was
	// settled: the text report prints them under its summary.
	Hints []string
	// Assumptions narrow what the verdicts cover (a creation order
	// chosen by an option); the text report prints them under its
	// summary.
	Assumptions []string
}

// IntentResult is the verdict on one intent or built-in property.
type IntentResult struct {
	Name     string // user name
	Internal string // Kivi's internal name
	Kind     string // invariant, end, cycle
	Verdict  checker.Verdict
	Reason   checker.Reason
	// Bound is the reason of an Unknown verdict due to a limit of the
	// model: one of its bounds (Report.Bound), or a run it could not
	// follow past an internal assertion; else empty.
	Bound string
	// Explanation says what was violated.
	Explanation string
	Trace       *Trace
	// FoundBy names the phase that found the violation (PhaseQuick,
	// PhaseDepthFirst, PhaseExhaustive or PhaseSymmetryOff); "" unless
	// violated.
	FoundBy string
	// Seed is the seed of the depth-first search that found the
	// violation (FoundBy PhaseDepthFirst): `--strategy dfs --seed`
	// repeats that search. 0 otherwise.
	Seed uint64
}

// Trace is a counterexample: the steps from the initial state, each with
// its trace lines. For cycles LoopStart is the index of the first step of
// the loop, else -1.
type Trace struct {
	Steps     []TraceStep
	LoopStart int
	// Final is model.Describe of the last state.
	Final string
	// Initial is the cluster before the first step, for the trace
	// explorer (snapshot.go).
	Initial ClusterSnapshot
}

// TraceStep is one step of a counterexample.
type TraceStep struct {
	Actor string
	Lines []model.Line
	// Cluster is the cluster after the step (snapshot.go).
	Cluster ClusterSnapshot
}

// Violated lists the results that are violated.
func (r *Report) Violated() []IntentResult {
	var out []IntentResult
	for _, x := range r.Results {
		if x.Verdict == checker.Violated {
			out = append(out, x)
		}
	}
	return out
}

// Unknown lists the results that are unknown.
func (r *Report) Unknown() []IntentResult {
	var out []IntentResult
	for _, x := range r.Results {
		if x.Verdict == checker.Unknown {
			out = append(out, x)
		}
	}
	return out
}

// CheckedSteps is how many steps from the start the run checked every
// run of the cluster for: its exhaustive search stored, checked and
// expanded every state the cluster reaches in that many steps (controller
// or event actions) or fewer, losslessly and without partial-order
// reduction, so no intent it left Unknown whose violation is a state (an
// invariant or an end state, CoveredByCheckedSteps) is violated that
// early. 0 when the run says nothing beyond its verdicts: a complete run,
// a depth-first or lossy search, one that partial-order reduction pruned
// (an ample set may postpone a step past the level a full expansion takes
// it at), one a bound of the model cut, or one whose last phase is not
// the exhaustive search (the quick pass explores ties one way only).
func (r *Report) CheckedSteps() int {
	st := r.Stats
	if r.Complete || r.Bound != "" || len(r.Phases) == 0 || r.Phases[len(r.Phases)-1].Name != PhaseExhaustive ||
		st.Strategy != checker.BFS || st.Storage != checker.Exact || st.SwitchedToBitstate || st.AmpleExpansions > 0 {
		return 0
	}
	for _, x := range r.Results {
		if x.Verdict == checker.Unknown && x.Bound != "" {
			return 0
		}
	}
	return max(st.ExpandedLevels-1, 0)
}

// CoveredByCheckedSteps reports whether CheckedSteps speaks for an
// intent: one a budget (time, memory, states, depth) left Unknown whose
// violation is a state the search checks (an invariant, or an end
// state), not a loop. An intent left unsettled because the search stopped
// at another's violation is not: that run's report is the violation.
func (x *IntentResult) CoveredByCheckedSteps() bool {
	return x.Verdict == checker.Unknown && x.Bound == "" && x.Reason != checker.ReasonStopped && (x.Kind == "invariant" || x.Kind == "end")
}

// CheckedIntents names the intents CheckedSteps speaks for, in the
// report's order; none when it is 0.
func (r *Report) CheckedIntents() []string {
	if r.CheckedSteps() == 0 {
		return nil
	}
	var names []string
	for i := range r.Results {
		if r.Results[i].CoveredByCheckedSteps() {
			names = append(names, r.Results[i].Name)
		}
	}
	return names
}

// Result returns the result of the named intent, or nil.
func (r *Report) Result(name string) *IntentResult {
	for i := range r.Results {
		if r.Results[i].Name == name {
			return &r.Results[i]
		}
	}
	return nil
}

// Phase names, as IntentResult.FoundBy and Phase.Name give them.
const (
	PhaseQuick      = "quick pass"
	PhaseDepthFirst = "depth-first search"
	PhaseExhaustive = "exhaustive search"
	// PhaseSymmetryOff is the exhaustive search run again without the
	// symmetry reduction, for the intents whose loop, found up to
	// symmetry, had no concrete run (checker.ReasonUnreplayable).
	PhaseSymmetryOff = "exhaustive search without symmetry"
)

// Phase is what one phase of a verification did.
type Phase struct {
	Name string
	// Description says how the phase explores, for people.
	Description string
	Stats       checker.Stats
	Elapsed     time.Duration
	// Complete: the phase explored its whole state space.
	Complete bool
	// Violations counts the intents the phase found violated.
	Violations int
}

// phase returns the first phase named name.
func (r *Report) phase(name string) (Phase, bool) {
	for _, p := range r.Phases {
		if p.Name == name {
			return p, true
		}
	}
	return Phase{}, false
}

// FoundByLine says which phases found the violations, for the summary:
// "" when the exhaustive search found them all.
func (r *Report) FoundByLine() string {
	var quick, deep, full []IntentResult
	for _, v := range r.Violated() {
		switch v.FoundBy {
		case PhaseQuick:
			quick = append(quick, v)
		case PhaseDepthFirst:
			deep = append(deep, v)
		default:
			full = append(full, v)
		}
	}
	phase := r.phase
	switch {
	case len(quick) > 0 && len(deep) == 0 && len(full) == 0:
		q, _ := phase(PhaseQuick)
		return fmt.Sprintf("Found by the quick pass (%s, %d states); the exhaustive search found no shorter counterexample within its budget.",
			q.Description, q.Stats.States)
	case len(deep) > 0 && len(quick) == 0 && len(full) == 0:
		var seeds []string
		for _, v := range deep {
			if s := fmt.Sprint(v.Seed); !slices.Contains(seeds, s) {
				seeds = append(seeds, s)
			}
		}
		d, _ := phase(PhaseDepthFirst)
		return fmt.Sprintf("Found by a depth-first search (seed %s; the phase explored %d states): the exhaustive search, which finds shortest counterexamples, did not reach it within its budget, so a shorter one may exist. `--strategy dfs --seed %s` repeats that search.",
			strings.Join(seeds, ", "), d.Stats.States, seeds[0])
	case len(quick) > 0 && len(deep) == 0:
		q, _ := phase(PhaseQuick)
		return fmt.Sprintf("Found by the quick pass (%s) and the exhaustive search.", q.Description)
	case len(quick)+len(deep) > 0:
		var by []string
		if len(quick) > 0 {
			by = append(by, "the quick pass")
		}
		if len(deep) > 0 {
			by = append(by, "a depth-first search")
		}
		if len(full) > 0 {
			by = append(by, "the exhaustive search")
		}
		if len(by) == 3 {
			return fmt.Sprintf("Found by %s, %s and %s.", by[0], by[1], by[2])
		}
		return fmt.Sprintf("Found by %s and %s.", by[0], by[1])
	}
	return ""
}
