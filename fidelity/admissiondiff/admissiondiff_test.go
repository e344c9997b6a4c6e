package admissiondiff

import (
	"flag"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
	"pgregory.net/rapid"
)

var (
	cases = flag.Int("cases", 2000, "random cases TestLimitRanger and TestDaemonSetPlacement compare (rapid checks)")
	seed  = flag.Uint64("seed", 1, "rapid's seed (0: a random one; -rapid.seed overrides it)")
)

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, *seed) }

// limitsSame compares the model with pipeline p on c; a model error
// other than a refusal fails the test.
func limitsSame(t interface{ Fatalf(string, ...any) }, p Pipeline) func(*LimitCase) bool {
	return func(c *LimitCase) bool {
		m, err := ModelLimits(c)
		if err != nil {
			t.Fatalf("%v\n%s", err, c)
		}
		return m.same(p.RealLimits(c))
	}
}

func outcome(v Verdict) string {
	switch {
	case v.LimitRangeRefused:
		return "LimitRange refused"
	case v.DeploymentRefused:
		return "Deployment refused"
	case v.PodRefused:
		return "pod refused"
	}
	return "admitted"
}

// TestLimitRanger compares the model's LimitRange defaulting and
// rejection with the API server's on -cases random cases: the same
// verdict, or a known class. The counts per outcome and class are logged
// (go test -v), and the cases where upstream's verdict depends on the
// order of the namespace's LimitRanges.
func TestLimitRanger(t *testing.T) {
	withChecks(t, *cases)
	var counts classify.Counter
	rapid.Check(t, func(rt *rapid.T) {
		c := GenLimitCase(rt)
		real := Pipeline{}.RealLimits(c)
		counts.Add("upstream: " + outcome(real))
		if orderMatters(c) {
			counts.Add("upstream's verdict depends on the LimitRanges' order")
		}
		same := limitsSame(rt, Pipeline{})
		if same(c) {
			counts.Add("agree")
			return
		}
		class := Classify(LimitClasses, c, same)
		if class == "" {
			m, _ := ModelLimits(c)
			rt.Fatalf("unexplained disagreement\n%smodel: %s\nreal:  %s", c, m, real)
		}
		counts.Add("class: " + class)
	})
	counts.Log(t)
}

// TestDaemonSetPlacement compares the model's DaemonSet reservations
// with NodeShouldRunDaemonPod on the nodes of -cases random cases, node
// by node. Disagreements with the plain shouldRun and
// shouldContinueRunning are counted, not failed: the model's rule is
// their combination (RealDaemons).
func TestDaemonSetPlacement(t *testing.T) {
	withChecks(t, *cases)
	var counts classify.Counter
	rapid.Check(t, func(rt *rapid.T) {
		c := GenDaemonCase(rt)
		if why := c.Validate(); why != "" {
			rt.Fatalf("the generator drew a DaemonSet the API server refuses: %s\n%s", why, c)
		}
		got, err := ModelDaemons(c)
		if err != nil {
			rt.Fatalf("%v", err)
		}
		want, up := RealDaemons(c)
		for i := range c.Nodes {
			counts.Add(fmt.Sprintf("nodes: runs %v", want[i]))
			if got[i] != up.ShouldRun[i] {
				counts.Add(fmt.Sprintf("model %v, shouldRun %v", got[i], up.ShouldRun[i]))
			}
			if got[i] != up.ShouldContinueRunning[i] {
				counts.Add(fmt.Sprintf("model %v, shouldContinueRunning %v", got[i], up.ShouldContinueRunning[i]))
			}
			if got[i] != want[i] {
				rt.Fatalf("node %s: model runs the pod %v, upstream %v (shouldRun %v, shouldContinueRunning %v)\n%s",
					c.Nodes[i].Name, got[i], want[i], up.ShouldRun[i], up.ShouldContinueRunning[i], c)
			}
		}
	})
	counts.Log(t)
}

// TestKnownLimitClasses pins a minimal example of every class.
func TestKnownLimitClasses(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    LimitCase
		want string
	}{
		// The limit 65Mi is above max, 64Mi and a byte; in MiB rounded up
		// both are 65.
		{"sub-unit quantity", LimitCase{Containers: []Container{{Limits: Resources{"memory": "65Mi"}}},
			LimitRanges: [][]Item{{{Type: "Container", Max: Resources{"memory": "67108865"}}}}}, "sub-unit quantity"},
		// Two containers of 1 CPU against a Pod item's max of 1.5.
		{"Pod item not checked", LimitCase{Containers: []Container{{Requests: Resources{"cpu": "1"}}, {Requests: Resources{"cpu": "1"}}},
			LimitRanges: [][]Item{{{Type: "Pod", Max: Resources{"cpu": "1500m"}}}}}, "Pod item not checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			same := limitsSame(t, Pipeline{})
			if same(&tc.c) {
				t.Fatal("the model and upstream agree")
			}
			if got := Classify(LimitClasses, &tc.c, same); got != tc.want {
				t.Fatalf("class %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPlantedPipelines shows that the LimitRange comparison has teeth:
// wrong pipelines put in upstream's place produce unexplained
// disagreements on some of the first cases (fixed seeds).
func TestPlantedPipelines(t *testing.T) {
	n := min(*cases, 500)
	for name, p := range map[string]Pipeline{
		"no SetDefaults_Pod":            {NoPodDefaults: true},
		"no SetDefaults_LimitRangeItem": {NoItemDefaults: true},
		"no PodMutateLimitFunc":         {NoMutation: true},
		"LimitRanges in reversed order": {Order: []int{1, 0}},
	} {
		t.Run(name, func(t *testing.T) {
			found := 0
			var first *LimitCase
			for i := range n {
				c := rapid.Custom(GenLimitCase).Example(i)
				if p.Order != nil && len(c.LimitRanges) != len(p.Order) {
					continue
				}
				same := limitsSame(t, p)
				if !same(c) && Classify(LimitClasses, c, same) == "" {
					if first == nil {
						first = c
					}
					found++
				}
			}
			if found == 0 {
				t.Fatalf("the planted pipeline was never caught in %d cases", n)
			}
			t.Logf("caught on %d of %d cases, e.g.\n%s", found, n, first)
		})
	}
}
