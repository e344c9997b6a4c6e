package hpadiff

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestUnknownMetrics: for a metric whose value the model does not know,
// the model's set of recommendations (controllers/hpa metricOptions,
// computed from the formulas) against upstream's replica calculator run
// at every metric value from 0 past every count and tolerance: the same
// counts (capped at maxReplicas) and the same possibility of an error.
// Pods are Running and Ready, Running and not Ready, Pending or
// Terminating; targets are small milli-values, where the formulas' steps
// skip counts. A ContainerResource metric is read on the pods' one
// container of a 100m CPU request; with a Utilization target the model's
// set is a superset (any percentage), which is what is checked.
func TestUnknownMetrics(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := *cases / 40
	kinds := []struct {
		kind   model.MetricKind
		target model.MetricTarget
	}{{model.PodsMetric, model.AverageValue}, {model.ObjectMetric, model.Value}, {model.ObjectMetric, model.AverageValue},
		{model.ExternalMetric, model.Value}, {model.ExternalMetric, model.AverageValue},
		{model.ContainerResourceMetric, model.AverageValue}, {model.ContainerResourceMetric, model.Utilization}}
	podKinds := []Kind{Ready, Ready, NotReady, Pending, Terminating}
	disagree := 0
	for i := range n {
		k := kinds[i%len(kinds)]
		c := UnknownCase{Kind: k.kind, Target: k.target, Value: []int64{1, 2, 3, 7, 50, 120}[r.IntN(6)],
			Max: 1 + r.IntN(8), TolerancePercent: []int{0, 10, 10, 50}[r.IntN(4)]}
		c.Current = 1 + r.IntN(c.Max)
		for range r.IntN(6) {
			c.Pods = append(c.Pods, Pod{Kind: podKinds[r.IntN(len(podKinds))], Request: 100})
		}
		bound := int64(c.Max+2) * c.Value * int64(len(c.Pods)+1)
		want, wantFails := RealUnknown(c, bound)
		got, gotFails := ModelUnknown(c)
		if c.Kind == model.ContainerResourceMetric && c.Target == model.Utilization {
			// The model reads any percentage: a superset.
			for v, ok := range want {
				if ok && !got[v] {
					disagree++
					t.Errorf("%v: upstream proposes %d, the model %v", c, v, counts(got))
				}
			}
			if gotFails != wantFails {
				disagree++
				t.Errorf("%v: model fails %v, upstream %v", c, gotFails, wantFails)
			}
			continue
		}
		if !slices.Equal(got, want) || gotFails != wantFails {
			disagree++
			if disagree <= 10 {
				t.Errorf("%v: model %v fails %v, upstream %v fails %v", c, counts(got), gotFails, counts(want), wantFails)
			}
		}
	}
	t.Logf("%d cases, %d disagree", n, disagree)
}

func counts(set []bool) []int {
	var out []int
	for v, ok := range set {
		if ok {
			out = append(out, v)
		}
	}
	return out
}
