package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// Kubernetes' pod lifecycle in the reduced-vs-unreduced tests. The
// built-in cases run with Kivi's lifecycle (model.Options.KiviLifecycle),
// so the steps of Kubernetes' own are exercised here: the kubelet's
// admission rejecting a pod pinned to a NoExecute-tainted node (c7), the
// pod garbage collector removing the Failed pods, replacements created
// while the evicted pod terminates, and the taint manager evicting pods
// whose tolerations of the not-ready or unreachable taint run out (c4's
// kernel panics, c6's maintenance, the toleration cluster below).

// kubernetesLifecycle returns a copy of built-in case name with Kivi's
// lifecycle off.
func kubernetesLifecycle(t testing.TB, name string, nv bool) *model.Cluster {
	t.Helper()
	c, err := cases.Get(name, 3, nv)
	if err != nil {
		t.Fatal(err)
	}
	c.KiviLifecycle = false
	return c
}

// lifecycleSetup builds a scaling setup of a built-in case under
// Kubernetes' lifecycle.
func lifecycleSetup(t testing.TB, name string, nv bool, nodes, replicas []int) *compose.Problem {
	t.Helper()
	c := kubernetesLifecycle(t, name, nv)
	u, s, err := scaling.Build(c, scaling.Setup{Nodes: nodes, Replicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	if u.Options.KiviLifecycle {
		t.Fatalf("%s: the setup kept Kivi's lifecycle", name)
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("%s%v%v/k8s-lifecycle/nv=%v", name, nodes, replicas, nv), u, s, c.Intents, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lifecycleTwoDeployments builds a scaling setup of built-in case name
// with its deployment twice (twoDeployments), under Kubernetes'
// lifecycle.
func lifecycleTwoDeployments(t testing.TB, name string, nv bool, nodes []int, replicas [2]int) *compose.Problem {
	t.Helper()
	c := twoDeployments(kubernetesLifecycle(t, name, nv))
	u, s, err := scaling.Build(c, scaling.Setup{Nodes: nodes, Replicas: replicas[:]})
	if err != nil {
		t.Fatal(err)
	}
	if u.Options.KiviLifecycle {
		t.Fatalf("%s: the setup kept Kivi's lifecycle", name)
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("%s%v%v/k8s-lifecycle/nv=%v", c.Name, nodes, replicas, nv), u, s, c.Intents, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tolerationProblem: identical nodes going down for maintenance one at a
// time (or one crashing with a kernel panic), three deployments whose pods
// tolerate the unreachable taint for the default 300 s (web), forever
// for unreachable and not at all for not-ready (agent: the node
// controller explores both taints), and for no time (batch, evicted at
// once); two deployments when small.
func tolerationProblem(t testing.TB, nodes int, maintenance bool) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(nodes, build.Node().CPU(40).Mem(64))
	zero := int64(0)
	web := b.AddTemplate(build.Template("web").Requests(8, 4).Label("app", "web"))
	agent := b.AddTemplate(build.Template("agent").Requests(4, 4).Label("app", "agent").
		TolerationWith(model.Toleration{Key: model.TaintNodeUnreachable, Operator: "Exists", Effect: model.NoExecute}).
		TolerationWith(model.Toleration{Key: model.TaintNodeNotReady, Operator: "Exists", Effect: model.NoExecute, TolerationSeconds: &zero}))
	dw := b.AddDeployment("web", web, 2)
	da := b.AddDeployment("agent", agent, 1)
	if maintenance {
		b.RunPod(dw, 0)
	} else {
		// Node 1 is overloaded and panics.
		b.RunPodCPU(dw, 0, 37)
	}
	b.RunPod(dw, 1).RunPod(da, 0)
	name := fmt.Sprintf("tolerations%d", nodes)
	if nodes > 2 {
		batch := b.AddTemplate(build.Template("batch").Requests(4, 4).Label("app", "batch").
			TolerationWith(model.Toleration{Key: model.TaintNodeUnreachable, Operator: "Exists", Effect: model.NoExecute, TolerationSeconds: &zero}))
		db := b.AddDeployment("batch", batch, 1)
		b.RunPod(db, 0)
	}
	if maintenance {
		b.AddEvent(model.Event{Kind: model.Maintenance, Slot: model.AfterStable, Parallel: 1})
		name += "+maintenance"
	} else {
		b.AddEvent(model.Event{Kind: model.KernelPanic})
		name += "+kernelPanic"
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	if u.Options.KiviLifecycle || !model.TaintEvictionRuns(u) {
		t.Fatalf("%s: want Kubernetes' lifecycle with the taint manager", name)
	}
	decls := []model.IntentDecl{{Name: "replica_num_always_meet_min", Params: map[string]any{"did": 1}},
		{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}}}
	p, err := compose.NewProblemFrom(name, u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// criticalPreemptionProblem: a node agent pinned to node 1 by nodeName,
// of priority system-node-critical, whose pod the ReplicaSet controller
// is about to create, on a node full of a web and an api pod of equal
// requests, while web's third pod waits for room: the kubelet preempts
// either (a choice) to admit the agent, which retries the waiting pod,
// and the preempted pod's replacement waits too.
func criticalPreemptionProblem(t testing.TB) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().CPU(10).Mem(20))
	web := b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web"))
	api := b.AddTemplate(build.Template("api").Requests(4, 4).Label("app", "api"))
	agent := b.AddTemplate(build.Template("agent").Requests(4, 2).Label("app", "agent").NodeName(0).Priority(model.SystemNodeCriticalPriority))
	dw := b.AddDeployment("web", web, 3)
	da := b.AddDeployment("api", api, 2)
	dg := b.AddDeployment("agent", agent, 1)
	b.RunPod(dw, 0).RunPod(da, 0).RunPod(dw, 1).RunPod(da, 1).PendingPod(dw, -1)
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Enqueue(model.SchedulerQueue, 4)
	s.Enqueue(model.DeploymentQueue, dg)
	if u.Options.KiviLifecycle {
		t.Fatal("criticalPreemption: want Kubernetes' lifecycle")
	}
	p, err := compose.NewProblemFrom("criticalPreemption", u, s, nil, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lifecycleProblems are the problems above, for porProblems and
// symmetricClusters.
func lifecycleProblems(t testing.TB) []porProblem {
	t.Helper()
	var out []porProblem
	add := func(p *compose.Problem) { out = append(out, porProblem{p.Name, p}) }
	add(lifecycleSetup(t, "c7", false, []int{1, 1}, []int{2}))
	add(lifecycleSetup(t, "c7", true, []int{2}, []int{2}))
	add(lifecycleSetup(t, "c4", false, []int{2}, []int{3}))
	add(lifecycleSetup(t, "c6", false, []int{2}, []int{2}))
	add(tolerationProblem(t, 2, true))
	add(tolerationProblem(t, 3, true))
	add(tolerationProblem(t, 2, false))
	add(criticalPreemptionProblem(t))
	// Two deployments' pods following c1's CPU pattern, each with its
	// HPA: the pattern step queues the owners in owner order, and pod
	// slots move (TestCPUPatternInOwnerOrder).
	add(lifecycleTwoDeployments(t, "c1", false, []int{2}, [2]int{1, 1}))
	return append(out, unschedulableProblems(t)...)
}

// lifecycleClusters are lifecycleProblems as symmetry clusters.
func lifecycleClusters(t testing.TB) []symCluster { return asClusters(lifecycleProblems(t)) }

// TestSymmetrySameVerdictsUnderKubernetesLifecycle (d): the lifecycle
// problems have the same verdicts with and without symmetry, and the
// reduced counterexamples replay (compareVerdicts).
func TestSymmetrySameVerdictsUnderKubernetesLifecycle(t *testing.T) {
	for _, cl := range lifecycleClusters(t) {
		on, off := compareVerdicts(t, cl.p)
		t.Logf("%s: %d states reduced, %d full", cl.name, on, off)
	}
}
