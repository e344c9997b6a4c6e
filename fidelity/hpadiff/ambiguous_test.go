package hpadiff

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// ambTally is what one run of the AmbiguousSelector comparison found.
type ambTally struct {
	cases, hpas, ambiguous, decided int
	classes                         map[string]int
	unexplained                     []string
}

// compareAmbiguous compares n cases (fixed seeds) of model against
// upstream, HPA by HPA, classifying each disagreement.
func compareAmbiguous(t *testing.T, n int, model func(*AmbCase) ([]AmbVerdict, error)) ambTally {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 36))
	tally := ambTally{classes: map[string]int{}}
	for range n {
		c := GenAmbCase(r)
		m, err := model(c)
		if err != nil {
			t.Fatal(err)
		}
		up := UpstreamAmbiguous(c)
		tally.cases++
		for i := range c.HPAs {
			tally.hpas++
			if up[i].Ambiguous {
				tally.ambiguous++
			}
			if up[i].Decided {
				tally.decided++
			}
			if ambEqual(m[i], up[i]) {
				continue
			}
			class := classify.Classify(AmbClasses(i), c, AmbSame(model, i))
			if class == "" {
				tally.unexplained = append(tally.unexplained, fmt.Sprintf("HPA %s: model %+v, upstream %+v\n%s", c.HPAs[i].Name, m[i], up[i], c))
				continue
			}
			tally.classes[class]++
		}
	}
	return tally
}

// TestAmbiguousSelector: whether an HPA's sync finds AmbiguousSelector
// (the pods its target's selector lists are selected by another HPA's
// target too, or its target has several HPAs) and the counts its
// workload's HPA syncs then leave (the entry cases only), the model
// (manifests read by the reader, hpa.AmbiguousNow, the HPA step) against
// kube-controller-manager's validateAndParseSelector over a registry of
// every HPA's selector and the pods that exist. -cases N / 10 random
// cases; every disagreement must belong to a known class.
func TestAmbiguousSelector(t *testing.T) {
	tally := compareAmbiguous(t, max(*cases/10, 50), ModelAmbiguous)
	for _, u := range tally.unexplained[:min(len(tally.unexplained), 5)] {
		t.Errorf("unexplained disagreement, %s", u)
	}
	if len(tally.unexplained) > 0 {
		t.Errorf("%d unexplained disagreements", len(tally.unexplained))
	}
	t.Logf("%d cases, %d HPAs, %d ambiguous upstream, %d with outcomes decided upstream (compared)", tally.cases, tally.hpas, tally.ambiguous, tally.decided)
	for _, k := range slices.Sorted(maps.Keys(tally.classes)) {
		t.Logf("%-40s %d", k, tally.classes[k])
	}
}

// TestAmbiguousPlanted shows that TestAmbiguousSelector has teeth: wrong
// models planted by reading a distorted case give unexplained
// disagreements.
func TestAmbiguousPlanted(t *testing.T) {
	n := max(*cases/50, 50)
	distort := func(f func(*AmbDep)) func(*AmbCase) ([]AmbVerdict, error) {
		return func(c *AmbCase) ([]AmbVerdict, error) {
			d := c.clone()
			for i := range d.Deps {
				f(&d.Deps[i])
			}
			return ModelAmbiguous(d)
		}
	}
	planted := []struct {
		name  string
		model func(*AmbCase) ([]AmbVerdict, error)
	}{
		{"a selector taken as the whole template (no overlap across workloads)", distort(func(d *AmbDep) { d.Selector = maps.Clone(d.Labels) })},
		{"pods taken to exist whenever spec.replicas > 0", distort(func(d *AmbDep) {
			if d.Replicas > 0 && len(d.Pods) == 0 {
				d.Pods = []AmbPhase{AmbRunning}
			}
		})},
	}
	for _, p := range planted {
		tally := compareAmbiguous(t, n, p.model)
		if len(tally.unexplained) == 0 {
			t.Errorf("planted %q: no unexplained disagreement in %d cases", p.name, n)
			continue
		}
		t.Logf("planted %q: %d unexplained disagreements in %d cases, e.g. %s", p.name, len(tally.unexplained), n, tally.unexplained[0])
	}
}
