package scheduler

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// ipaCase is a hand-written InterPodAffinity question: three nodes n1, n2
// (zone a) and n3 (zone b), unless nodes says otherwise; the deployments
// "db" (app=db) and "web" (app=web, the incoming pod's template unless
// the case gives its own), pods running where given, and one pending pod.
type ipaCase struct {
	name    string
	nodes   []*build.NodeBuilder
	web, db *build.TemplateBuilder
	// running lists (deployment, node) of the running pods: 0 = db, 1 = web.
	running [][2]int
	// terminating marks the running pods that are terminating.
	terminating []int
	// feasible and top are the expected node names; reasons the
	// expected rejection reason per rejected node.
	feasible, top []string
	reasons       map[string]string
}

func (tc ipaCase) run(t *testing.T) {
	t.Helper()
	b := build.New()
	nodes := tc.nodes
	if nodes == nil {
		nodes = []*build.NodeBuilder{build.Node().Zone("a"), build.Node().Zone("a"), build.Node().Zone("b")}
	}
	for i, nb := range nodes {
		b.AddNodes(1, nb.Name(fmt.Sprint("n", i+1)).CPU(64).Mem(64))
	}
	db, web := tc.db, tc.web
	if db == nil {
		db = build.Template("db")
	}
	if web == nil {
		web = build.Template("web")
	}
	db.Label("app", "db").Requests(1, 1)
	web.Label("app", "web").Requests(1, 1)
	deps := []int{b.AddDeployment("db", b.AddTemplate(db), 0), b.AddDeployment("web", b.AddTemplate(web), 0)}
	for _, r := range tc.running {
		b.RunPod(deps[r[0]], r[1])
	}
	b.PendingPod(deps[1], -1)
	u, s := b.MustBuild()
	for _, i := range tc.terminating {
		s.Pods[i].Phase = model.Terminating
	}
	pod := len(tc.running)
	feasible, top := Decide(u, s, pod)
	names := func(ns []int) []string {
		out := []string{}
		for _, n := range ns {
			out = append(out, u.Nodes[n].Name)
		}
		return out
	}
	if got := names(feasible); !slices.Equal(got, tc.feasible) {
		t.Errorf("feasible %v, want %v\n%s", got, tc.feasible, Explain(u, s, pod))
	}
	if got := names(top); !slices.Equal(got, tc.top) {
		t.Errorf("top %v, want %v\n%s", got, tc.top, Explain(u, s, pod))
	}
	var c cycle
	pr := defaultProfile()
	c.reset(u, s, pod)
	c.filter(&pr)
	for n, by := range c.rejectedBy {
		want, ok := tc.reasons[u.Nodes[n].Name]
		switch {
		case by < 0 && ok:
			t.Errorf("node %s feasible, want rejected: %s", u.Nodes[n].Name, want)
		case by >= 0 && c.status[n].Reason != want:
			t.Errorf("node %s rejected by %s: %q, want %q", u.Nodes[n].Name, pr.filters[by].Name(), c.status[n].Reason, want)
		}
	}
}

