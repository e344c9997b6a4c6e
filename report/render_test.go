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
