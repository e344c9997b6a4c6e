package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// preemptionProblem is a hand-built cluster of full nodes where the
// deployment controller creates two pods of a high-priority deployment,
// which preempt pods of two low-priority deployments: variant 0 without
// a budget, 1 with a budget on one low-priority deployment.
func preemptionProblem(t testing.TB, nodes, variant int) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(nodes, build.Node().CPU(8).Mem(64))
	batch := b.AddDeployment("batch", b.AddTemplate(build.Template("batch").Requests(4, 4).Label("app", "batch").Priority(10)), 2)
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web").Priority(10)), nodes)
	crit := b.AddDeployment("crit", b.AddTemplate(build.Template("crit").Requests(8, 8).Label("app", "crit").Priority(1000)), 2)
	b.RunPod(batch, 0).RunPod(batch, 1)
	for n := range nodes {
		b.RunPod(web, n)
	}
	if variant == 1 {
		b.U.PDBs = []model.PodDisruptionBudget{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
			MinAvailable: &model.IntOrPercent{Value: nodes - 1}}}
	}
	b.Slots = 2 + nodes + 4
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	s.Enqueue(model.DeploymentQueue, crit)
	decls := []model.IntentDecl{{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 2, "expReplicas": "spec-1"}}}
	p, err := compose.NewProblemFrom(fmt.Sprintf("preemption%d/%d", variant, nodes), u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func preemptionClusters(t testing.TB) []symCluster {
	return []symCluster{
		{"preemption0/3", preemptionProblem(t, 3, 0)},
		{"preemption1/3", preemptionProblem(t, 3, 1)},
	}
}
