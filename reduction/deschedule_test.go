package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
)

// The descheduler's deschedule plugins in the reduced-vs-unreduced tests
// (controllers/descheduler/deschedule.go): clusters where
// RemovePodsViolatingNodeTaints, RemovePodsViolatingNodeAffinity and
// RemovePodsViolatingInterPodAntiAffinity evict, under Kubernetes'
// lifecycle, with interchangeable nodes for the symmetry reduction to
// merge.

// deschedulePluginProblem builds one variant:
//
//	taints: a PreferNoSchedule-tainted spot node holding the pods at the
//	  start, two clean nodes; RemovePodsViolatingNodeTaints with
//	  includePreferNoSchedule moves them off;
//	affinity: web prefers zone a, whose only node a filler keeps full;
//	  two zone-b nodes; the preferred pass with nodeFit evicts web again
//	  and again (an eviction loop);
//	anti-hostname: two web pods pinned together on one node by the input,
//	  hostname anti-affinity; three identical nodes;
//	anti-zone: the same with a zone key two nodes share: the plugin
//	  branches over which node of the zone it visits first;
//	limited: taints with a total eviction limit of 1 (the node walk
//	  branches where the limit runs out; nodes and pod slots keep their
//	  symmetry);
//	limited-node: RemoveDuplicates on pods of two owners stacked on one
//	  node, that differ in usage, under a per-node and a namespace
//	  eviction limit of 1;
//	limited-budget: the same under a per-node limit of 2 with a
//	  PodDisruptionBudget letting one of web's pods go;
//	limited-walk: RemoveDuplicates on two of four alike nodes each
//	  holding two web pods (of different usage on each node), a total
//	  limit of one: which node loses a pod is the node walk's order;
//	anti-walk: web pods on two of four nodes of one zone, zone
//	  anti-affinity: the node visited first loses its pod.
func deschedulePluginProblem(t testing.TB, variant string) *compose.Problem {
	t.Helper()
	b := build.New()
	profile := model.DeschedulerProfile{Name: variant}
	decls := []model.IntentDecl{{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}}}
	switch variant {
	case "taints", "limited":
		b.AddNodes(1, build.Node().Name("spot").CPU(20).Mem(64).Taint("spot", "true", model.PreferNoSchedule))
		b.AddNodes(2, build.Node().CPU(20).Mem(64))
		d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(6, 4).Label("app", "web")), 2)
		b.RunPod(d, 0).RunPod(d, 0)
		profile.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints},
			NodeTaints: model.NodeTaintsArgs{IncludePreferNoSchedule: true}}
		decls = append(decls, model.IntentDecl{Name: "pod_balance_across_node", Params: map[string]any{"did": 1, "maxSkew": 1}})
	case "limited-walk", "anti-walk":
		// Duplicates (anti-affinity conflicts over a zone) on two of four
		// alike nodes, different usage telling the two nodes' pods apart:
		// a total limit of one (the first node visited losing its pod)
		// leaves one of them, which the node walk branches over, one node
		// per orbit (budgetorder.go, podantiaffinity.go).
		tb := build.Template("web").Requests(6, 4).Label("app", "web")
		if variant == "anti-walk" {
			tb = tb.PodAntiAffinity("zone", "app", "web")
			b.AddNodes(4, build.Node().CPU(20).Mem(64).Zone("a"))
		} else {
			b.AddNodes(4, build.Node().CPU(20).Mem(64))
		}
		d := b.AddDeployment("web", b.AddTemplate(tb), 4)
		if variant == "anti-walk" {
			b.RunPod(d, 0).RunPodCPU(d, 1, 5)
			profile.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}}
		} else {
			b.RunPod(d, 0).RunPod(d, 0).RunPodCPU(d, 1, 5).RunPodCPU(d, 1, 5)
			profile.Balance = []model.BalancePlugin{model.RemoveDuplicates}
		}
		decls = append(decls, model.IntentDecl{Name: "pod_balance_across_node", Params: map[string]any{"did": 1, "maxSkew": 1}})
	case "limited-node", "limited-budget":
		// Pods of two owners stacked on one node, told apart by their
		// usage: the limits cut RemoveDuplicates' evictions, which
		// pods go is a choice by content (evictor.go, inLimitOrder).
		b.AddNodes(3, build.Node().CPU(20).Mem(64))
		web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(6, 4).Label("app", "web")), 3)
		api := b.AddDeployment("api", b.AddTemplate(build.Template("api").Requests(6, 4).Label("app", "api")), 2)
		b.RunPodCPU(web, 0, 1).RunPodCPU(web, 0, 3).RunPodCPU(web, 0, 5).RunPodCPU(api, 0, 2).RunPodCPU(api, 0, 4)
		profile.Balance = []model.BalancePlugin{model.RemoveDuplicates}
		decls = append(decls, model.IntentDecl{Name: "pod_balance_across_node", Params: map[string]any{"did": 1, "maxSkew": 1}},
			model.IntentDecl{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "d[did].specReplicas-1"}})
		if variant == "limited-budget" {
			b.U.PDBs = []model.PodDisruptionBudget{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
				MaxUnavailable: &model.IntOrPercent{Value: 1}}}
		}
	case "affinity":
		b.AddNodes(1, build.Node().Name("a1").CPU(8).Mem(64).Zone("a"))
		b.AddNodes(2, build.Node().CPU(20).Mem(64).Zone("b"))
		web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(6, 4).Label("app", "web").Preferred(100, "zone", "a")), 1)
		filler := b.AddDeployment("filler", b.AddTemplate(build.Template("filler").Requests(8, 4).Label("app", "filler").NodeSelector("zone", "a")), 1)
		b.RunPod(filler, 0).RunPod(web, 1)
		profile.NodeFit = true
		profile.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeAffinity},
			NodeAffinityType: []model.NodeAffinityType{model.PreferredDuringSchedulingIgnoredDuringExecution}}
	case "anti-hostname", "anti-zone":
		key := model.HostnameKey
		if variant == "anti-zone" {
			key = "zone"
			b.AddNodes(2, build.Node().CPU(20).Mem(64).Zone("a"))
			b.AddNodes(1, build.Node().CPU(20).Mem(64).Zone("b"))
		} else {
			b.AddNodes(3, build.Node().CPU(20).Mem(64))
		}
		d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(6, 4).Label("app", "web").PodAntiAffinity(key, "app", "web")), 2)
		if variant == "anti-zone" {
			// Different usage tells the pods apart: which one the walk
			// order evicts matters.
			b.RunPod(d, 0).RunPodCPU(d, 1, 5)
		} else {
			b.RunPod(d, 0).RunPod(d, 0)
		}
		profile.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}}
		decls = append(decls, model.IntentDecl{Name: "pod_always_schedulable"})
	}
	b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{profile}}
	switch variant {
	case "limited", "limited-walk":
		b.U.Descheduler.MaxTotal = 1
	case "limited-node":
		b.U.Descheduler.MaxPerNode, b.U.Descheduler.MaxPerNamespace = 1, 1
	case "limited-budget":
		b.U.Descheduler.MaxPerNode = 2
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.DeschedulerPending = true
	p, err := compose.NewProblemFrom("deschedule-"+variant, u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var deschedulePluginVariants = []string{"taints", "affinity", "anti-hostname", "anti-zone", "limited", "limited-node", "limited-budget", "limited-walk", "anti-walk"}

// deschedulePluginProblems are the variants for porProblems.
func deschedulePluginProblems(t testing.TB) []porProblem {
	var out []porProblem
	for _, v := range deschedulePluginVariants {
		p := deschedulePluginProblem(t, v)
		out = append(out, porProblem{p.Name, p})
	}
	return out
}

// deschedulePluginClusters are the variants for symmetricClusters.
func deschedulePluginClusters(t testing.TB) []symCluster {
	return asClusters(deschedulePluginProblems(t))
}

// TestSymmetrySameVerdictsWithDeschedulePlugins (d): the variants have the
// same verdicts with and without symmetry and their reduced
// counterexamples replay; the symmetric ones are reduced, the affinity
// loop is found, and each variant's facts are the expected ones.
func TestSymmetrySameVerdictsWithDeschedulePlugins(t *testing.T) {
	wantRules := map[string][]string{
		"taints": nil, "affinity": nil, "anti-hostname": nil,
		"anti-zone": nil,
		"limited":   nil, "limited-node": nil, "limited-budget": nil,
	}
	for _, v := range deschedulePluginVariants {
		p := deschedulePluginProblem(t, v)
		var rules []string
		for _, f := range compose.SymmetryFacts(p.System.U) {
			rules = append(rules, f.Rule)
		}
		if fmt.Sprint(rules) != fmt.Sprint(wantRules[v]) {
			t.Errorf("%s: symmetry facts %v, want %v", v, rules, wantRules[v])
		}
		on, off := compareVerdicts(t, p)
		t.Logf("%s: %d states reduced, %d full", v, on, off)
		if len(wantRules[v]) == 0 && v != "affinity" && on >= off {
			t.Errorf("%s: symmetry merged nothing (%d states, %d without)", v, on, off)
		}
		if v == "affinity" {
			res := checkResult(t, p, true)
			if r, _ := res.Property("no_oscillation_eviction"); r.Verdict != checker.Violated {
				t.Errorf("affinity: no_oscillation_eviction not violated: %+v", res.Properties)
			}
		}
	}
}

// TestDeschedulerAntiAffinityNodeWalkIsSymmetric: two web pods in zone a
// with different usage, one on each of its nodes, conflict by their zone
// anti-affinity; upstream evicts the pod of the node its list gives
// first, and the plugin branches over which zone-a node that is
// (podantiaffinity.go), so swapping the two zone-a nodes is an
// automorphism of the transition relation and node symmetry stays on.
func TestDeschedulerAntiAffinityNodeWalkIsSymmetric(t *testing.T) {
	p := deschedulePluginProblem(t, "anti-zone")
	u := p.System.U
	s := p.System.Init.Clone()
	s.Init = model.InitMain
	sys := &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{})}
	if !automorphic(sys, s, []int{1, 0, 2}, nil) {
		t.Fatal("swapping the zone-a nodes is not an automorphism of the steps")
	}
	if a := symmetry.New(u, compose.SymmetryFacts(u)).Analysis(); a.Off() {
		t.Fatalf("node symmetry off: %+v", a.Decisions)
	}
}
