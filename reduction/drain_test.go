package reduction_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// drainProblem is a hand-built cluster with a kubectl drain: identical
// nodes, web's pods stacked on the first nodes and a db pod the drain
// also takes. Variants: 0, node 1 then node 2 one at a time through a
// budget minAvailable 2 of web's 3 (refusals, later rounds), uncordoned
// once drained; 1, nodes 1 and 2 in parallel without a budget
// (replica_num_always_meet_exp violated); 2, node 1 with a budget that
// never allows an eviction and a timeout of 2 retries (the drain gives
// up: valid_end_state violated); 3, node 1 with --disable-eviction and a
// budget it ignores (web loses two replicas at once), and a RemoveDuplicates descheduler that the uncordon
// wakes; 4, node 1 holding a pod pinned to it with nodeName, whose
// replacement comes back: kubectl lists the node's pods once, so the
// drain evicts it once and ends (no eviction loop, a valid end).
func drainProblem(t testing.TB, nodes, variant int) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(nodes, build.Node().CPU(20).Mem(64))
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web")), 3)
	db := b.AddDeployment("db", b.AddTemplate(build.Template("db").Requests(4, 4).Label("app", "db")), 1)
	b.RunPod(web, 0).RunPod(web, 0).RunPod(web, 1).RunPod(db, 0)
	ev := model.Event{Kind: model.Drain, Slot: model.AfterStable, Nodes: []int{0, 1}}
	minAvailable := func(n int) model.PodDisruptionBudget {
		return model.PodDisruptionBudget{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
			MinAvailable: &model.IntOrPercent{Value: n}}
	}
	switch variant {
	case 0:
		b.U.PDBs = []model.PodDisruptionBudget{minAvailable(2)}
		ev.Drain.Uncordon = true
	case 1:
		ev.Parallel = 2
	case 2:
		b.U.PDBs = []model.PodDisruptionBudget{minAvailable(3)}
		ev.Nodes = []int{0}
		ev.Drain.TimeoutRetries = 2
	case 4:
		// A deployment pinned to node 1 with nodeName: its replacement
		// comes back to the cordoned node, which kubectl's drain, having
		// listed the node's pods once, leaves alone.
		pinned := b.AddDeployment("agent", b.AddTemplate(build.Template("agent").Requests(1, 1).Label("app", "agent").NodeName(0)), 1)
		b.RunPod(pinned, 0)
		ev.Nodes = []int{0}
		ev.Drain.Uncordon = true
	case 3:
		b.U.PDBs = []model.PodDisruptionBudget{minAvailable(3)}
		ev.Nodes = []int{0}
		ev.Drain = model.DrainOptions{DisableEviction: true, Uncordon: true}
		b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "dup", Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
	}
	b.AddEvent(ev)
	b.Slots = 10
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	decls := []model.IntentDecl{
		{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-1"}},
	}
	if variant == 4 {
		decls = []model.IntentDecl{{Name: "no_oscillation_eviction", Params: map[string]any{"did": 3}}}
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("drain%d/%d", variant, nodes), u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// drainProblems are drainProblem's variants, for porProblems and
// symmetricClusters.
func drainProblems(t testing.TB) []porProblem {
	return []porProblem{
		{"drain0/3", drainProblem(t, 3, 0)},
		{"drain1/4", drainProblem(t, 4, 1)},
		{"drain2/3", drainProblem(t, 3, 2)},
		{"drain3/3", drainProblem(t, 3, 3)},
		{"drain4/3", drainProblem(t, 3, 4)},
	}
}

func drainClusters(t testing.TB) []symCluster { return asClusters(drainProblems(t)) }

// drainViolations are the properties each variant violates.
var drainViolations = map[string][]string{
	"drain0/3": nil,
	"drain1/4": {"replica_num_always_meet_exp"},
	"drain2/3": {"valid_end_state"},
	"drain3/3": {"replica_num_always_meet_exp"},
	"drain4/3": nil,
}

// TestSymmetrySameVerdictsWithDrains: the drain clusters violate what
// their variants are built to violate, have the same verdicts and
// shortest counterexample lengths with and without symmetry, their
// reduced counterexamples replay, and the drain pins its nodes.
func TestSymmetrySameVerdictsWithDrains(t *testing.T) {
	sameVerdictsPinned(t, drainClusters(t), drainViolations, "DrainTarget")
}

// sameVerdictsPinned checks clusters built around a node event: each
// violates the properties violations names for it, its node event's
// symmetry rule pins some node, and the verdicts and shortest
// counterexample lengths are the same with and without symmetry, the
// reduced counterexamples replaying (compareVerdicts).
func sameVerdictsPinned(t *testing.T, clusters []symCluster, violations map[string][]string, rule string) {
	t.Helper()
	for _, c := range clusters {
		var violated []string
		for _, pr := range checkResult(t, c.p, true).Properties {
			if pr.Verdict == checker.Violated {
				violated = append(violated, pr.Name)
			}
		}
		if want := violations[c.name]; !slices.Equal(violated, want) {
			t.Errorf("%s: violated %v, want %v", c.name, violated, want)
		}
		pinned := false
		for _, f := range compose.SymmetryFacts(c.p.System.U) {
			pinned = pinned || f.Rule == rule && len(f.PinnedNodes) > 0
		}
		if !pinned {
			t.Errorf("%s: %s pins no node", c.name, rule)
		}
		on, off := compareVerdicts(t, c.p)
		t.Logf("%s: %d states reduced, %d full", c.name, on, off)
	}
}
