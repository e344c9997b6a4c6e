package hpadiff

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/model"
)

// behaviorSame compares the model's and upstream's answers on a history;
// bound reports the model's memory bound was reached (the answers are
// compared up to it).
func behaviorSame(c *BehaviorCase, run func(*BehaviorCase) ([]int, bool)) (same, bound bool) {
	m, bound := run(c)
	r := RealBehaviorRun(c)
	return slices.Equal(m, r[:len(m)]), bound
}

// TestBehavior: hpa.NormalizeWithBehavior and the model's memory of
// recommendations and scale events, in sync periods, against
// normalizeDesiredReplicasWithBehaviors and storeScaleEvent over random
// behaviors and histories. No disagreement is tolerated: the model counts
// time in sync periods exactly as upstream's timestamps do when syncs come
// every 15 s (and a little more), which RealBehaviorRun reproduces.
// Histories that reach the model's bound on scale events
// (model.MaxHPAScaleEvents) are compared up to it and counted.
func TestBehavior(t *testing.T) {
	withChecks(t, *cases)
	counts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		c := GenBehaviorCase().Draw(rt, "case")
		same, bound := behaviorSame(c, ModelBehaviorRun)
		if !same {
			m, _ := ModelBehaviorRun(c)
			rt.Fatalf("disagreement\n%smodel: %v\nreal:  %v", c, m, RealBehaviorRun(c))
		}
		counts["agree"]++
		m, _ := ModelBehaviorRun(c)
		counts["evaluations compared"] += len(m)
		if bound {
			counts["agree up to the model bound on scale events"]++
		}
	})
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		t.Logf("%-50s %d", k, counts[k])
	}
}

// TestBehaviorPlanted shows that TestBehavior has teeth: wrong
// normalisations planted on the model side disagree with upstream.
func TestBehaviorPlanted(t *testing.T) {
	n := min(*cases, 2000)
	planted := []struct {
		name string
		run  func(*BehaviorCase) ([]int, bool)
	}{
		{"scale events forgotten after one sync period", func(c *BehaviorCase) ([]int, bool) {
			d := *c
			d.Steps = append([]BehaviorStep(nil), c.Steps...)
			var out []BehaviorStep
			for _, s := range d.Steps {
				out = append(out, s)
				if s.Advance {
					out = append(out, s, s, s, s, s, s, s, s) // time runs faster
				}
			}
			d.Steps = out
			return ModelBehaviorRun(&d)
		}},
		{"selectPolicy ignored (always Max)", func(c *BehaviorCase) ([]int, bool) {
			d := *c
			for _, r := range []**autoscalingRules{&d.Behavior.ScaleUp, &d.Behavior.ScaleDown} {
				if *r != nil {
					cp := **r
					cp.SelectPolicy = nil
					*r = &cp
				}
			}
			return ModelBehaviorRun(&d)
		}},
	}
	for _, p := range planted {
		bad := 0
		var first *BehaviorCase
		for i := range n {
			c := GenBehaviorCase().Example(i)
			if same, _ := behaviorSame(c, p.run); !same {
				bad++
				if first == nil {
					first = c
				}
			}
		}
		if bad == 0 {
			t.Errorf("planted %q: no disagreement in %d cases", p.name, n)
			continue
		}
		t.Logf("planted %q: %d disagreements in %d cases, e.g.\n%s", p.name, bad, n, first)
	}
}

// TestTolerance: a behavior's tolerance quantity, read by the model's
// manifest reader (rounded up to 10⁻⁹ as the API does) and converted by
// model.ToleranceFloat, is the float64 upstream's tolerancesForHpa reads:
// AsApproximateFloat64 of the quantity as stored (its canonical form,
// through JSON).
func TestTolerance(t *testing.T) {
	withChecks(t, *cases)
	rapid.Check(t, func(rt *rapid.T) {
		whole := rapid.IntRange(0, 3).Draw(rt, "whole")
		digits := rapid.IntRange(0, 10).Draw(rt, "digits")
		frac := ""
		for range digits {
			frac += fmt.Sprint(rapid.IntRange(0, 9).Draw(rt, "digit"))
		}
		s := fmt.Sprint(whole)
		if frac != "" {
			s += "." + frac
		}
		if rapid.Bool().Draw(rt, "milli") {
			s = fmt.Sprintf("%dm", rapid.IntRange(0, 3000).Draw(rt, "millis"))
		}
		q, err := manifest.ParseQuantity(s)
		if err != nil {
			rt.Fatalf("%s: %v", s, err)
		}
		nanos, ok := q.Scaled(nanoUnit, true)
		if !ok {
			rt.Fatalf("%s: does not fit", s)
		}
		// The decimal a manifest reader hands the model, back to nanos.
		back, ok := model.ToleranceNanos(float64(nanos) / 1e9)
		if !ok || back != nanos {
			rt.Fatalf("%s: %d nanos come back as %d (%v)", s, nanos, back, ok)
		}
		stored, err := json.Marshal(resource.MustParse(s))
		if err != nil {
			rt.Fatal(err)
		}
		var read resource.Quantity
		if err := json.Unmarshal(stored, &read); err != nil {
			rt.Fatal(err)
		}
		if got, want := model.ToleranceFloat(nanos), read.AsApproximateFloat64(); got != want {
			rt.Fatalf("%s (stored %s): model %v, upstream %v", s, stored, got, want)
		}
	})
}

var nanoUnit = big.NewRat(1, 1_000_000_000)