// TestInterPodAffinity pins the plugin on cases worked out from upstream's
// filtering.go and scoring.go (v1.36), several of them restated from its
// tests (filtering_test.go "satisfies the pod with requiredDuringScheduling
// ...", "verify that PodAntiAffinity from existing pod is respected when
// pod has no AntiAffinity constraints", "... first pod ... affinity to
// itself").
func TestInterPodAffinity(t *testing.T) {
	all := []string{"n1", "n2", "n3"}
	for _, tc := range []ipaCase{
		{name: "no terms", running: [][2]int{{0, 0}}, feasible: all, top: []string{"n2", "n3"}},
		{name: "required affinity by zone", web: build.Template("web").PodAffinity("zone", "app", "db"),
			running: [][2]int{{0, 1}}, feasible: []string{"n1", "n2"}, top: []string{"n1"},
			reasons: map[string]string{"n3": reasonAffinity}},
		{name: "required affinity by hostname", web: build.Template("web").PodAffinity(model.HostnameKey, "app", "db"),
			running: [][2]int{{0, 1}}, feasible: []string{"n2"}, top: []string{"n2"},
			reasons: map[string]string{"n1": reasonAffinity, "n3": reasonAffinity}},
		// A node without the term's key fails whatever the counts.
		{name: "affinity needs the key", nodes: []*build.NodeBuilder{build.Node().Zone("a"), build.Node()},
			web: build.Template("web").PodAffinity("zone", "app", "db"), running: [][2]int{{0, 0}},
			feasible: []string{"n1"}, top: []string{"n1"}, reasons: map[string]string{"n2": reasonAffinity}},
		// No pod matches and the pod does not match its own term: nowhere.
		{name: "affinity to nothing", web: build.Template("web").PodAffinity("zone", "app", "db"),
			feasible: []string{}, top: []string{},
			reasons: map[string]string{"n1": reasonAffinity, "n2": reasonAffinity, "n3": reasonAffinity}},
		// The first pod of a group with affinity to itself goes anywhere
		// that has the key.
		{name: "first pod of a group", web: build.Template("web").PodAffinity("zone", "app", "web"),
			feasible: all, top: all},
		// Once one exists, only its domain.
		{name: "second pod of a group", web: build.Template("web").PodAffinity("zone", "app", "web"),
			running: [][2]int{{1, 2}}, feasible: []string{"n3"}, top: []string{"n3"},
			reasons: map[string]string{"n1": reasonAffinity, "n2": reasonAffinity}},
		// A matching pod on a node without the key does not count, so the
		// exception still applies.
		{name: "group member on a key-less node", nodes: []*build.NodeBuilder{build.Node().Zone("a"), build.Node()},
			web: build.Template("web").PodAffinity("zone", "app", "web"), running: [][2]int{{1, 1}},
			feasible: []string{"n1"}, top: []string{"n1"}, reasons: map[string]string{"n2": reasonAffinity}},
		{name: "required anti-affinity by zone", web: build.Template("web").PodAntiAffinity("zone", "app", "db"),
			running: [][2]int{{0, 0}}, feasible: []string{"n3"}, top: []string{"n3"},
			reasons: map[string]string{"n1": reasonAntiAffinity, "n2": reasonAntiAffinity}},
		{name: "required anti-affinity by hostname", web: build.Template("web").PodAntiAffinity(model.HostnameKey, "app", "web"),
			running: [][2]int{{1, 0}, {1, 2}}, feasible: []string{"n2"}, top: []string{"n2"},
			reasons: map[string]string{"n1": reasonAntiAffinity, "n3": reasonAntiAffinity}},
		// The existing pod's required anti-affinity keeps the incoming
		// pod, which has no terms, out of its zone.
		{name: "existing anti-affinity is symmetric", db: build.Template("db").PodAntiAffinity("zone", "app", "web"),
			running: [][2]int{{0, 1}}, feasible: []string{"n3"}, top: []string{"n3"},
			reasons: map[string]string{"n1": reasonExistingAntiAffi, "n2": reasonExistingAntiAffi}},
		// A terminating pod still counts (the scheduler's cache holds it).
		{name: "terminating pods count", web: build.Template("web").PodAntiAffinity("zone", "app", "db"),
			running: [][2]int{{0, 0}}, terminating: []int{0}, feasible: []string{"n3"}, top: []string{"n3"},
			reasons: map[string]string{"n1": reasonAntiAffinity, "n2": reasonAntiAffinity}},
		// Scores. Preferred anti-affinity by hostname: n1 scores −10, the
		// others 0, so n1 normalises to 0 and n2, n3 to 100; LeastAllocated
		// also prefers the empty nodes.
		{name: "preferred anti-affinity", web: build.Template("web").PreferredPodAntiAffinity(10, model.HostnameKey, "app", "db"),
			running: [][2]int{{0, 0}}, feasible: all, top: []string{"n2", "n3"}},
		// Preferred affinity by zone beats LeastAllocated's preference for
		// empty nodes: n1 and n2 score 100 (×2), n3 0.
		{name: "preferred affinity", web: build.Template("web").PreferredPodAffinity(1, "zone", "app", "db"),
			running: [][2]int{{0, 0}}, feasible: all, top: []string{"n2"}},
		// The existing pod's required affinity to the incoming pod scores
		// hardPodAffinityWeight in its zone: n2 wins over n3, both empty.
		{name: "existing required affinity scores", db: build.Template("db").PodAffinity("zone", "app", "web"),
			running: [][2]int{{0, 0}}, feasible: all, top: []string{"n2"}},
		// The existing pod's preferred anti-affinity pushes the incoming
		// pod out of its zone.
		{name: "existing preferred anti-affinity", db: build.Template("db").PreferredPodAntiAffinity(50, "zone", "app", "web"),
			running: [][2]int{{0, 1}}, feasible: all, top: []string{"n3"}},
	} {
		t.Run(tc.name, tc.run)
	}
}

// TestInterPodAffinityNormalize pins NormalizeScore's arithmetic: the
// fraction of the span in floating point, truncated.
func TestInterPodAffinityNormalize(t *testing.T) {
	scores := []int64{-10, 0, 5, 20}
	interPodAffinityScore{}.Normalize(nil, scores)
	if want := []int64{0, 33, 50, 100}; !slices.Equal(scores, want) {
		t.Errorf("normalised %v, want %v", scores, want)
	}
	equal := []int64{7, 7}
	interPodAffinityScore{}.Normalize(nil, equal)
	if !slices.Equal(equal, []int64{0, 0}) {
		t.Errorf("equal scores normalised to %v, want 0s", equal)
	}
}

// TestExplainShowsInterPodAffinity: the column appears only where some
// template has inter-pod affinity.
func TestExplainShowsInterPodAffinity(t *testing.T) {
	for _, withTerms := range []bool{false, true} {
		b := build.New()
		b.AddNodes(2, build.Node().CPU(8).Mem(8))
		tb := build.Template("web").Label("app", "web").Requests(1, 1)
		if withTerms {
			tb.PreferredPodAntiAffinity(1, model.HostnameKey, "app", "web")
		}
		b.PendingPod(b.AddDeployment("web", b.AddTemplate(tb), 1), -1)
		u, s := b.MustBuild()
		if got := strings.Contains(Explain(u, s, 0), "InterPodAffinity"); got != withTerms {
			t.Errorf("terms %t: the explanation mentions InterPodAffinity: %t\n%s", withTerms, got, Explain(u, s, 0))
		}
	}
}
