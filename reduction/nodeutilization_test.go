package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

func pct(v float64) *float64 { return &v }

// nodeUtilizationProblem is a hand-built cluster for the descheduler's
// node-utilisation plugins on identical nodes, so that symmetry has
// orbits to merge and the plugins' tied choices (which source node next,
// which pods of a node) are exercised under both reductions.
//   - variant 0: LowNodeUtilization; four pods stacked on the first of
//     three nodes (above the cpu target of 50 %), two kinds of pods so
//     that the walk's order decides which go.
//   - variant 1: HighNodeUtilization; pods 2-1-1 over four nodes, the
//     last one empty: two underutilised nodes of equal usage are tied
//     sources.
//   - variant 2: LowNodeUtilization with a node eviction limit of 1 and
//     the policy's total limit of 2 (the plan is cut to the limits
//     before it is chosen), two overutilised nodes of equal usage.
func nodeUtilizationProblem(t testing.TB, variant int) *compose.Problem {
	t.Helper()
	b := build.New()
	var prof model.DeschedulerProfile
	decls := []model.IntentDecl{{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}}}
	switch variant {
	case 0:
		b.AddNodes(3, build.Node().CPU(20).Mem(64))
		small := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(3, 4).Label("app", "web")), 3)
		big := b.AddDeployment("api", b.AddTemplate(build.Template("api").Requests(5, 4).Label("app", "api")), 1)
		b.RunPod(small, 0).RunPod(small, 0).RunPod(small, 0).RunPod(big, 0)
		prof = model.DeschedulerProfile{Name: "lnu", Balance: []model.BalancePlugin{model.LowNodeUtilization},
			LowNodeUtilization: &model.LowNodeUtilizationArgs{
				Thresholds:       model.ResourceThresholds{CPU: pct(20)},
				TargetThresholds: model.ResourceThresholds{CPU: pct(50)}}}
		decls = append(decls, model.IntentDecl{Name: "pod_balance_across_node", Params: map[string]any{"did": 1, "maxSkew": 1}})
	case 1:
		b.AddNodes(4, build.Node().CPU(20).Mem(64))
		d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web")), 4)
		b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 1).RunPod(d, 2)
		prof = model.DeschedulerProfile{Name: "hnu", Balance: []model.BalancePlugin{model.HighNodeUtilization}, NodeFit: true,
			HighNodeUtilization: &model.HighNodeUtilizationArgs{Thresholds: model.ResourceThresholds{CPU: pct(25)}}}
	default:
		b.AddNodes(4, build.Node().CPU(20).Mem(64))
		d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web")), 6)
		b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 0).RunPod(d, 1).RunPod(d, 1).RunPod(d, 1)
		one := 1
		prof = model.DeschedulerProfile{Name: "lnu", Balance: []model.BalancePlugin{model.LowNodeUtilization},
			LowNodeUtilization: &model.LowNodeUtilizationArgs{
				Thresholds:        model.ResourceThresholds{CPU: pct(10), Pods: pct(10)},
				TargetThresholds:  model.ResourceThresholds{CPU: pct(40), Pods: pct(40)},
				EvictionLimitNode: &one}}
	}
	b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{prof}}
	if variant == 2 {
		b.U.Descheduler.MaxTotal = 2
	}
	b.Slots = len(b.U.Nodes) + 3
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.DeschedulerPending = true
	p, err := compose.NewProblemFrom(fmt.Sprintf("nodeutilization%d", variant), u, s, decls, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// nodeUtilizationClusters are nodeUtilizationProblem's variants for the
// symmetry property tests (symmetricClusters).
func nodeUtilizationClusters(t testing.TB) []symCluster {
	var out []symCluster
	for v := range 3 {
		out = append(out, symCluster{fmt.Sprintf("nodeutilization%d", v), nodeUtilizationProblem(t, v)})
	}
	return out
}

// nodeUtilizationProblems are the same for the partial-order reduction's
// tests (porProblems).
func nodeUtilizationProblems(t testing.TB) []porProblem {
	var out []porProblem
	for _, c := range nodeUtilizationClusters(t) {
		out = append(out, porProblem{c.name, c.p})
	}
	return out
}

// TestSymmetrySameVerdictsWithNodeUtilization: the node-utilisation
// clusters have the same verdicts with and without symmetry, their
// reduced counterexamples replay unreduced, and symmetry merges states
// where the nodes are interchangeable.
func TestSymmetrySameVerdictsWithNodeUtilization(t *testing.T) {
	for _, c := range nodeUtilizationClusters(t) {
		on, off := compareVerdicts(t, c.p)
		t.Logf("%s: %d states reduced, %d full", c.name, on, off)
		if c.name != "nodeutilization2" && on >= off {
			t.Errorf("%s: symmetry merged nothing (%d states, %d without)", c.name, on, off)
		}
	}
}
