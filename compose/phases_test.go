package compose

import (
	"context"
	"testing"
	"time"

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
		r, large, cont, err := p.probe(context.Background(), checker.Options{Workers: 1, CollectAll: c.collectAll})
		if err != nil {
			t.Fatal(err)
		}
		if (cont != nil) != (r == nil && c.states > 0) {
			t.Errorf("%+v: continuation %v, want one only when cut by its state bound", c, cont != nil)
		}
		cont.Release()
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

// TestQuickPassStopsAtGlanceBeforeDepthFirst: once the probe shows the
// exhaustive search to be large, the quick pass goes no further than
// its first glance when the depth-first phase follows (which takes its
// time), and runs on as before without that phase; the verdicts are the
// same.
func TestQuickPassStopsAtGlanceBeforeDepthFirst(t *testing.T) {
	cl, err := cases.Get("c3", 3, true)
	if err != nil {
		t.Fatal(err)
	}
	const glance = 5
	var verdicts []string
	for _, deep := range []bool{true, false} {
		p, err := NewProblem(cl, Options{ProbeStates: 10, NoDepthFirst: !deep})
		if err != nil {
			t.Fatal(err)
		}
		p.glanceStates = glance
		r, err := p.Check(context.Background(), checker.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		var quick, depth *report.Phase
		for i := range r.Phases {
			switch r.Phases[i].Name {
			case report.PhaseQuick:
				quick = &r.Phases[i]
			case report.PhaseDepthFirst:
				depth = &r.Phases[i]
			}
		}
		if quick == nil {
			t.Fatalf("depth-first %v: no quick pass among %+v", deep, r.Phases)
		}
		if deep {
			if depth == nil || quick.Complete || quick.Stats.States > glance+1 {
				t.Errorf("with the depth-first phase: quick pass %+v, depth-first phase %v; want the glance alone", *quick, depth != nil)
			}
		} else if !quick.Complete {
			t.Errorf("without the depth-first phase: quick pass %+v; want it run to its end", *quick)
		}
		verdicts = append(verdicts, r.Verdict().String())
	}
	if verdicts[0] != verdicts[1] {
		t.Errorf("verdicts %v differ", verdicts)
	}
}

// TestExhaustivePhaseGoesOnFromTheProbe: the exhaustive phase goes on
// from the states the probe stored and ends with the search a run
// without a probe makes: the same states, transitions and verdicts, with
// one worker and with two (ranked levels), every intent settled or not.
func TestExhaustivePhaseGoesOnFromTheProbe(t *testing.T) {
	compared := 0
	defer func() {
		t.Logf("%d runs went on from the probe", compared)
		if compared < 6 {
			t.Errorf("%d runs went on from the probe", compared)
		}
	}()
	for n := 1; n <= 8; n++ {
		for _, nv := range []bool{false, true} {
			name := "c" + string(rune('0'+n))
			cl, err := cases.Get(name, 3, nv)
			if err != nil {
				t.Fatal(err)
			}
			for _, opts := range []checker.Options{{Workers: 1, CollectAll: true}, {Workers: 2, CollectAll: true}, {Workers: 2}} {
				run := func(probeStates int) (*report.Report, bool) {
					p, err := NewProblem(cl, Options{ProbeStates: probeStates})
					if err != nil {
						t.Fatal(err)
					}
					_, _, cont, err := p.probe(context.Background(), opts)
					if err != nil {
						t.Fatal(err)
					}
					resumed := cont != nil
					cont.Release()
					r, err := p.Check(context.Background(), opts)
					if err != nil {
						t.Fatal(err)
					}
					return r, resumed
				}
				probed, resumed := run(20)
				plain, _ := run(-1)
				last := func(r *report.Report) report.Phase { return r.Phases[len(r.Phases)-1] }
				a, b := last(probed), last(plain)
				if a.Name != report.PhaseExhaustive || b.Name != report.PhaseExhaustive {
					continue // settled before the exhaustive phase
				}
				if resumed {
					compared++
				}
				if a.Stats.States != b.Stats.States || a.Stats.Transitions != b.Stats.Transitions || a.Stats.MaxDepth != b.Stats.MaxDepth || a.Complete != b.Complete {
					t.Errorf("%s nv=%v %+v (probe resumed: %v): exhaustive phase %d states, %d transitions, complete %v; without a probe %d, %d, %v",
						name, nv, opts, resumed, a.Stats.States, a.Stats.Transitions, a.Complete, b.Stats.States, b.Stats.Transitions, b.Complete)
				}
				for i := range plain.Results {
					if probed.Results[i].Verdict != plain.Results[i].Verdict {
						t.Errorf("%s nv=%v %+v: %s %v, without a probe %v", name, nv, opts, plain.Results[i].Name, probed.Results[i].Verdict, plain.Results[i].Verdict)
					}
				}
			}
		}
	}
}

// TestSettleUnreplayable: a loop intent that a run left Unknown because
// its lasso, found up to symmetry, did not replay is searched for again
// without symmetry: that search's verdict and counterexample replace the
// Unknown, as its own phase. It does not run with symmetry off, once the
// time is up, or when the run stops at a violation it has; a search
// without symmetry that its bounds stop leaves the Unknown.
func TestSettleUnreplayable(t *testing.T) {
	cl, err := cases.Get("c5", 3, false)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProblem(cl, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const name = "no_oscillation_eviction"
	// unreplayable is a report whose exhaustive search left name Unknown
	// for want of a concrete run, and another intent violated when
	// violated.
	unreplayable := func(violated bool) *report.Report {
		r := &report.Report{
			Results: []report.IntentResult{{Name: name, Kind: "cycle", Verdict: checker.Unknown, Reason: checker.ReasonUnreplayable}},
			Phases:  []report.Phase{{Name: report.PhaseExhaustive, Complete: true}},
		}
		if violated {
			r.Results = append(r.Results, report.IntentResult{Name: "pod_always_schedulable", Kind: "invariant", Verdict: checker.Violated})
		}
		return r
	}
	for _, c := range []struct {
		name     string
		opts     checker.Options
		violated bool
		start    time.Time
		settled  bool // the intent is violated
		searched bool // the search without symmetry ran
	}{
		{"settles", checker.Options{Workers: 1, CollectAll: true}, false, time.Now(), true, true},
		{"without another violation", checker.Options{Workers: 1}, false, time.Now(), true, true},
		{"beside another violation, settling every intent", checker.Options{Workers: 1, CollectAll: true}, true, time.Now(), true, true},
		{"stopping at another violation", checker.Options{Workers: 1}, true, time.Now(), false, false},
		{"symmetry off", checker.Options{Workers: 1, CollectAll: true, NoSymmetry: true}, false, time.Now(), false, false},
		{"time up", checker.Options{Workers: 1, CollectAll: true, Timeout: time.Second}, false, time.Now().Add(-time.Minute), false, false},
		{"bounded", checker.Options{Workers: 1, CollectAll: true, MaxStates: 3}, false, time.Now(), false, true},
	} {
		r, err := p.settleUnreplayable(context.Background(), unreplayable(c.violated), c.opts, c.start)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		x := r.Result(name)
		if settled := x.Verdict == checker.Violated; settled != c.settled {
			t.Errorf("%s: %v (%v), want settled %v", c.name, x.Verdict, x.Reason, c.settled)
		}
		if c.settled && (x.FoundBy != report.PhaseSymmetryOff || x.Trace == nil || x.Trace.LoopStart < 0) {
			t.Errorf("%s: found by %q, trace %v", c.name, x.FoundBy, x.Trace != nil)
		}
		if !c.settled && (x.Verdict != checker.Unknown || x.Reason != checker.ReasonUnreplayable) {
			t.Errorf("%s: %v (%v), want the Unknown kept", c.name, x.Verdict, x.Reason)
		}
		last := r.Phases[len(r.Phases)-1]
		if searched := last.Name == report.PhaseSymmetryOff; searched != c.searched {
			t.Errorf("%s: phases %+v, want a search without symmetry %v", c.name, r.Phases, c.searched)
		}
		if c.searched && last.Complete == (c.opts.MaxStates > 0) {
			t.Errorf("%s: the search without symmetry complete %v", c.name, last.Complete)
		}
	}
}
