package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// affinityProblem is a hand-built cluster whose scheduling depends on
// inter-pod affinity: identical nodes in two zones, a db pod running on
// the first node and web pods waiting for the scheduler, which branches
// over tied nodes (zone b's two nodes stay interchangeable), and a
// scaleDeployment command that moves web's replica count. Variant 0: web spreads itself by hostname with
// required anti-affinity and prefers db's zone; db prefers not to share a
// node with web (an existing pod's preferred anti-affinity). Variant 1:
// web requires db's zone, and db's required anti-affinity keeps web off
// its node (symmetric anti-affinity).
func affinityProblem(t testing.TB, variant int) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().CPU(20).Mem(64).Zone("a"))
	b.AddNodes(2, build.Node().CPU(20).Mem(64).Zone("b"))
	web := build.Template("web").Requests(6, 4).Label("app", "web")
	db := build.Template("db").Requests(4, 4).Label("app", "db")
	switch variant {
	case 0:
		web.PodAntiAffinity(model.HostnameKey, "app", "web").PreferredPodAffinity(10, "zone", "app", "db")
		db.PreferredPodAntiAffinity(20, model.HostnameKey, "app", "web")
	default:
		web.PodAffinity("zone", "app", "db")
		db.PodAntiAffinity(model.HostnameKey, "app", "web")
	}
	dd := b.AddDeployment("db", b.AddTemplate(db), 1)
	dw := b.AddDeployment("web", b.AddTemplate(web), 3)
	b.RunPod(dd, 0)
	for range 3 {
		b.PendingPod(dw, -1)
	}
	b.AddEvent(model.Event{Kind: model.ScaleDeployment, Slot: model.AfterStable, Deployment: dw, MaxDeployment: dw + 1, MaxDelta: 1})
	b.Slots = 7
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		s.Enqueue(model.SchedulerQueue, i)
	}
	s.Init = model.InitMain
	decls := []model.IntentDecl{{Name: "pod_always_schedulable"}}
	if variant == 0 {
		decls = append(decls, model.IntentDecl{Name: "pod_balance_across_node", Params: map[string]any{"did": 2, "maxSkew": 1}})
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("affinity%d", variant), u, s, decls, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// affinityClusters are affinityProblem's variants for the symmetry
// property tests (symmetricClusters).
func affinityClusters(t testing.TB) []symCluster {
	return []symCluster{{"affinity0", affinityProblem(t, 0)}, {"affinity1", affinityProblem(t, 1)}}
}

// TestSymmetrySameVerdictsWithPodAffinity (d): the inter-pod affinity
// clusters have the same verdicts with and without symmetry, their
// reduced counterexamples replay unreduced, and where ties leave a choice
// between the nodes of a zone (variant 0) the reduction merges states.
func TestSymmetrySameVerdictsWithPodAffinity(t *testing.T) {
	for _, c := range affinityClusters(t) {
		on, off := compareVerdicts(t, c.p)
		t.Logf("%s: %d states reduced, %d full", c.name, on, off)
		if c.name == "affinity0" && on >= off {
			t.Errorf("%s: symmetry merged nothing (%d states, %d without)", c.name, on, off)
		}
	}
}
