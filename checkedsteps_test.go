package kivi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
)

// TestCheckedStepsNeverPassAViolation: a run a state bound cuts claims
// "no violation within N steps" only for N shorter than every
// counterexample of the intents it leaves Unknown. Each built-in case's
// violating variant is verified whole (partial-order reduction off, so
// the claim applies), which gives the shortest counterexample of each
// invariant and end-state intent, then cut at every smaller state bound.
func TestCheckedStepsNeverPassAViolation(t *testing.T) {
	opts := func(maxStates int64) kivi.Options {
		return kivi.Options{NoQuickPass: true, NoDepthFirst: true, ProbeStates: -1,
			Checker: checker.Options{NoPOR: true, CollectAll: true, Workers: 1, MaxStates: maxStates}}
	}
	claims := 0
	for n := 1; n <= 8; n++ {
		name := fmt.Sprintf("c%d", n)
		c, err := cases.Get(name, 3, false)
		if err != nil {
			t.Fatal(err)
		}
		full, err := kivi.Verify(context.Background(), c, opts(0))
		if err != nil {
			t.Fatal(err)
		}
		if full.CheckedSteps() != 0 {
			t.Errorf("%s: a complete run claims %d checked steps", name, full.CheckedSteps())
		}
		shortest := map[string]int{}
		for _, x := range full.Results {
			if x.Verdict == checker.Violated && x.Trace != nil && (x.Kind == "invariant" || x.Kind == "end") {
				shortest[x.Name] = len(x.Trace.Steps)
			}
		}
		total := full.Stats.States
		for bound := int64(1); bound < total; bound++ {
			cut, err := kivi.Verify(context.Background(), c, opts(bound))
			if err != nil {
				t.Fatal(err)
			}
			steps := cut.CheckedSteps()
			var text strings.Builder
			cut.WriteFailures(&text)
			if steps > 0 {
				claims++
				if !strings.Contains(text.String(), fmt.Sprintf("Checked within %d steps", steps)) {
					t.Errorf("%s at %d states: %d checked steps not reported:\n%s", name, bound, steps, text.String())
				}
			}
			for _, x := range cut.Results {
				d, violated := shortest[x.Name]
				if !violated || !x.CoveredByCheckedSteps() {
					continue
				}
				if steps >= d {
					t.Errorf("%s at %d of %d states: %s is Unknown and claimed free of violations within %d steps, but a %d-step counterexample exists",
						name, bound, total, x.Name, steps, d)
				}
			}
		}
	}
	if claims == 0 {
		t.Error("no cut run claimed any checked steps")
	}
}

// TestCheckedStepsOnlyWhereSound: no claim from a run that partial-order
// reduction pruned, that a depth-first search made, or that stored its
// states lossily.
func TestCheckedStepsOnlyWhereSound(t *testing.T) {
	c, err := cases.Get("c3", 3, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts checker.Options
	}{
		{"depth-first", checker.Options{Strategy: checker.DFS, MaxStates: 200}},
		{"hash compaction", checker.Options{Storage: checker.HashCompaction, MaxStates: 200}},
		{"bitstate", checker.Options{Storage: checker.Bitstate, MaxStates: 200}},
	} {
		rep, err := kivi.Verify(context.Background(), c, kivi.Options{NoQuickPass: true, NoDepthFirst: true, ProbeStates: -1, Checker: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		if rep.CheckedSteps() != 0 {
			t.Errorf("%s: %d checked steps claimed", tc.name, rep.CheckedSteps())
		}
	}
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{NoQuickPass: true, NoDepthFirst: true, ProbeStates: -1, Checker: checker.Options{MaxStates: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stats.AmpleExpansions > 0 && rep.CheckedSteps() != 0 {
		t.Errorf("partial-order reduction pruned %d states, yet %d checked steps claimed", rep.Stats.AmpleExpansions, rep.CheckedSteps())
	}
}
