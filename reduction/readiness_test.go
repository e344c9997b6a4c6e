package reduction_test

import (
	"context"
	"github.com/kivi-go/kivi/checker"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// readinessProblem is a hand-built cluster whose templates delay
// readiness (model.PodTemplate.ProbesReadiness, MinReadySeconds), so that
// the kubelet's readiness steps, the node lifecycle controller's
// MarkPodsNotReady and the readers of readiness take part. Variants:
// "drain", kubectl drain of nodes 1 and 2 under a budget minAvailable 2
// of web's 3 with a timeout of one retry (a replacement not yet Ready
// blocks the second node); "nodefailure", node 1 fails and recovers
// under web (probe and minReadySeconds) and api (neither); "hpa", a CPU
// change under an HPA while pods are not Ready; "statefulset", an
// OrderedReady StatefulSet with a probe scaling up while a node fails;
// "owners", three Deployments whose pods start at once with probes (one
// with minReadySeconds), then a drain under a budget: the readiness
// steps of different owners, which partial-order reduction orders.
func readinessProblem(t testing.TB, variant string) *compose.Problem {
	t.Helper()
	b := build.New()
	web := build.Template("web").Requests(4, 4).Label("app", "web").ReadinessProbe()
	decls := []model.IntentDecl{{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-1"}}}
	switch variant {
	case "drain":
		b.AddNodes(3, build.Node().CPU(20).Mem(64))
		d := b.AddDeployment("web", b.AddTemplate(web), 3)
		b.RunPod(d, 0).RunPod(d, 1).RunPod(d, 2)
		b.U.PDBs = []model.PodDisruptionBudget{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
			MinAvailable: &model.IntOrPercent{Value: 2}}}
		ev := model.Event{Kind: model.Drain, Slot: model.AfterStable, Nodes: []int{0, 1}}
		ev.Drain.TimeoutRetries = 1
		b.AddEvent(ev)
	case "nodefailure":
		b.AddNodes(2, build.Node().CPU(20).Mem(64))
		d := b.AddDeployment("web", b.AddTemplate(web.MinReadySeconds(10)), 2)
		api := b.AddDeployment("api", b.AddTemplate(build.Template("api").Requests(4, 4).Label("app", "api")), 1)
		b.RunPod(d, 0).RunPod(d, 1).RunPod(api, 0)
		b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 0})
	case "hpa":
		b.AddNodes(2, build.Node().CPU(20).Mem(64))
		d := b.AddDeployment("web", b.AddTemplate(web), 2)
		b.WithHPA(d, b.AddHPA(1, 4, 50))
		b.PendingPod(d, 0).PendingPod(d, 1)
		b.AddEvent(model.Event{Kind: model.CPUChange, Deployment: d, MaxDelta: 2, DeltaUnit: 2})
		decls = []model.IntentDecl{{Name: "replica_num_always_meet_min", Params: map[string]any{"did": 1}}}
	case "statefulset":
		b.AddNodes(2, build.Node().CPU(20).Mem(64))
		d := b.AddStatefulSet("db", b.AddTemplate(web), 2)
		b.RunPod(d, 0)
		b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 0})
	case "owners":
		b.AddNodes(3, build.Node().CPU(20).Mem(64))
		d := b.AddDeployment("web", b.AddTemplate(web), 2)
		api := b.AddDeployment("api", b.AddTemplate(build.Template("api").Requests(4, 4).Label("app", "api").ReadinessProbe()), 2)
		db := b.AddDeployment("db", b.AddTemplate(build.Template("db").Requests(4, 4).Label("app", "db").ReadinessProbe().MinReadySeconds(5)), 1)
		b.PendingPod(d, 0).PendingPod(d, 1).PendingPod(api, 1).PendingPod(api, 2).PendingPod(db, 0)
		b.U.PDBs = []model.PodDisruptionBudget{{Name: "api", Selector: &model.Selector{MatchLabels: map[string]string{"app": "api"}},
			MinAvailable: &model.IntOrPercent{Value: 1}}}
		b.AddEvent(model.Event{Kind: model.Drain, Slot: model.AfterStable, Nodes: []int{1}})
	default:
		t.Fatalf("no readiness variant %q", variant)
	}
	b.Slots = 8
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	if variant == "owners" {
		for i := range 5 {
			s.Enqueue(model.KubeletQueue, i)
		}
	}
	if variant == "hpa" || variant == "statefulset" {
		s.Enqueue(model.KubeletQueue, 0)
		s.Enqueue(model.DeploymentQueue, 0)
		if variant == "hpa" {
			s.Enqueue(model.KubeletQueue, 1)
		}
	}
	p, err := compose.NewProblemFrom("readiness-"+variant, u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// readinessProblems are readinessProblem's variants, for porProblems and
// symmetricClusters.
func readinessProblems(t testing.TB) []porProblem {
	var out []porProblem
	for _, v := range []string{"drain", "nodefailure", "hpa", "statefulset", "owners"} {
		p := readinessProblem(t, v)
		out = append(out, porProblem{p.Name, p})
	}
	return out
}

func readinessClusters(t testing.TB) []symCluster { return asClusters(readinessProblems(t)) }

// TestSymmetrySameVerdictsWithReadiness: the readiness clusters have the
// same verdicts and shortest counterexample lengths with and without
// symmetry, and their reduced counterexamples replay (compareVerdicts);
// their pods do leave Ready and Available (the readiness steps run).
func TestSymmetrySameVerdictsWithReadiness(t *testing.T) {
	for _, c := range readinessClusters(t) {
		if !c.p.System.U.HasReadiness() {
			t.Fatalf("%s: no template delays readiness", c.name)
		}
		on, off := compareVerdicts(t, c.p)
		t.Logf("%s: %d states reduced, %d full", c.name, on, off)
	}
}

// TestReadinessOwnersReduce: where the pods of several owners wait for
// their probes with nothing else to do, partial-order reduction takes
// one owner's readiness steps at a time (kubelet OwnerReadiness), with
// symmetry on and off: fewer states, the same verdicts (TestPORKeepsVerdicts
// runs the variant too).
func TestReadinessOwnersReduce(t *testing.T) {
	p := readinessProblem(t, "owners")
	for _, noSym := range []bool{true, false} {
		run := func(noPOR bool) checker.Result[*model.State] {
			res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties,
				checker.Options{CollectAll: true, NoSymmetry: noSym, NoPOR: noPOR, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		full, reduced := run(true), run(false)
		t.Logf("symmetry %v: %d states without POR, %d with (%d ample)", !noSym, full.Stats.States, reduced.Stats.States, reduced.Stats.AmpleExpansions)
		if !narrowFootprint && (reduced.Stats.AmpleExpansions == 0 || reduced.Stats.States >= full.Stats.States) {
			t.Errorf("symmetry %v: POR does not reduce the readiness steps: %d states, %d without", !noSym, reduced.Stats.States, full.Stats.States)
		}
		for i, a := range full.Properties {
			if b := reduced.Properties[i]; a.Verdict != b.Verdict {
				t.Errorf("symmetry %v: %s: %v without POR, %v with", !noSym, a.Name, a.Verdict, b.Verdict)
			}
		}
	}
}
