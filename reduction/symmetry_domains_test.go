package reduction_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
)

// Interchangeable topology domains (reduction/symmetry/domains.go): zones
// built alike are swapped wholesale.

// zoneVariants are zoneProblem's clusters.
var zoneVariants = []string{"spread", "two-shapes", "failure", "descheduler", "anti-affinity"}

// zoneProblem is a cluster of three zones of two nodes each, the
// topology.kubernetes.io/zone key the only one telling them apart.
//   - spread: web spreads over zones (DoNotSchedule, maxSkew 1), five
//     replicas waiting for the scheduler, and a scale-up by one;
//   - two-shapes: each zone has a big and a small node;
//   - failure: spread, and a node failure of node 0, which pins zone 0;
//   - descheduler: pods stacked in zone 0, the descheduler's topology
//     balancing moves them;
//   - anti-affinity: web keeps one pod per zone (required
//     anti-affinity on the zone key), four replicas: one never fits.
func zoneProblem(t testing.TB, variant string) *compose.Problem {
	t.Helper()
	b := build.New()
	for z := range 3 {
		zone := fmt.Sprintf("zone-%c", 'a'+z)
		if variant == "two-shapes" {
			b.AddNodes(1, build.Node().CPU(20).Mem(64).Label(model.ZoneKey, zone))
			b.AddNodes(1, build.Node().CPU(10).Mem(32).Label(model.ZoneKey, zone))
			continue
		}
		b.AddNodes(2, build.Node().CPU(20).Mem(64).Label(model.ZoneKey, zone))
	}
	web := build.Template("web").Requests(6, 4).Label("app", "web")
	replicas, pending := 5, 5
	decls := []model.IntentDecl{{Name: "pod_always_schedulable"}}
	switch variant {
	case "anti-affinity":
		web.PodAntiAffinity(model.ZoneKey, "app", "web")
		replicas, pending = 4, 4
	case "descheduler":
		web.Spread(1, model.ZoneKey, model.ScheduleAnyway)
		replicas, pending = 4, 0
		decls = append(decls, model.IntentDecl{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}})
	default:
		web.Spread(1, model.ZoneKey, model.DoNotSchedule)
	}
	d := b.AddDeployment("web", b.AddTemplate(web), replicas)
	for range pending {
		b.PendingPod(d, -1)
	}
	switch variant {
	case "descheduler":
		b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 1).RunPod(d, 2)
		b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "spread",
			Balance: []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint}, Constraints: model.AllConstraints}}}
	case "failure":
		b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 0, Slot: model.AfterStable})
	case "spread", "two-shapes":
		b.AddEvent(model.Event{Kind: model.ScaleDeployment, Slot: model.AfterStable, Deployment: d, MaxDeployment: d + 1, MaxDelta: 1})
	}
	b.Slots = 8
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pending {
		s.Enqueue(model.SchedulerQueue, i)
	}
	s.DeschedulerPending = variant == "descheduler"
	s.Init = model.InitMain
	p, err := compose.NewProblemFrom("zones-"+variant, u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// zoneClusters are zoneProblem's variants for the symmetry property tests
// (symmetricClusters): canonical forms invariant under domain swaps,
// commuting with the steps, same verdicts.
func zoneClusters(t testing.TB) []symCluster {
	var out []symCluster
	for _, v := range zoneVariants {
		out = append(out, symCluster{"zones-" + v, zoneProblem(t, v)})
	}
	return out
}

// TestSymmetryZoneDomains pins the analysis: which zones are
// interchangeable in each variant.
func TestSymmetryZoneDomains(t *testing.T) {
	want := map[string]string{
		"spread":        "[[[[0 1]] [[2 3]] [[4 5]]]]",
		"two-shapes":    "[[[[1] [0]] [[3] [2]] [[5] [4]]]]", // the small node first
		"failure":       "[[[[2 3]] [[4 5]]]]",               // node 0 is pinned: zone a stays
		"descheduler":   "[[[[0 1]] [[2 3]] [[4 5]]]]",
		"anti-affinity": "[[[[0 1]] [[2 3]] [[4 5]]]]",
	}
	for _, v := range zoneVariants {
		p := zoneProblem(t, v)
		a := symmetry.Analyze(p.System.U, compose.SymmetryFacts(p.System.U))
		if got := fmt.Sprint(a.Domains()); got != want[v] || a.DomainKey != model.ZoneKey {
			t.Errorf("%s: domains %s of %q, want %s of %q", v, got, a.DomainKey, want[v], model.ZoneKey)
		}
	}
}

// TestSymmetryZonesSameVerdicts (d): every variant has the same verdicts
// with and without symmetry, its reduced counterexamples replay, and
// swapping zones merges states.
func TestSymmetryZonesSameVerdicts(t *testing.T) {
	for _, v := range zoneVariants {
		p := zoneProblem(t, v)
		on, off := compareVerdicts(t, p)
		t.Logf("%s: %d states reduced, %d full", v, on, off)
		if on >= off {
			t.Errorf("%s: symmetry merged nothing (%d states, %d without)", v, on, off)
		}
	}
}

// TestSymmetryZonesCanonicalInvariant (a) on the zone clusters alone, so
// that domain swaps are drawn often.
func TestSymmetryZonesCanonicalInvariant(t *testing.T) { canonicalInvariant(t, zoneClusters(t)) }

// TestSymmetryZoneSwapIsAnAutomorphism: in the stacked descheduler
// cluster, swapping zones b and c (nodes 2, 3 with 4, 5) commutes with
// every step, as swapping two nodes of one class does.
func TestSymmetryZoneSwapIsAnAutomorphism(t *testing.T) {
	p := zoneProblem(t, "descheduler")
	if !automorphic(p.System, p.System.Init, []int{0, 1, 4, 5, 2, 3}, nil) {
		t.Fatal("swapping zones b and c is not an automorphism")
	}
}

// TestSymmetryKnownZoneOrbits (e): n identical nodes, each in its own
// zone, count as n identical nodes: every zone is a domain of one node
// and any two are interchangeable, so the orbits are those of
// TestSymmetryKnownOrbits.
func TestSymmetryKnownZoneOrbits(t *testing.T) {
	for _, tc := range []struct{ nodes, pods int }{{2, 2}, {3, 3}, {4, 3}} {
		zones := placementSystem(t, tc.nodes, tc.pods, distinctZones)
		same := placementSystem(t, tc.nodes, tc.pods, identicalNodes)
		if got, want := countStates(t, zones), countStates(t, same); got != want {
			t.Errorf("%d nodes in their own zones, %d pods: %d states, want %d as for identical nodes", tc.nodes, tc.pods, got, want)
		}
	}
}

// TestSymmetryTwoTopologyKeysNoDomains: when two topology keys tell
// nodes apart (zone and rack), their domains may cross, and no domain
// moves.
func TestSymmetryTwoTopologyKeysNoDomains(t *testing.T) {
	b := build.New()
	for n := range 4 {
		b.AddNodes(1, build.Node().Label(model.ZoneKey, fmt.Sprint(n/2)).Label("rack", fmt.Sprint(n%2)))
	}
	b.AddTemplate(build.Template("web").Spread(1, "rack", model.ScheduleAnyway))
	u, _ := b.MustBuild()
	a := symmetry.Analyze(u, compose.SymmetryFacts(u))
	if len(a.Domains()) != 0 {
		t.Fatalf("domains %v of %q, want none", a.Domains(), a.DomainKey)
	}
}

// countStates is the number of states sys stores, symmetry on.
func countStates(t *testing.T, sys *compose.System) int64 {
	t.Helper()
	res, err := checker.Check[*model.State](context.Background(), sys.CheckerSystem(), checker.Properties[*model.State]{}, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Stats.States
}
