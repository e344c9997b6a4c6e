package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// deleteNodeProblem is a hand-built cluster with a kubectl delete node:
// identical nodes, web's pods stacked on the first nodes and a db
// StatefulSet pod on node 0. Variants: 0, node 0 deleted at any time
// (the pod garbage collector deletes its pods, their controllers replace
// them elsewhere); 1, node 0 drained first through a budget
// minAvailable 2 of web's 3, then deleted; 2, node 0 lost for good
// (db-0 stays Terminating on it) and deleted once the cluster is quiet;
// 3, node 1 deleted while node 0 may fail and come back.
func deleteNodeProblem(t testing.TB, nodes, variant int) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(nodes, build.Node().CPU(20).Mem(64))
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web")), 3)
	db := b.AddStatefulSet("db", b.AddTemplate(build.Template("db").Requests(4, 4).Label("app", "db")), 1)
	b.RunPod(web, 0).RunPod(web, 0).RunPod(web, 1).RunPod(db, 0)
	ev := model.Event{Kind: model.DeleteNode, Node: 0}
	switch variant {
	case 1:
		b.U.PDBs = []model.PodDisruptionBudget{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
			MinAvailable: &model.IntOrPercent{Value: 2}}}
		ev.DrainFirst = true
	case 2:
		b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 0, Permanent: true})
		ev.Slot = model.AfterStable
	case 3:
		b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 0})
		ev.Node = 1
	}
	b.AddEvent(ev)
	b.Slots = 10
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	decls := []model.IntentDecl{
		{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-2"}},
		{Name: "rollout_completes", Params: map[string]any{"did": 2}},
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("deletenode%d/%d", variant, nodes), u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// deleteNodeProblems are deleteNodeProblem's variants, for porProblems
// and symmetricClusters.
func deleteNodeProblems(t testing.TB) []porProblem {
	return []porProblem{
		{"deletenode0/3", deleteNodeProblem(t, 3, 0)},
		{"deletenode1/3", deleteNodeProblem(t, 3, 1)},
		{"deletenode2/3", deleteNodeProblem(t, 3, 2)},
		{"deletenode3/4", deleteNodeProblem(t, 4, 3)},
	}
}

func deleteNodeClusters(t testing.TB) []symCluster { return asClusters(deleteNodeProblems(t)) }

// deleteNodeViolations are the properties each variant violates.
var deleteNodeViolations = map[string][]string{
	"deletenode0/3": nil,
	"deletenode1/3": nil,
	"deletenode2/3": nil,
	"deletenode3/4": {"replica_num_always_meet_exp"},
}

// TestSymmetrySameVerdictsWithNodeDeletion: the deleteNode clusters
// violate what their variants are built to violate (web keeps one of
// its three pods whether node 0 is deleted straight away, drained first,
// or lost and then deleted, and db-0 runs again on another node; a
// failing node 0 and a deleted node 1 may take all three), have the same verdicts and shortest counterexample lengths
// with and without symmetry, their reduced counterexamples replay, and
// the deletion pins its node.
func TestSymmetrySameVerdictsWithNodeDeletion(t *testing.T) {
	sameVerdictsPinned(t, deleteNodeClusters(t), deleteNodeViolations, "DeleteNodeTarget")
}
