package hpa

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestMetricOptions: the recommendations a metric outside the model can
// make, from upstream's formulas (replica_calculator.go v1.36:
// calcPlainMetricReplicas, getUsageRatioReplicaCount,
// GetExternalPerPodMetricReplicas) over every metric value ≥ 0, capped at
// maxReplicas 10 (the last count stands for 10 and more).
func TestMetricOptions(t *testing.T) {
	all := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	tests := []struct {
		name             string
		metric           model.Metric
		running, pending int
		current          int
		want             []int
		fails            bool
	}{
		{"External Value: the ratio times 3 Ready pods reaches every count", model.Metric{Kind: model.ExternalMetric, Target: model.Value, Value: 1000},
			3, 0, 3, all, false},
		// ⌈a·3⌉ for a target of 1m: 0, 3 (a = 1 is within the tolerance:
		// the current count), 6, 9, 12 and more.
		{"External Value: a target of 1m reaches only multiples of the Ready pods", model.Metric{Kind: model.ExternalMetric, Target: model.Value, Value: 1},
			3, 0, 3, []int{0, 3, 6, 9, 10}, false},
		// A scale-down reads the 2 ready pods (⌈r·2⌉ ≤ 2); a scale-up counts
		// the 2 Pending pods at 0 and is kept at current unless it asks for
		// more: 3 is never proposed.
		{"Pods with unready pods: no count between the ready pods and current", model.Metric{Kind: model.PodsMetric, Target: model.AverageValue, Value: 1000},
			2, 2, 4, []int{0, 1, 2, 4, 5, 6, 7, 8, 9, 10}, false},
		{"Pods without a Running pod fails", model.Metric{Kind: model.PodsMetric, Target: model.AverageValue, Value: 1000},
			0, 2, 2, nil, true},
		{"Object Value without a pod: current within the tolerance, else it fails", model.Metric{Kind: model.ObjectMetric, Target: model.Value, Value: 1000},
			0, 0, 2, []int{2}, true},
		// status.replicas 1: within the tolerance 1, else ⌈a/1000⌉ for a
		// out of [900, 1100].
		{"External AverageValue against status.replicas", model.Metric{Kind: model.ExternalMetric, Target: model.AverageValue, Value: 1000},
			1, 0, 3, all, false},
		{"External AverageValue with a target of 1m per pod", model.Metric{Kind: model.ExternalMetric, Target: model.AverageValue, Value: 1},
			1, 0, 3, all, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node().CPU(640))
			app := b.AddTemplate(build.Template("app").Requests(8, 8))
			web := b.AddDeployment("web", app, tc.current)
			for range tc.running {
				b.RunPod(web, 0)
			}
			for range tc.pending {
				b.PendingPod(web, 0)
			}
			_, s := b.MustBuild()
			got := metricOptions(nil, s, web, &tc.metric, tc.current, Symmetric(10), 10)
			var counts []int
			for v, ok := range got.counts {
				if ok {
					counts = append(counts, v)
				}
			}
			if !slices.Equal(counts, tc.want) || got.fails != tc.fails {
				t.Errorf("counts %v fails %v, want %v fails %v", counts, got.fails, tc.want, tc.fails)
			}
		})
	}
}

// TestEnvironments: two metrics outside the model combine as the maximum
// of their recommendations, and each may also fail (its metrics API does
// not answer), which adds the failed outcomes: with both failing, no
// recommendation at all (value −1).
func TestEnvironments(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(640))
	app := b.AddTemplate(build.Template("app").Requests(8, 8))
	web := b.AddDeployment("web", app, 2)
	_, s := b.MustBuild()
	spec := &model.HPA{Min: 1, Max: 4, TolerancePercent: 10, Metrics: []model.Metric{
		// No pod: the Value metric proposes 2 (within the tolerance) or
		// fails; the AverageValue one against status.replicas 0 anything.
		{Kind: model.ObjectMetric, Target: model.Value, Value: 1000, Name: "o"},
		{Kind: model.ExternalMetric, Target: model.AverageValue, Value: 1000, Name: "e"},
	}}
	got := environments(s, web, spec, 2)
	want := []environment{{2, false}, {3, false}, {4, false}, {-1, true}, {0, true}, {1, true}, {2, true}, {3, true}, {4, true}}
	if !slices.Equal(got, want) {
		t.Errorf("environments %v, want %v", got, want)
	}
}

// TestEnvironmentMoves: in a quiescent state the HPA re-syncs a
// deployment whose metric outside the model could change its count, and
// is not enabled when no value could (minReplicas = maxReplicas), so the
// cluster can come to rest.
func TestEnvironmentMoves(t *testing.T) {
	for _, tc := range []struct {
		max  int
		want bool
	}{{2, false}, {3, true}} {
		b := build.New()
		b.AddNodes(1, build.Node().CPU(640))
		app := b.AddTemplate(build.Template("app").Requests(8, 8))
		web := b.AddDeployment("web", app, 2)
		b.RunPod(web, 0).RunPod(web, 0)
		b.U.HPAs = append(b.U.HPAs, model.HPA{Min: 2, Max: tc.max, Metrics: []model.Metric{
			{Kind: model.ExternalMetric, Target: model.Value, Value: 1000, Name: "queue"}}})
		b.WithHPA(web, len(b.U.HPAs))
		u, s := b.MustBuild()
		if got := New().Enabled(u, s); got != tc.want {
			t.Errorf("maxReplicas %d: enabled %v, want %v", tc.max, got, tc.want)
		}
	}
}

// TestNoUnknownMetricNoChange: without a metric outside the model the HPA
// is as before: no sync in a quiescent state, its DisabledBy the HPA
// queue, one successor per evaluation; with one, the evaluation
// branches and DisabledBy is the whole cluster.
func TestNoUnknownMetricNoChange(t *testing.T) {
	for _, unknown := range []bool{false, true} {
		b := build.New()
		b.AddNodes(1, build.Node().CPU(640))
		app := b.AddTemplate(build.Template("app").Requests(8, 8))
		web := b.AddDeployment("web", app, 2)
		b.RunPodCPU(web, 0, 4).RunPodCPU(web, 0, 4)
		h := b.AddHPA(1, 6, 50)
		if unknown {
			b.U.HPAs[h-1].Metrics = append(b.U.HPAs[h-1].Metrics, model.Metric{Kind: model.ExternalMetric, Target: model.Value, Value: 1000, Name: "queue"})
		}
		b.WithHPA(web, h)
		u, s := b.MustBuild()
		p := New()
		if got := p.Enabled(u, s); got != unknown {
			t.Errorf("unknown metric %v: enabled at quiescence %v", unknown, got)
		}
		wantFootprint := model.QueueFootprint(model.HPAQueue)
		if unknown {
			wantFootprint = model.ClusterFootprint()
		}
		if got := p.DisabledBy(u, s); got != wantFootprint {
			t.Errorf("unknown metric %v: DisabledBy %v", unknown, got)
		}
		s.Enqueue(model.HPAQueue, web)
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		n := 1
		for {
			p.Step(tx, s.Clone())
			if !tx.Advance() {
				break
			}
			tx.Restart(false)
			n++
		}
		if want := map[bool]int{false: 1, true: 3}[unknown]; n != want {
			t.Errorf("unknown metric %v: %d successors, want %d", unknown, n, want)
		}
	}
}
