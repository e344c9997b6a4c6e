package hpa

import (
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestStabilize runs sequences of window operations (upstream Kubernetes,
// horizontal.go@v1.36.3 stabilizeRecommendation and
// recordInitialRecommendation):
//   - seed n: the first sync records the current count;
//   - eval n: an evaluation in the current sync period proposes n;
//   - sync n: a sync period passes (Advance), then an evaluation
//     proposes n.
//
// want is the stabilised count (eval, sync) and window the memory after
// the operation, newest period first.
func TestStabilize(t *testing.T) {
	type op struct {
		do     string
		n      int
		want   int
		window []int16
	}
	tests := []struct {
		name       string
		syncs, max int
		ops        []op
	}{
		{"held back by an earlier higher recommendation, released once it leaves the window", 2, 10, []op{
			{"eval", 6, 6, []int16{6, 0, 0}},
			{"eval", 3, 6, []int16{6, 0, 0}}, // same period: 3 is below 6 and dropped
			{"sync", 3, 6, []int16{3, 6, 0}},
			{"sync", 3, 6, []int16{3, 0, 6}}, // the older 3 is below the newer one
			{"sync", 3, 3, []int16{3, 0, 0}}, // 6 left after W+1 = 3 syncs
		}},
		{"a falling load steps down one held recommendation at a time", 1, 10, []op{
			{"eval", 8, 8, []int16{8, 0}},
			{"sync", 5, 8, []int16{5, 8}},
			{"sync", 3, 5, []int16{3, 5}},
			{"sync", 3, 3, []int16{3, 0}},
		}},
		{"scale-up unaffected by lower recommendations", 2, 10, []op{
			{"eval", 3, 3, []int16{3, 0, 0}},
			{"sync", 2, 3, []int16{2, 3, 0}},
			{"eval", 7, 7, []int16{7, 0, 0}}, // 7 dominates everything older
		}},
		{"legacy stabilisation can raise a scale-up to a higher recent recommendation", 2, 10, []op{
			{"eval", 9, 9, []int16{9, 0, 0}},
			{"sync", 5, 9, []int16{5, 9, 0}},
			{"eval", 7, 9, []int16{7, 9, 0}},
		}},
		{"seeding holds the first scale-down at the current count", 1, 10, []op{
			{"seed", 4, 0, []int16{4, 0}},
			{"eval", 1, 4, []int16{4, 0}},
			{"sync", 1, 4, []int16{1, 4}},
			{"sync", 1, 1, []int16{1, 0}},
		}},
		{"recommendations above maxReplicas are recorded as maxReplicas", 1, 6, []op{
			{"seed", 9, 0, []int16{6, 0}},
			{"eval", 12, 12, []int16{6, 0}},
			{"sync", 4, 6, []int16{4, 6}},
		}},
		{"an evaluation without a recommendation still lets the period pass", 1, 10, []op{
			{"eval", 5, 5, []int16{5, 0}},
			{"advance", 0, 0, []int16{0, 5}},
			{"advance", 0, 0, []int16{0, 0}},
			{"eval", 2, 2, []int16{2, 0}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			window := make([]int16, tc.syncs+1)
			for i, o := range tc.ops {
				got := 0
				switch o.do {
				case "seed":
					Record(window, o.n, tc.max)
				case "eval":
					got = Stabilize(window, o.n, tc.max)
				case "sync":
					Advance(window)
					got = Stabilize(window, o.n, tc.max)
				case "advance":
					Advance(window)
				default:
					t.Fatalf("op %d: unknown %q", i, o.do)
				}
				if got != o.want || !slices.Equal(window, o.window) {
					t.Fatalf("op %d (%s %d): stabilised %d, window %v; want %d, %v", i, o.do, o.n, got, window, o.want, o.window)
				}
			}
		})
	}
}

// TestWindowedHPA drives the HPA process on one deployment of replicas
// Running pods (request 8) at the given CPU usage, HPA 1..6 at 50 %,
// queued once: every HPA step while it is enabled, with the
// deployment's Describe line after each.
func TestWindowedHPA(t *testing.T) {
	tests := []struct {
		name            string
		syncs, replicas int
		usage           int64
		want            []string
	}{
		{"off: Kivi's immediate scale-down, no memory in the state", 0, 4, 1, []string{
			"[horizontal-pod-autoscaler] Scaling deployment web from 4 to 1 replicas | spec 1 running 4 pending 0 terminating 0 hpa 1..6",
		}},
		{"the seeded count holds the scale-down for W+1 sync periods", 1, 4, 1, []string{
			"[horizontal-pod-autoscaler] Deployment web: scale-down stabilization, recommendation 1, highest recent recommendation 4 | spec 4 running 4 pending 0 terminating 0 hpa 1..6 window [4 0] held",
			"[horizontal-pod-autoscaler] Sync period passed, re-evaluating deployment web [horizontal-pod-autoscaler] Deployment web: scale-down stabilization, recommendation 1, highest recent recommendation 4 | spec 4 running 4 pending 0 terminating 0 hpa 1..6 window [1 4] held",
			"[horizontal-pod-autoscaler] Sync period passed, re-evaluating deployment web [horizontal-pod-autoscaler] Scaling deployment web from 4 to 1 replicas | spec 1 running 4 pending 0 terminating 0 hpa 1..6 window [1 0]",
		}},
		{"a scale-up is not held", 2, 2, 8, []string{
			"[horizontal-pod-autoscaler] Scaling deployment web from 2 to 4 replicas | spec 4 running 2 pending 0 terminating 0 hpa 1..6 window [4 0 0]",
		}},
		{"within tolerance: no change, nothing held", 2, 3, 4, []string{
			" | spec 3 running 3 pending 0 terminating 0 hpa 1..6 window [3 0 0]",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node().CPU(64).Mem(64))
			d := b.AddDeployment("web", b.AddTemplate(build.Template("app").Requests(8, 8)), tc.replicas)
			h := b.AddHPA(1, 6, 50)
			b.U.HPAs[h-1].ScaleDownStabilizationSyncs = tc.syncs
			b.WithHPA(d, h)
			for range tc.replicas {
				b.RunPodCPU(d, 0, tc.usage)
			}
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			s.Init = model.InitMain
			s.Enqueue(model.HPAQueue, d)
			p := New()
			var got []string
			for len(got) <= len(tc.want) && p.Enabled(u, s) {
				tx := model.NewTx(u)
				tx.Begin(nil, true)
				p.Step(tx, s)
				var lines []string
				for _, l := range tx.Lines {
					lines = append(lines, l.String())
				}
				got = append(got, strings.Join(lines, " ")+" | "+deploymentLine(u, s))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestResyncWaitsForQuiescence: held-back deployments sync again only
// when every queue is empty (the events compete with them there), and a
// sync period passes for every HPA at once: one successor ages both
// windows; the period that releases both scale-downs has one successor
// per order in which they reach the deployment controller.
func TestResyncWaitsForQuiescence(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(64).Mem(64))
	tmpl := b.AddTemplate(build.Template("app").Requests(8, 8))
	for _, name := range []string{"a", "b"} {
		d := b.AddDeployment(name, tmpl, 2)
		h := b.AddHPA(1, 6, 50)
		b.U.HPAs[h-1].ScaleDownStabilizationSyncs = 1
		b.WithHPA(d, h)
		b.RunPodCPU(d, 0, 1).RunPodCPU(d, 0, 1)
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	s.Enqueue(model.HPAQueue, 0)
	s.Enqueue(model.HPAQueue, 1)
	p := New()
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	p.Step(tx, s)
	if !s.Deps[0].HPAHeld || !s.Deps[1].HPAHeld {
		t.Fatalf("both deployments should be held by their seeded count:\n%s", model.Describe(u, s))
	}
	busy := s.Clone()
	busy.Enqueue(model.KubeletQueue, 0)
	if p.Enabled(u, busy) {
		t.Error("resync enabled while the kubelet queue has work")
	}
	successors := func(s *model.State) []*model.State {
		var out []*model.State
		tx.Begin(nil, false)
		for {
			next := s.Clone()
			tx.Restart(false)
			p.Step(tx, next)
			out = append(out, next)
			if !tx.Advance() {
				return out
			}
		}
	}
	first := successors(s)
	if len(first) != 1 {
		t.Fatalf("the first period has %d successors, want 1", len(first))
	}
	for d := range first[0].Deps {
		if first[0].Deps[d].HPAWindow == s.Deps[d].HPAWindow {
			t.Errorf("the period did not move deployment %s's window", u.Deployments[d].Name)
		}
	}
	if !first[0].Deps[0].HPAHeld || !first[0].Deps[1].HPAHeld || !first[0].Empty(model.DeploymentQueue) {
		t.Fatalf("one period of a one-period window still holds both:\n%s", model.Describe(u, first[0]))
	}
	var orders []string
	for _, next := range successors(first[0]) {
		var names []string
		for _, d := range next.Queues[model.DeploymentQueue] {
			names = append(names, u.Deployments[d].Name)
		}
		orders = append(orders, strings.Join(names, ","))
		if next.Deps[0].Replicas != 1 || next.Deps[1].Replicas != 1 {
			t.Errorf("the second period should scale both down to 1:\n%s", model.Describe(u, next))
		}
	}
	if !slices.Equal(orders, []string{"a,b", "b,a"}) {
		t.Errorf("the second period's successors queue %q, want both orders", orders)
	}
}

// deploymentLine is deployment 0's Describe line without its name.
func deploymentLine(u *model.Universe, s *model.State) string {
	for _, l := range strings.Split(model.Describe(u, s), "\n") {
		if rest, ok := strings.CutPrefix(l, "deployment web: "); ok {
			return rest
		}
	}
	return ""
}
