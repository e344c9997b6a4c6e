package reduction_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
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

// budgetWalkProblem is a cluster of interchangeable nodes where a budget
// on web (maxUnavailable 1) lets through fewer evictions than a
// descheduler plugin tries, so that the order upstream takes decides
// which go: the branches over that order (controllers/descheduler
// budgetorder.go, nodeutilization_budget.go) meet the symmetry reduction.
// Variants: "dup", RemoveDuplicates with duplicates on two of four
// nodes, one of which holds a pod using more CPU; "taints", RemovePodsViolatingNodeTaints with web on two
// twin PreferNoSchedule nodes; "spread", the topology plugin moving web
// off a node; "lnu", LowNodeUtilization from two twin overutilised nodes
// (a refused pod is skipped uncharged); "anti", hostname anti-affinity
// with pods pinned together on two twin nodes; "drain", no descheduler
// but a kubectl drain of a node holding three web pods of two kinds;
// "dup-limited", "dup" with four pods of two kinds on the first node
// under a per-node eviction limit of 1, which cuts that node's two
// evictions (evictor.go, inLimitOrder); "anti-limited", "anti" under the
// same limit.
func budgetWalkProblem(t testing.TB, variant string) *compose.Problem {
	t.Helper()
	b := build.New()
	webT := build.Template("web").Requests(4, 4).Label("app", "web")
	prof := model.DeschedulerProfile{Name: variant}
	var web int
	switch variant {
	case "dup", "dup-limited":
		b.AddNodes(4, build.Node().CPU(20).Mem(64))
		web = b.AddDeployment("web", b.AddTemplate(webT), 7)
		if variant == "dup-limited" {
			b.RunPod(web, 0).RunPod(web, 0).RunPod(web, 0).RunPodCPU(web, 0, 3).RunPod(web, 1).RunPod(web, 1).RunPod(web, 2)
		} else {
			b.RunPod(web, 0).RunPod(web, 0).RunPodCPU(web, 0, 3).RunPod(web, 1).RunPod(web, 1).RunPod(web, 1).RunPod(web, 2)
		}
		prof.Balance = []model.BalancePlugin{model.RemoveDuplicates}
	case "taints":
		b.AddNodes(2, build.Node().CPU(20).Mem(64).Taint("spot", "true", model.PreferNoSchedule))
		b.AddNodes(2, build.Node().CPU(20).Mem(64))
		web = b.AddDeployment("web", b.AddTemplate(webT), 3)
		b.RunPod(web, 0).RunPod(web, 1).RunPod(web, 2)
		prof.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints},
			NodeTaints: model.NodeTaintsArgs{IncludePreferNoSchedule: true}}
	case "spread":
		b.AddNodes(3, build.Node().CPU(20).Mem(64))
		web = b.AddDeployment("web", b.AddTemplate(webT.Spread(1, model.HostnameKey, model.DoNotSchedule)), 4)
		b.RunPod(web, 0).RunPod(web, 0).RunPodCPU(web, 0, 3).RunPod(web, 1)
		prof.Balance = []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint}
		prof.Constraints = model.HardConstraints
	case "lnu":
		b.AddNodes(4, build.Node().CPU(20).Mem(64))
		web = b.AddDeployment("web", b.AddTemplate(webT), 6)
		b.RunPod(web, 0).RunPod(web, 0).RunPod(web, 0).RunPod(web, 1).RunPod(web, 1).RunPod(web, 1)
		prof.Balance = []model.BalancePlugin{model.LowNodeUtilization}
		prof.LowNodeUtilization = &model.LowNodeUtilizationArgs{
			Thresholds:       model.ResourceThresholds{CPU: pct(10)},
			TargetThresholds: model.ResourceThresholds{CPU: pct(40)}}
	case "drain":
		b.AddNodes(4, build.Node().CPU(20).Mem(64))
		web = b.AddDeployment("web", b.AddTemplate(webT), 4)
		b.RunPod(web, 0).RunPodCPU(web, 0, 3).RunPod(web, 0).RunPod(web, 1)
		b.AddEvent(model.Event{Kind: model.Drain, Slot: model.AfterStable, Nodes: []int{0}})
	case "anti", "anti-limited":
		b.AddNodes(4, build.Node().CPU(20).Mem(64))
		web = b.AddDeployment("web", b.AddTemplate(webT.PodAntiAffinity(model.HostnameKey, "app", "web")), 4)
		b.RunPod(web, 0).RunPod(web, 0).RunPod(web, 1).RunPodCPU(web, 1, 3)
		prof.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}}
	}
	b.U.PDBs = []model.PodDisruptionBudget{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
		MaxUnavailable: &model.IntOrPercent{Value: 1}}}
	if variant != "drain" {
		b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{prof}}
	}
	if strings.HasSuffix(variant, "-limited") {
		b.U.Descheduler.MaxPerNode = 1
	}
	b.Slots = 10
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.DeschedulerPending = b.U.Descheduler != nil
	s.Init = model.InitMain
	decls := []model.IntentDecl{
		{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-1"}},
		{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}},
	}
	p, err := compose.NewProblemFrom("budgetwalk-"+variant, u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var budgetWalkVariants = []string{"dup", "taints", "spread", "lnu", "anti", "drain", "dup-limited", "anti-limited"}

// pdbProblems are pdbProblem's and budgetWalkProblem's variants, for
// porProblems and symmetricClusters.
func pdbProblems(t testing.TB) []porProblem {
	out := []porProblem{
		{"pdb0/3", pdbProblem(t, 3, 0)},
		{"pdb1/3", pdbProblem(t, 3, 1)},
		{"pdb0/4", pdbProblem(t, 4, 0)},
		{"pdb2/3", pdbProblem(t, 3, 2)},
	}
	for _, v := range budgetWalkVariants {
		p := budgetWalkProblem(t, v)
		out = append(out, porProblem{p.Name, p})
	}
	return out
}

func pdbClusters(t testing.TB) []symCluster { return asClusters(pdbProblems(t)) }

// TestSymmetrySameVerdictsWithDisruptionBudgets (d): the budget clusters
// have the same verdicts and shortest counterexample lengths with and
// without symmetry, and their reduced counterexamples replay. The
// descheduler branches over the order in which a budget sees its
// evictions, so the budgets break no symmetry: nodes and pod slots both
// move.
func TestSymmetrySameVerdictsWithDisruptionBudgets(t *testing.T) {
	for _, c := range pdbClusters(t) {
		a := symmetry.Analyze(c.p.System.U, compose.SymmetryFacts(c.p.System.U))
		if a.Off() || a.Trivial() || !a.Pods {
			t.Errorf("%s: budgets restrict the symmetry: %+v (pods move: %v)", c.name, a.Decisions, a.Pods)
		}
		on, off := compareVerdicts(t, c.p)
		t.Logf("%s: %d states reduced, %d full", c.name, on, off)
	}
}

// TestBudgetBranchesCommuteWithPermutations: on every reachable state of
// the budget clusters (the first thousand, breadth first), for random
// permutations of the nodes and pod slots the reduction may move, the
// successors of the permuted state are the images of the state's
// successors. TestSymmetryCommutesWithSteps draws states at random from
// every cluster; this one visits each state where a budget cuts a
// descheduler's or a drain's evictions.
func TestBudgetBranchesCommuteWithPermutations(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	clusters := append(pdbClusters(t), drainClusters(t)...)
	for _, cl := range clusters {
		sys := cl.p.System
		c := sys.Symmetry
		var frontier []*model.State
		sys.Initial(func(x *model.State) { frontier = append(frontier, x.Clone()) })
		seen := map[string]bool{}
		checked := 0
		for len(frontier) > 0 && checked < 1000 {
			s := frontier[0]
			frontier = frontier[1:]
			if key := string(encode(sys.U, s)); seen[key] {
				continue
			} else {
				seen[key] = true
			}
			checked++
			for range 3 {
				perm := c.RandomPermutation(r, s)
				if ok, detail := equivariant(sys, s, perm); !ok {
					t.Fatalf("%s: permutation %v is not an automorphism here\nstate:\n%s\n%s", cl.name, perm, model.Describe(sys.U, s), detail)
				}
			}
			frontier = append(frontier, successors(sys, s)...)
		}
		t.Logf("%s: %d states", cl.name, checked)
	}
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
