package scheduler

import (
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// packingPair builds two nodes of 4 cores and 4Gi, n1 half used by a pod
// of another deployment, and a pending pod of 500m and 512Mi; prof is
// the scheduler profile.
func packingPair(t *testing.T, prof model.SchedulerProfile) (*model.Universe, *model.State, int) {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().CPU(4000).Mem(4096))
	busy := b.AddDeployment("busy", b.AddTemplate(build.Template("busy").Requests(2000, 2048)), 1)
	app := b.AddDeployment("app", b.AddTemplate(build.Template("app").Requests(500, 512)), 1)
	b.RunPod(busy, 0)
	b.PendingPod(app, -1)
	b.U.Scheduler.Profile = prof
	u, s := b.MustBuild()
	return u, s, 1
}

// TestScoringStrategyPlaces: LeastAllocated (the default) spreads the pod
// to the empty node, MostAllocated packs it onto the used one, and
// RequestedToCapacityRatio does either as its shape says; with
// NodeResourcesFit's score disabled the nodes tie.
func TestScoringStrategyPlaces(t *testing.T) {
	rising := []model.ShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}
	falling := []model.ShapePoint{{Utilization: 0, Score: 10}, {Utilization: 100, Score: 0}}
	noFit := model.DefaultScoreWeights
	noFit.NodeResourcesFit = 0
	for _, c := range []struct {
		name string
		prof model.SchedulerProfile
		want []int
	}{
		{"LeastAllocated", model.SchedulerProfile{}, []int{1}},
		{"LeastAllocated cpu only", model.SchedulerProfile{Scoring: model.ScoringStrategy{Resources: []model.ResourceWeight{{Name: "cpu", Weight: 3}}}}, []int{1}},
		{"MostAllocated", model.SchedulerProfile{Scoring: model.ScoringStrategy{Type: model.MostAllocated}}, []int{0}},
		{"RequestedToCapacityRatio rising", model.SchedulerProfile{Scoring: model.ScoringStrategy{Type: model.RequestedToCapacityRatio, Shape: rising}}, []int{0}},
		{"RequestedToCapacityRatio falling", model.SchedulerProfile{Scoring: model.ScoringStrategy{Type: model.RequestedToCapacityRatio, Shape: falling}}, []int{1}},
		{"NodeResourcesFit disabled", model.SchedulerProfile{Weights: &noFit}, []int{0, 1}},
	} {
		u, s, pod := packingPair(t, c.prof)
		if _, top := Decide(u, s, pod); !slices.Equal(top, c.want) {
			t.Errorf("%s: top %v, want %v\n%s", c.name, top, c.want, Explain(u, s, pod))
		}
	}
}

