package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// pdbProblem is a hand-built cluster whose descheduler evictions a
// PodDisruptionBudget cuts short: identical nodes, web's pods stacked on
// the first nodes so that RemoveDuplicates plans several evictions, a
// budget on web (variant 0: minAvailable 2 of 3; variant 1: maxUnavailable
// 34% of the spec replicas, which a scaleDeployment command moves), and a
// second deployment db the budget does not select. The budget refuses
// some of the plan, so which pods go depends on the evictor's order.
func pdbProblem(t testing.TB, nodes, variant int) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(nodes, build.Node().CPU(20).Mem(64))
	web := b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web"))
	db := b.AddTemplate(build.Template("db").Requests(4, 4).Label("app", "db"))
	var dw, dd int
	if variant == 2 {
		// Two identical nodes hold three web pods each, one of them a db
		// pod too: the budget lets one duplicate go, and which node loses
		// it (the one with db or the other) depends on the node order.
		dw = b.AddDeployment("web", web, 6)
		dd = b.AddDeployment("db", db, 1)
		b.RunPod(dw, 0).RunPod(dw, 0).RunPod(dw, 0).RunPod(dw, 1).RunPod(dw, 1).RunPod(dw, 1)
		b.RunPod(dd, 1)
	} else {
		dw = b.AddDeployment("web", web, 3)
		dd = b.AddDeployment("db", db, 2)
		b.RunPod(dw, 0).RunPod(dw, 0).RunPod(dw, 1)
		b.RunPod(dd, 0).RunPod(dd, 0)
	}
	pdb := model.PodDisruptionBudget{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}}}
	switch variant {
	case 0:
		pdb.MinAvailable = &model.IntOrPercent{Value: 2}
	case 2:
		pdb.MaxUnavailable = &model.IntOrPercent{Value: 1}
	default:
		pdb.MaxUnavailable = &model.IntOrPercent{Value: 34, Percent: true}
		b.AddEvent(model.Event{Kind: model.ScaleDeployment, Slot: model.AfterStable, Deployment: dw, MaxDeployment: dw + 1, MaxDelta: 1})
	}
	b.U.PDBs = []model.PodDisruptionBudget{pdb}
	b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "dup", Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
	b.Slots = 14
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.DeschedulerPending = true
	s.Init = model.InitMain
	decls := []model.IntentDecl{
		{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-1"}},
		{Name: "pod_balance_across_node", Params: map[string]any{"did": 2, "maxSkew": 1}},
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("pdb%d/%d", variant, nodes), u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pdbProblems are pdbProblem's variants, for porProblems and
// symmetricClusters.
func pdbProblems(t testing.TB) []porProblem {
	return []porProblem{
		{"pdb0/3", pdbProblem(t, 3, 0)},
		{"pdb1/3", pdbProblem(t, 3, 1)},
		{"pdb0/4", pdbProblem(t, 4, 0)},
		{"pdb2/3", pdbProblem(t, 3, 2)},
	}
}

func pdbClusters(t testing.TB) []symCluster {
	var out []symCluster
	for _, pp := range pdbProblems(t) {
		out = append(out, symCluster{pp.name, pp.p})
	}
	return out
}

// TestSymmetrySameVerdictsWithDisruptionBudgets (d): the budget clusters
// have the same verdicts and shortest counterexample lengths with and
// without symmetry, and their reduced counterexamples replay; the
// descheduler declares its budget facts.
func TestSymmetrySameVerdictsWithDisruptionBudgets(t *testing.T) {
	for _, c := range pdbClusters(t) {
		facts := compose.SymmetryFacts(c.p.System.U)
		found := false
		for _, f := range facts {
			found = found || f.Rule == "DeschedulerDisruptionBudgets"
		}
		if !found {
			t.Errorf("%s: no DeschedulerDisruptionBudgets fact in %v", c.name, facts)
		}
		on, off := compareVerdicts(t, c.p)
		t.Logf("%s: %d states reduced, %d full", c.name, on, off)
	}
}
