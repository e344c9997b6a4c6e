package report_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/report"
)

// TestUnreplayableSaysHowToSettle: an intent Unknown because its cycle
// does not replay through the symmetry reduction is listed with its
// reason and the flag that settles it.
func TestUnreplayableSaysHowToSettle(t *testing.T) {
	r := &report.Report{Results: []report.IntentResult{{Name: "no_oscillation_eviction", Kind: "cycle",
		Verdict: checker.Unknown, Reason: checker.ReasonUnreplayable}}}
	var b strings.Builder
	r.WriteFailures(&b)
	out := b.String()
	for _, want := range []string{"Unknown: no_oscillation_eviction (cycle found up to symmetry does not replay concretely)", "--symmetry off"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// TestUnreplayableAfterSearchWithoutSymmetry: when the search without
// symmetry ran and stopped before settling the intent, the summary says
// so and how much further to go; the exhaustive search's own phase is
// still the one whose figures close the summary, not a phase line.
func TestUnreplayableAfterSearchWithoutSymmetry(t *testing.T) {
	r := &report.Report{
		Results: []report.IntentResult{{Name: "no_oscillation_eviction", Kind: "cycle",
			Verdict: checker.Unknown, Reason: checker.ReasonUnreplayable}},
		Phases: []report.Phase{
			{Name: report.PhaseExhaustive, Description: "every tie and interleaving", Complete: true, Stats: checker.Stats{States: 390}},
			{Name: report.PhaseSymmetryOff, Description: "told apart", Stats: checker.Stats{States: 20000}},
		},
	}
	var b strings.Builder
	r.WriteFailures(&b)
	out := b.String()
	for _, want := range []string{"the search without symmetry stopped after 20000 states", "--symmetry off and more time or states",
		"Exhaustive search without symmetry (told apart): no violation, stopped early, 20000 states"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Exhaustive search (every tie") {
		t.Errorf("the exhaustive search has a phase line besides its figures:\n%s", out)
	}
}
