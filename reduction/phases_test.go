package reduction_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/report"
)

// checkCase verifies built-in case name at scale 3 with opts.
func checkCase(t testing.TB, name string, nv bool, opts kivi.Options) *kivi.Report {
	t.Helper()
	c, err := cases.Get(name, 3, nv)
	if err != nil {
		t.Fatal(err)
	}
	opts.Checker.Workers = 1
	r, err := kivi.Verify(context.Background(), c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestQuickPassFindsRealViolations: on every built-in case, both
// variants, the quick pass alone (ShortenFor < 0) reports a violation of
// an intent only if the exhaustive search alone reports that intent
// violated too: its restricted tie-break follows real paths only.
func TestQuickPassFindsRealViolations(t *testing.T) {
	for _, name := range cases.Names() {
		for _, nv := range []bool{false, true} {
			quick := checkCase(t, name, nv, kivi.Options{ShortenFor: -1, ProbeStates: -1, Checker: checker.Options{CollectAll: true}})
			full := checkCase(t, name, nv, kivi.Options{NoQuickPass: true, Checker: checker.Options{CollectAll: true}})
			for _, v := range quick.Violated() {
				if v.FoundBy != report.PhaseQuick {
					t.Errorf("%s nv=%v: %s found by %q with the exhaustive search off", name, nv, v.Name, v.FoundBy)
				}
				if f := full.Result(v.Name); f == nil || f.Verdict != checker.Violated {
					t.Errorf("%s nv=%v: the quick pass found %s violated, the exhaustive search did not", name, nv, v.Name)
				}
			}
			if len(full.Phases) != 1 || full.Phases[0].Name != report.PhaseExhaustive {
				t.Errorf("%s nv=%v: phases %+v without the quick pass", name, nv, full.Phases)
			}
		}
	}
}

// TestSettleEveryIntentAfterTheQuickPass: asked to settle every intent
// (CollectAll), the exhaustive search is not cut to the shortening budget
// once the quick pass found a violation: with a budget of a nanosecond,
// every built-in case still ends with the verdicts of the exhaustive
// search alone, none Unknown.
func TestSettleEveryIntentAfterTheQuickPass(t *testing.T) {
	for _, name := range cases.Names() {
		both := checkCase(t, name, false, kivi.Options{ShortenFor: time.Nanosecond, ProbeStates: -1, Checker: checker.Options{CollectAll: true}})
		full := checkCase(t, name, false, kivi.Options{NoQuickPass: true, Checker: checker.Options{CollectAll: true}})
		for _, r := range full.Results {
			got := both.Result(r.Name)
			if got == nil || got.Verdict != r.Verdict {
				t.Errorf("%s: %s is %v after the quick pass, %v without it", name, r.Name, got, r.Verdict)
			}
		}
	}
}

// TestQuickPassKeepsShortestCounterexample: when the exhaustive search
// finishes, its shortest counterexample is the one reported, exactly as
// without the quick pass, and the verdicts are the same.
func TestQuickPassKeepsShortestCounterexample(t *testing.T) {
	for _, name := range cases.Names() {
		for _, nv := range []bool{false, true} {
			both := checkCase(t, name, nv, kivi.Options{ProbeStates: -1})
			full := checkCase(t, name, nv, kivi.Options{NoQuickPass: true})
			if both.Verdict() != full.Verdict() {
				t.Errorf("%s nv=%v: verdict %v with the quick pass, %v without", name, nv, both.Verdict(), full.Verdict())
			}
			if len(both.Phases) != 2 || both.Phases[0].Name != report.PhaseQuick {
				t.Errorf("%s nv=%v: phases %+v", name, nv, both.Phases)
			}
			for _, v := range full.Violated() {
				b := both.Result(v.Name)
				if b == nil || b.Verdict != checker.Violated || b.FoundBy != report.PhaseExhaustive {
					t.Errorf("%s nv=%v: %s: %+v with the quick pass", name, nv, v.Name, b)
					continue
				}
				if !slices.Equal(b.Trace.Lines(), v.Trace.Lines()) {
					t.Errorf("%s nv=%v: %s: counterexample differs with the quick pass", name, nv, v.Name)
				}
			}
		}
	}
}

// TestQuickPassViolationsAreReal: on the symmetry tests' clusters
// (setups, two deployments, the events cluster), whatever the quick pass
// finds violated, the complete exhaustive search finds violated.
func TestQuickPassViolationsAreReal(t *testing.T) {
	found := false
	for _, cl := range symmetricClusters(t) {
		quick, err := cl.p.With(kivi.Options{ShortenFor: -1})
		if err != nil {
			t.Fatal(err)
		}
		full, err := cl.p.With(kivi.Options{NoQuickPass: true})
		if err != nil {
			t.Fatal(err)
		}
		opts := checker.Options{CollectAll: true, Workers: 1, MaxStates: 200_000}
		q, err := quick.Check(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		f, err := full.Check(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Complete {
			continue
		}
		for _, v := range q.Violated() {
			found = true
			if r := f.Result(v.Name); r == nil || r.Verdict != checker.Violated {
				t.Errorf("%s: the quick pass found %s violated, the complete exhaustive search did not", cl.name, v.Name)
			}
		}
	}
	if !found {
		t.Error("the quick pass found nothing anywhere: the test compared nothing")
	}
}
