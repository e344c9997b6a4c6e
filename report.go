package kivi

import (
	"slices"
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
}

// IntentResult is the verdict on one intent or built-in property.
type IntentResult struct {
	Name     string // user name
	Internal string // Kivi's internal name
	Kind     string // invariant, end, cycle
	Verdict  checker.Verdict
	Reason   checker.Reason
	// Bound is the reason of an Unknown verdict due to a bound of the
	// model (Report.Bound), else empty.
	Bound string
	// Explanation says what was violated.
	Explanation string
	Trace       *Trace
	// FoundBy names the phase that found the violation (PhaseQuick or
	// PhaseExhaustive); "" unless violated.
	FoundBy string
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

// Result returns the result of the named intent, or nil.
func (r *Report) Result(name string) *IntentResult {
	for i := range r.Results {
		if r.Results[i].Name == name {
			return &r.Results[i]
		}
	}
	return nil
}

func newReport(p *Problem, res checker.Result[*model.State], elapsed time.Duration) *Report {
	r := &Report{Name: p.Name, Stats: res.Stats, Elapsed: elapsed, Complete: res.Complete}
	internal := map[string]string{}
	for _, in := range p.Intents {
		internal[in.Name] = in.Internal
	}
	// A monitor intent yields an invariant and an end condition of the
	// same name: merge them into one result, the violated one winning.
	index := map[string]int{}
	for _, pr := range res.Properties {
		ir := IntentResult{Name: pr.Name, Internal: internal[pr.Name], Kind: pr.Kind, Verdict: pr.Verdict,
			Reason: pr.Reason, Explanation: pr.Explanation}
		if ir.Internal == "" {
			ir.Internal = pr.Name
		}
		if pr.Trace != nil {
			ir.Trace = renderTrace(p.System, pr.Trace)
		}
		if i, ok := index[pr.Name]; ok {
			prev := &r.Results[i]
			if better(ir.Verdict, prev.Verdict) {
				*prev = ir
			}
			continue
		}
		index[pr.Name] = len(r.Results)
		r.Results = append(r.Results, ir)
	}
	r.applyBound()
	return r
}

// applyBound takes the model_bound pseudo-property out of the results:
// when a state reached a bound, every result that is not violated becomes
// Unknown with the bound as its reason (a violation's trace never passes
// through such a state, which has no successors, so violations stand).
func (r *Report) applyBound() {
	i := slices.IndexFunc(r.Results, func(x IntentResult) bool { return x.Name == ModelBound })
	if i < 0 {
		return
	}
	b := r.Results[i]
	r.Results = slices.Delete(r.Results, i, i+1)
	if b.Verdict != checker.Violated {
		return
	}
	r.Bound, r.BoundTrace = b.Explanation, b.Trace
	r.Complete = false
	for k := range r.Results {
		if x := &r.Results[k]; x.Verdict != checker.Violated {
			x.Verdict, x.Bound = checker.Unknown, r.Bound
		}
	}
}

// better orders verdicts for merging: Violated > Unknown > Holds.
func better(a, b checker.Verdict) bool {
	rank := func(v checker.Verdict) int {
		switch v {
		case checker.Violated:
			return 2
		case checker.Unknown:
			return 1
		}
		return 0
	}
	return rank(a) > rank(b)
}

func renderTrace(sys *System, t *checker.Trace[*model.State]) *Trace {
	out := &Trace{LoopStart: t.LoopStart}
	for _, st := range t.Steps {
		ts := TraceStep{Actor: sys.ActorName(st.Step)}
		for _, l := range st.Lines {
			ts.Lines = append(ts.Lines, model.Line{Component: l.Component, Message: l.Message})
		}
		out.Steps = append(out.Steps, ts)
	}
	last := t.Initial
	if n := len(t.Steps); n > 0 {
		last = t.Steps[n-1].State
	}
	if last != nil {
		out.Final = model.Describe(sys.U, last)
	}
	snapshotTrace(sys, t, out)
	return out
}
