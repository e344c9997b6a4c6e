package hpadiff

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
	"github.com/kivi-go/kivi/model"
)

// ovTally is what one run of the selected-pods comparison found.
type ovTally struct {
	cases, hpas, evaluated, withForeign, foreign, known int
	classes                                             map[string]int
	unexplained                                         []string
}

// compareOverlap compares n cases (fixed seeds) of model against
// upstream, HPA by HPA, classifying each disagreement.
func compareOverlap(t *testing.T, n int, model func(*OvCase) ([]OvVerdict, error)) ovTally {
	t.Helper()
	r := rand.New(rand.NewPCG(11, 36))
	tally := ovTally{classes: map[string]int{}}
	for range n {
		c := GenOvCase(r)
		m, err := model(c)
		if err != nil {
			t.Fatal(err)
		}
		up := UpstreamOverlap(c)
		tally.cases++
		for i, h := range c.HPAs {
			tally.hpas++
			if _, entry := entryCase(c.Deps[h.Target].Replicas, h.Min, h.Max); !entry {
				// The HPA reads its metric: count what it lists.
				tally.evaluated++
				if f := c.Foreign(i); f > 0 {
					tally.withForeign++
					tally.foreign += f
				}
				if h.Metric.known() {
					tally.known++
				}
			}
			if ovEqual(m[i], up[i]) {
				continue
			}
			class := classify.Classify(OvClasses(i), c, OvSame(model, i))
			if class == "" {
				tally.unexplained = append(tally.unexplained, fmt.Sprintf("HPA %s: model %v, upstream %v\n%s", h.Name, m[i], up[i], c))
				continue
			}
			tally.classes[class]++
		}
	}
	return tally
}

// TestSelectedPods: the metrics of an HPA whose target's selector also
// selects other Deployments' pods (and no other HPA's target selects
// them), the model (the case read as a running cluster's dump,
// hpa.Recommend or hpa.MetricRecommendations) against upstream's
// replica calculator over a pod lister holding every pod of the
// namespace and the target's selector (GetResourceReplicas,
// GetRawResourceReplicas through the REST metrics client, then
// normalizeDesiredReplicas; the custom and external metrics' calculators
// at every value). -cases N / 20 random cases; every disagreement must
// belong to a known class.
func TestSelectedPods(t *testing.T) {
	tally := compareOverlap(t, max(*cases/20, 50), func(c *OvCase) ([]OvVerdict, error) { return ModelOverlap(c, nil) })
	for _, u := range tally.unexplained[:min(len(tally.unexplained), 5)] {
		t.Errorf("unexplained disagreement, %s", u)
	}
	if len(tally.unexplained) > 0 {
		t.Errorf("%d unexplained disagreements", len(tally.unexplained))
	}
	t.Logf("%d cases, %d HPAs, %d reading their metric (%d a resource metric), %d of those listing other Deployments' pods (%d such pods)",
		tally.cases, tally.hpas, tally.evaluated, tally.known, tally.withForeign, tally.foreign)
	for _, k := range slices.Sorted(maps.Keys(tally.classes)) {
		t.Logf("%-40s %d", k, tally.classes[k])
	}
}

// TestSelectedPodsPlanted shows that TestSelectedPods has teeth: a model
// whose HPAs list their target's own pods only gives unexplained
// disagreements.
func TestSelectedPodsPlanted(t *testing.T) {
	n := max(*cases/100, 50)
	ownOnly := func(c *OvCase) ([]OvVerdict, error) {
		return ModelOverlap(c, func(u *model.Universe) {
			for i := range u.HPAs {
				u.HPAs[i].CountsPodsOf = nil
			}
		})
	}
	tally := compareOverlap(t, n, ownOnly)
	if len(tally.unexplained) == 0 {
		t.Fatalf("planted own-pods-only model: no unexplained disagreement in %d cases", n)
	}
	t.Logf("planted own-pods-only model: %d unexplained disagreements in %d cases, e.g. %s", len(tally.unexplained), n, tally.unexplained[0])
}

// TestSelectedPodsExamples pins the comparison on small cases: the
// canary's pod web's selector lists (both sides scale web by it), a
// memory average taken in milli-bytes, and the example of the class
// container-metric-on-pod-without-container (docs/divergences.md).
func TestSelectedPodsExamples(t *testing.T) {
	web := func(cpu int64, usage ...int64) OvDep {
		d := OvDep{Labels: map[string]string{"app": "web"}, Selector: map[string]string{"app": "web"}, Replicas: len(usage), Container: "app", CPU: cpu, Memory: 64}
		for _, u := range usage {
			d.Pods = append(d.Pods, OvPod{Phase: OvReady, CPU: u, Memory: u})
		}
		return d
	}
	canary := func(container string, usage int64) OvDep {
		return OvDep{Labels: map[string]string{"app": "web", "track": "canary"}, Selector: map[string]string{"app": "web", "track": "canary"},
			Replicas: 1, Container: container, CPU: 1000, Memory: 64, Pods: []OvPod{{Phase: OvReady, CPU: usage, Memory: 64}}}
	}
	hpa := func(m OvMetric) []OvHPA {
		return []OvHPA{{Name: "h0", Min: 2, Max: 10, Metric: m, TolerancePercent: 10}}
	}
	for _, tc := range []struct {
		name         string
		c            OvCase
		model, upstr int
		class        string
	}{
		// (1000+1000+3000)/3000 = 167 % of 100 %: ⌈5/3·3⌉ = 5, limited
		// to max(2·2, 4) = 4; web's pods alone would stay at 2.
		{"canary counted", OvCase{Deps: []OvDep{web(1000, 1000, 1000), canary("app", 3000)},
			HPAs: hpa(OvMetric{"Resource", "cpu", "Utilization", 100})}, 4, 4, ""},
		// 96.5 MiB on average, 1.5078 of 64 MiB: ⌈3.016⌉ = 4.
		{"memory average in milli-bytes", OvCase{Deps: []OvDep{web(1000, 96, 97)},
			HPAs: hpa(OvMetric{"Resource", "memory", "AverageValue", 64})}, 4, 4, ""},
		// The model reads the canary's pod whole (133 % → 4); upstream
		// has no sample of container app for it (request 0): 50 % over
		// web's pods, the canary's pod in the recomputation, ⌈0.5·3⌉ = 2.
		{"container metric, canary's container named otherwise", OvCase{Deps: []OvDep{web(1000, 500, 500), canary("main", 3000)},
			HPAs: hpa(OvMetric{"ContainerResource", "cpu", "Utilization", 100})}, 4, 2, "container-metric-on-pod-without-container"},
	} {
		m, err := ModelOverlap(&tc.c, nil)
		if err != nil {
			t.Fatal(err)
		}
		up := UpstreamOverlap(&tc.c)
		if m[0].Desired != tc.model || up[0].Desired != tc.upstr {
			t.Errorf("%s: model %v, upstream %v; want %d and %d", tc.name, m[0], up[0], tc.model, tc.upstr)
		}
		same := OvSame(func(c *OvCase) ([]OvVerdict, error) { return ModelOverlap(c, nil) }, 0)
		if got := classify.Classify(OvClasses(0), &tc.c, same); tc.class != "" && got != tc.class {
			t.Errorf("%s: classified %q, want %q", tc.name, got, tc.class)
		}
	}
}
