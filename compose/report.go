package compose

import (
	"slices"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

func newReport(p *Problem, res checker.Result[*model.State], elapsed time.Duration) *report.Report {
	r := &report.Report{Name: p.Name, Stats: res.Stats, Elapsed: elapsed, Complete: res.Complete}
	internal := map[string]string{}
	for _, in := range p.Intents {
		internal[in.Name] = in.Internal
	}
	// A monitor intent yields an invariant and an end condition of the
	// same name: merge them into one result, the violated one winning.
	index := map[string]int{}
	for _, pr := range res.Properties {
		ir := report.IntentResult{Name: pr.Name, Internal: internal[pr.Name], Kind: pr.Kind, Verdict: pr.Verdict,
			Reason: pr.Reason, Explanation: pr.Explanation}
		if ir.Internal == "" {
			ir.Internal = pr.Name
		}
		if pr.Trace != nil {
			ir.Trace = renderTrace(p.System, pr.Trace, !p.noSnapshots)
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
	applyBound(r)
	return r
}

// applyBound takes the model_bound pseudo-property out of the results:
// when a state reached a bound, every result that is not violated becomes
// Unknown with the bound as its reason (a violation's trace never passes
// through such a state, which has no successors, so violations stand).
func applyBound(r *report.Report) {
	i := slices.IndexFunc(r.Results, func(x report.IntentResult) bool { return x.Name == ModelBound })
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

// renderTrace renders t's steps, with the cluster snapshots when
// snapshots is set.
func renderTrace(sys *System, t *checker.Trace[*model.State], snapshots bool) *report.Trace {
	out := &report.Trace{LoopStart: t.LoopStart}
	for _, st := range t.Steps {
		// The lines come with the snapshots (snapshotTrace).
		out.Steps = append(out.Steps, report.TraceStep{Actor: sys.ActorName(st.Step)})
	}
	last := t.Initial
	if n := len(t.Steps); n > 0 {
		last = t.Steps[n-1].State
	}
	if last != nil {
		out.Final = model.Describe(sys.U, last)
	}
	snapshotTrace(sys, t, out, snapshots)
	return out
}