// TestFitScores pins NodeResourcesFit's strategies on values worked out
// by hand from upstream's definitions, for a node of 4000m and 4096Mi
// using 2000m and 1024Mi plus the pod's 500m and 512Mi (cpu 62.5%,
// memory 37.5% after the pod).
func TestFitScores(t *testing.T) {
	for _, c := range []struct {
		name    string
		scoring model.ScoringStrategy
		want    int64
	}{
		// (37 + 62) / 2.
		{"LeastAllocated", model.ScoringStrategy{}, 49},
		// (37·3 + 62) / 4.
		{"LeastAllocated weighted", model.ScoringStrategy{Resources: []model.ResourceWeight{{Name: "cpu", Weight: 3}, {Name: "memory", Weight: 1}}}, 43},
		// (62 + 37) / 2.
		{"MostAllocated", model.ScoringStrategy{Type: model.MostAllocated}, 49},
		// cpu only: 62.
		{"MostAllocated cpu", model.ScoringStrategy{Type: model.MostAllocated, Resources: []model.ResourceWeight{{Name: "cpu", Weight: 1}}}, 62},
		// shape 0→0, 50→100, 100→0 (scores ·10): cpu 62 → 100 − 12·100/50 = 76,
		// memory 37 → 37·100/50 = 74; round(150/2) = 75.
		{"RequestedToCapacityRatio", model.ScoringStrategy{Type: model.RequestedToCapacityRatio,
			Shape: []model.ShapePoint{{Utilization: 0, Score: 0}, {Utilization: 50, Score: 10}, {Utilization: 100, Score: 0}}}, 75},
		// A resource scoring 0 is left out of the mean: memory 37 → 0
		// under a shape flat at 0 up to 40, cpu 62 → (62−40)·100/60 = 36.
		{"RequestedToCapacityRatio zero left out", model.ScoringStrategy{Type: model.RequestedToCapacityRatio,
			Shape: []model.ShapePoint{{Utilization: 40, Score: 0}, {Utilization: 100, Score: 10}}}, 36},
	} {
		b := build.New()
		b.AddNodes(1, build.Node().CPU(4000).Mem(4096))
		busy := b.AddDeployment("busy", b.AddTemplate(build.Template("busy").Requests(2000, 1024)), 1)
		app := b.AddDeployment("app", b.AddTemplate(build.Template("app").Requests(500, 512)), 1)
		b.RunPod(busy, 0)
		b.PendingPod(app, -1)
		b.U.Scheduler.Profile.Scoring = c.scoring
		u, s := b.MustBuild()
		var cy cycle
		cy.reset(u, s, 1)
		if got := cy.fitScore(0); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestListDefaultConstraints: under List defaulting a pod with an owner
// and no constraints of its own gets the profile's default constraints,
// a DoNotSchedule one filtering (here: one pod of the owner per node);
// a bare pod gets none.
func TestListDefaultConstraints(t *testing.T) {
	prof := model.SchedulerProfile{ListDefaulting: true,
		DefaultConstraints: []model.DefaultSpreadConstraint{{Key: model.HostnameKey, MaxSkew: 1, When: model.DoNotSchedule}}}
	for _, c := range []struct {
		name     string
		prof     model.SchedulerProfile
		bare     bool
		feasible []int
	}{
		{"system defaults", model.SchedulerProfile{}, false, []int{0, 1}},
		{"List", prof, false, []int{1}},
		{"List, bare pod", prof, true, []int{0, 1}},
		{"List without constraints", model.SchedulerProfile{ListDefaulting: true}, false, []int{0, 1}},
	} {
		b := build.New()
		b.AddNodes(2, build.Node().CPU(4000).Mem(4096))
		app := b.AddDeployment("app", b.AddTemplate(build.Template("app").Requests(500, 512)), 2)
		b.RunPod(app, 0)
		b.PendingPod(app, -1)
		b.U.Scheduler.Profile = c.prof
		u, s := b.MustBuild()
		if c.bare {
			s.Pods[1].Owner = 0
		}
		if feasible, _ := Decide(u, s, 1); !slices.Equal(feasible, c.feasible) {
			t.Errorf("%s: feasible %v, want %v\n%s", c.name, feasible, c.feasible, Explain(u, s, 1))
		}
	}
}

// TestDisabledFilters: a profile that disables PodTopologySpread's or
// InterPodAffinity's filter places the pod where its DoNotSchedule
// constraint or its required anti-affinity would keep it off; the other
// filter still runs.
func TestDisabledFilters(t *testing.T) {
	for _, c := range []struct {
		name string
		prof model.SchedulerProfile
		// feasible for the spread pod, then for the anti-affinity pod.
		spread, anti []int
	}{
		{"both on", model.SchedulerProfile{}, []int{1}, []int{1}},
		{"spread filter off", model.SchedulerProfile{SpreadFilterOff: true}, []int{0, 1}, []int{1}},
		{"inter-pod affinity filter off", model.SchedulerProfile{InterPodAffinityFilterOff: true}, []int{1}, []int{0, 1}},
	} {
		for i, tb := range []*build.TemplateBuilder{
			build.Template("app").Requests(1, 1).Spread(1, model.HostnameKey, model.DoNotSchedule),
			build.Template("app").Requests(1, 1).PodAntiAffinity(model.HostnameKey, "app", "x"),
		} {
			b := build.New()
			b.AddNodes(2, build.Node().CPU(8).Mem(8))
			d := b.AddDeployment("app", b.AddTemplate(tb.Label("app", "x")), 2)
			b.RunPod(d, 0)
			b.PendingPod(d, -1)
			b.U.Scheduler.Profile = c.prof
			u, s := b.MustBuild()
			want := [][]int{c.spread, c.anti}[i]
			if f, _ := Decide(u, s, 1); !slices.Equal(f, want) {
				t.Errorf("%s, pod %d: feasible %v, want %v\n%s", c.name, i, f, want, Explain(u, s, 1))
			}
		}
	}
}

// TestAddedAffinity: the profile's addedAffinity keeps the pod off the
// nodes its required selector does not match, with upstream's reason,
// whatever the pod's own affinity allows, and its preferred terms add to
// the pod's in NodeAffinity's score.
func TestAddedAffinity(t *testing.T) {
	in := func(k string, v ...string) model.Selector {
		return model.Selector{MatchExpressions: []model.Requirement{{Key: k, Operator: model.OpIn, Values: v}}}
	}
	poolB := &model.AddedAffinity{Required: true, Terms: []model.Selector{in("pool", "b")}}
	preferSSD := func(w int) *model.AddedAffinity {
		return &model.AddedAffinity{Preferred: []model.PreferredTerm{{Weight: w, Term: in("disk", "ssd")}}}
	}
	for _, c := range []struct {
		name     string
		added    *model.AddedAffinity
		tmpl     *build.TemplateBuilder
		feasible []int
		top      []int
		reason   string
	}{
		{"none", nil, build.Template("app"), []int{0, 1, 2}, []int{0, 1, 2}, ""},
		{"required", poolB, build.Template("app"), []int{1, 2}, []int{1, 2}, reasonEnforcedAffinity},
		{"required, the pod's own nodeSelector elsewhere", poolB, build.Template("app").NodeSelector("pool", "a"), nil, nil, reasonEnforcedAffinity},
		{"required, no term", &model.AddedAffinity{Required: true}, build.Template("app"), nil, nil, reasonEnforcedAffinity},
		{"required, two terms ORed", &model.AddedAffinity{Required: true, Terms: []model.Selector{in("pool", "a"), in("disk", "ssd")}}, build.Template("app"), []int{0, 2}, []int{0, 2}, reasonEnforcedAffinity},
		{"preferred", preferSSD(5), build.Template("app"), []int{0, 1, 2}, []int{2}, ""},
		{"preferred, lighter than the pod's", preferSSD(5), build.Template("app").Preferred(10, "pool", "a"), []int{0, 1, 2}, []int{0}, ""},
		{"preferred, heavier than the pod's", preferSSD(20), build.Template("app").Preferred(10, "pool", "a"), []int{0, 1, 2}, []int{2}, ""},
	} {
		b := build.New()
		b.AddNodes(1, build.Node().CPU(4000).Mem(4096).Label("pool", "a"))
		b.AddNodes(1, build.Node().CPU(4000).Mem(4096).Label("pool", "b"))
		b.AddNodes(1, build.Node().CPU(4000).Mem(4096).Label("pool", "b").Label("disk", "ssd"))
		d := b.AddDeployment("app", b.AddTemplate(c.tmpl.Requests(500, 512)), 1)
		b.PendingPod(d, -1)
		b.U.Scheduler.Profile.AddedAffinity = c.added
		u, s := b.MustBuild()
		f, top := Decide(u, s, 0)
		if !slices.Equal(f, c.feasible) || !slices.Equal(top, c.top) {
			t.Errorf("%s: feasible %v top %v, want %v and %v\n%s", c.name, f, top, c.feasible, c.top, Explain(u, s, 0))
		}
		if got := strings.Contains(Explain(u, s, 0), reasonEnforcedAffinity); got != (c.reason != "") {
			t.Errorf("%s: the explanation names the scheduler-enforced affinity: %t, want %t\n%s", c.name, got, c.reason != "", Explain(u, s, 0))
		}
	}
}
