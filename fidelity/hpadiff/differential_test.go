package hpadiff

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/fidelity/classify"
)

var cases = flag.Int("cases", 10000, "random cases TestCalculation and TestEvaluation compare (rapid checks)")

func TestMain(m *testing.M) {
	flag.Parse()
	if err := checkLayout(); err != nil {
		fmt.Println(err)
		return
	}
	m.Run()
}

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, 0) }

// differential checks -cases random cases: same(c) or a known class.
// rapid shrinks an unexplained disagreement before reporting it. The
// counts per class are logged (go test -v).
func differential(t *testing.T, same func(*Case) bool, show func(*Case) string) {
	withChecks(t, *cases)
	counts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		c := GenCase().Draw(rt, "case")
		if same(c) {
			counts["agree"]++
			return
		}
		class := Classify(c, same)
		if class == "" {
			rt.Fatalf("unexplained disagreement\n%s%s", c, show(c))
		}
		counts[class]++
	})
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		t.Logf("%-50s %d", k, counts[k])
	}
}

// TestCalculation: hpa.UtilizationReplicas against GetResourceReplicas.
func TestCalculation(t *testing.T) {
	differential(t, CalcSame(ModelCalc), func(c *Case) string {
		r, err := RealCalc(c)
		return fmt.Sprintf("model: %+v\nreal:  %+v (%v)\n", ModelCalc(c), r, err)
	})
}

// TestEvaluation: hpa.Recommend against GetResourceReplicas and
// normalizeDesiredReplicas.
func TestEvaluation(t *testing.T) {
	differential(t, EvalSame(ModelEval), func(c *Case) string {
		return fmt.Sprintf("model: %d\nreal:  %d\n", ModelEval(c), RealEval(c))
	})
}

// unexplained counts the cases among n generated ones (fixed seeds) on
// which same disagrees with no known class.
func unexplained(n int, same func(*Case) bool) (int, *Case) {
	var first *Case
	bad := 0
	for i := range n {
		c := GenCase().Example(i)
		if !same(c) && Classify(c, same) == "" {
			bad++
			if first == nil {
				first = c
			}
		}
	}
	return bad, first
}

// TestPlanted shows that the test has teeth: wrong calculations and
// evaluations planted on the model side produce unexplained
// disagreements on the default number of cases.
func TestPlanted(t *testing.T) {
	n := min(*cases, 2000)
	planted := []struct {
		name string
		same func(*Case) bool
	}{
		{"tolerance 20 % instead of 10 %", CalcSame(func(c *Case) Answer {
			tol := c.TolerancePercent
			if tol == 10 {
				tol = 20
			}
			p := hpa.UtilizationReplicas(c.Current, int64(c.TargetPercent), hpa.Symmetric(tol), modelPods(c))
			return Answer{Replicas: p.Replicas, Valid: p.Valid}
		})},
		{"Pending pods grouped as ready with their usage", CalcSame(func(c *Case) Answer {
			return ModelCalc(c.with(kindTo(Pending, Ready)))
		})},
		{"proposal rounded to nearest instead of up", CalcSame(func(c *Case) Answer {
			a := ModelCalc(c)
			if a.Valid && a.Replicas > 1 && a.Replicas != c.Current {
				a.Replicas-- // ⌈x⌉−1 = ⌊x⌋ for non-integral x
			}
			return a
		})},
		{"no downscale stabilisation", EvalSame(func(c *Case) int {
			d := *c
			d.WindowSyncs = 0
			return ModelEval(&d)
		})},
		{"scale-up limit 3·current", EvalSame(func(c *Case) int {
			got := ModelEval(c)
			if got == max(2*c.Current, 4) && got < c.Max && c.Current >= c.Min {
				return min(3*c.Current, c.Max)
			}
			return got
		})},
	}
	for _, p := range planted {
		bad, first := unexplained(n, p.same)
		if bad == 0 {
			t.Errorf("planted %q: no unexplained disagreement in %d cases", p.name, n)
			continue
		}
		t.Logf("planted %q: %d unexplained disagreements in %d cases, e.g.\n%s", p.name, bad, n, first)
	}
}
