package compose

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/report"
)

// TestProbeDecides: the probe's report stands when the exhaustive search
// finished, or found a violation and the run stops at the first one; a
// violation found by a search the probe's bound cut short does not
// settle a run that settles every intent (CollectAll), and a search cut
// short without one settles nothing.
func TestProbeDecides(t *testing.T) {
	for _, c := range []struct {
		name        string
		noViolation bool
		states      int
		collectAll  bool
		final       bool
	}{
		{"c1", false, 0, false, true},   // finds the violation
		{"c1", false, 0, true, true},    // finishes
		{"c3", true, 0, false, true},    // finishes, holds
		{"c3", true, 5, false, false},   // cut short
		{"c4", false, 100, true, false}, // a violation, not every intent settled
		{"c4", false, 100, false, true}, // a violation is enough
		{"c3", true, -1, false, false},  // no probe
		{"c3", true, 0, false, true},    // finishes, holds
	} {
		cl, err := cases.Get(c.name, 3, c.noViolation)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewProblem(cl, Options{ProbeStates: c.states})
		if err != nil {
			t.Fatal(err)
		}
		r, large, err := p.probe(context.Background(), checker.Options{Workers: 1, CollectAll: c.collectAll})
		if err != nil {
			t.Fatal(err)
		}
		if (r != nil) != c.final {
			t.Errorf("%+v: report %v, want final %v", c, r != nil, c.final)
			continue
		}
		if r == nil {
			// A probe that ran was cut by its state bound.
			if large != (c.states >= 0) {
				t.Errorf("%+v: large %v", c, large)
			}
			continue
		}
		if len(r.Phases) != 1 || r.Phases[0].Name != report.PhaseExhaustive {
			t.Errorf("%+v: phases %+v", c, r.Phases)
		}
		for _, v := range r.Violated() {
			if v.FoundBy != report.PhaseExhaustive {
				t.Errorf("%+v: %s found by %q", c, v.Name, v.FoundBy)
			}
		}
	}
}
