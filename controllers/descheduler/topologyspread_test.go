package descheduler

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// tscCase is one stanza transcribed from descheduler
// pkg/framework/plugins/removepodsviolatingtopologyspreadconstraint/
// topologyspreadconstraint_test.go (TestTopologySpreadConstraint) at v0.36
// (HEAD 7d2b28bf2). Upstream builds pods one by one; here each pod group
// is a deployment of its own template (all groups match selector foo=bar).
type tscCase struct {
	name   string
	nodes  []*build.NodeBuilder
	groups []podGroup
	// profile defaults to tscProfile(nodeFit).
	profile *model.DeschedulerProfile
	nodeFit bool
	want    int
	// wantPods: evicted pods (slot + 1) under Kivi's order, lowest slot
	// first within a class; upstream's expectedEvictedPods is noted where
	// it differs.
	wantPods []int
}

// podGroup is createTestPods' testPodList.
type podGroup struct {
	count       int
	node        int
	constraints []model.SpreadConstraint
	tmpl        func(*build.TemplateBuilder) *build.TemplateBuilder
	noOwners    bool
	terminating bool
}

func zoneNode(name, zone string) *build.NodeBuilder {
	return upstreamNode(name).Label("zone", zone)
}

// defaultConstraint is getDefaultTopologyConstraints(maxSkew): zone,
// DoNotSchedule, selector foo=bar, inclusion policies at their defaults.
func defaultConstraint(maxSkew int) []model.SpreadConstraint {
	return keyConstraint(maxSkew, "zone", model.DoNotSchedule)
}

func keyConstraint(maxSkew int, key string, when model.WhenUnsatisfiable) []model.SpreadConstraint {
	return []model.SpreadConstraint{{MaxSkew: maxSkew, TopologyKey: key, When: when, HonorNodeAffinity: true,
		Selector: &model.Selector{MatchLabels: map[string]string{"foo": "bar"}}}}
}

func (tc tscCase) build() (*model.Universe, *model.State) {
	b := build.New()
	for _, nb := range tc.nodes {
		b.AddNodes(1, nb)
	}
	type groupPods struct{ first, count int }
	var spans []groupPods
	slot := 0
	for g, pg := range tc.groups {
		tb := build.Template(fmt.Sprintf("g%d", g+1)).Requests(100, 0).Label("foo", "bar")
		for _, c := range pg.constraints {
			tb.SpreadWith(c)
		}
		if pg.tmpl != nil {
			tb = pg.tmpl(tb)
		}
		d := b.AddDeployment(fmt.Sprintf("g%d", g+1), b.AddTemplate(tb), pg.count)
		for i := 0; i < pg.count; i++ {
			b.RunPod(d, pg.node)
		}
		spans = append(spans, groupPods{slot, pg.count})
		slot += pg.count
	}
	p := tscProfile(tc.nodeFit)
	if tc.profile != nil {
		p = *tc.profile
	}
	b.U.Descheduler = policy(p)
	u, s := b.MustBuild()
	for g, pg := range tc.groups {
		for i := spans[g].first; i < spans[g].first+spans[g].count; i++ {
			if pg.noOwners {
				s.Pods[i].Owner = 0
			}
			if pg.terminating {
				s.Pods[i].Phase, s.Pods[i].WasRunning = model.Terminating, true
			}
		}
	}
	s.DeschedulerPending = true
	return u, s
}

func TestTopologySpreadUpstream(t *testing.T) {
	twoZones := func() []*build.NodeBuilder {
		return []*build.NodeBuilder{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")}
	}
	osNodes := func(extra ...string) []*build.NodeBuilder {
		var out []*build.NodeBuilder
		for i, v := range []string{"linNodeA", "linNodeB", "linNodeC"} {
			out = append(out, upstreamNode(fmt.Sprint("n", i+1)).Label("node", v).Label("os", "linux"))
		}
		for i, v := range append([]string{"winNodeA", "winNodeB", "winNodeC"}, extra...) {
			out = append(out, upstreamNode(fmt.Sprint("n", i+4)).Label("node", v).Label("os", "windows"))
		}
		return out
	}
	nodeSel := func(k, v string) func(*build.TemplateBuilder) *build.TemplateBuilder {
		return func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.NodeSelector(k, v) }
	}
	soft := keyConstraint(1, "zone", model.ScheduleAnyway)
	all := tscProfile(false)
	all.Constraints = model.AllConstraints
	noTBNF := tscProfile(true)
	noTBNF.TopologyBalanceNodeFit = false
	nodeKey := func(maxSkew int) []model.SpreadConstraint { return keyConstraint(maxSkew, "node", model.DoNotSchedule) }
	taintTest := func(e model.TaintEffect) []*build.NodeBuilder {
		return []*build.NodeBuilder{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB").Taint("taint-test", "test", e)}
	}
	twoPodsTaint := func(tolerate bool) []podGroup {
		first := podGroup{count: 1, node: 0, constraints: defaultConstraint(1)}
		if tolerate {
			first.tmpl = func(tb *build.TemplateBuilder) *build.TemplateBuilder {
				return tb.Toleration("taint-test", "test", model.NoSchedule)
			}
		}
		return []podGroup{first, {count: 1, node: 0, tmpl: nodeSel("zone", "zoneA")}}
	}
	threeZones := func(cpuA int64) []*build.NodeBuilder {
		return []*build.NodeBuilder{
			build.Node().Name("n1").CPU(cpuA).Mem(2000).MaxPods(9).Label("zone", "zoneA"),
			build.Node().Name("n2").CPU(1000).Mem(2000).MaxPods(9).Label("zone", "zoneB"),
			build.Node().Name("n3").CPU(1000).Mem(2000).MaxPods(9).Label("zone", "zoneC")}
	}
	sizes234 := []podGroup{{count: 2, node: 0, constraints: defaultConstraint(1)},
		{count: 3, node: 1, constraints: defaultConstraint(1)}, {count: 4, node: 2, constraints: defaultConstraint(1)}}
	cases := []tscCase{
		{name: "2 domains, sizes [2,1], maxSkew=1, move 0 pods", nodes: twoZones(),
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(1)}, {count: 1, node: 0}, {count: 1, node: 1}}, want: 0},
		{name: "2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve [2,2]", nodes: twoZones(),
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(1)}, {count: 2, node: 0}, {count: 1, node: 1}},
			want:   1, wantPods: []int{1}},
		{name: "2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve [2,2] (soft constraints)", nodes: twoZones(), profile: &all,
			groups: []podGroup{{count: 1, node: 0, constraints: soft}, {count: 2, node: 0}, {count: 1, node: 1}}, want: 1},
		{name: "(model) soft constraint ignored under the default constraints [DoNotSchedule]", nodes: twoZones(),
			groups: []podGroup{{count: 1, node: 0, constraints: soft}, {count: 2, node: 0}, {count: 1, node: 1}}, want: 0},
		{name: "2 domains, sizes [3,1], maxSkew=1, no pods eligible, move 0 pods", nodes: twoZones(),
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(1), noOwners: true},
				{count: 2, node: 0, noOwners: true}, {count: 1, node: 1, noOwners: true}}, want: 0},
		{name: "2 domains, sizes [5,2], maxSkew=1, move 1 pod to achieve [4,3]", nodes: twoZones(),
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(1)}, {count: 4, node: 0}, {count: 2, node: 1}}, want: 1},
		{name: "2 domains, sizes [4,0], maxSkew=1, move 2 pods to achieve [2,2]", nodes: twoZones(),
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(1)}, {count: 3, node: 0}}, want: 2, wantPods: []int{1, 2}},
		{name: "2 domains, sizes [4,0], maxSkew=1, only move 1 pod since pods with nodeSelector and nodeAffinity aren't evicted",
			nodes: twoZones(), nodeFit: true,
			groups: []podGroup{
				{count: 2, node: 0, constraints: defaultConstraint(1), tmpl: nodeSel("zone", "zoneA")},
				{count: 1, node: 0, constraints: defaultConstraint(1), tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder {
					return tb.Required("foo", "bar")
				}},
				{count: 1, node: 0, constraints: defaultConstraint(1)}},
			want: 1, wantPods: []int{4}},
		{name: "6 domains, sizes [0,0,0,3,3,2], maxSkew=1, No pod is evicted since topology is balanced", nodes: osNodes(),
			groups: []podGroup{{count: 3, node: 3, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")},
				{count: 3, node: 4, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")},
				{count: 2, node: 5, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")}}, want: 0},
		{name: "7 domains, sizes [0,0,0,3,3,2], maxSkew=1, two pods are evicted and moved to new node added", nodes: osNodes("winNodeD"),
			groups: []podGroup{{count: 3, node: 3, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")},
				{count: 3, node: 4, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")},
				{count: 2, node: 5, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")}}, want: 2, wantPods: []int{1, 4}},
		{name: "6 domains, sizes [0,0,0,4,3,1], maxSkew=1, 1 pod is evicted from node 4", nodes: osNodes(),
			groups: []podGroup{{count: 4, node: 3, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")},
				{count: 3, node: 4, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")},
				{count: 1, node: 5, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")}}, want: 1},
		{name: "6 domains, sizes [0,0,0,4,3,1], maxSkew=1, 0 pod is evicted as pods of node:winNodeA can only be scheduled on this node and nodeFit is true",
			nodes: osNodes(), nodeFit: true,
			groups: []podGroup{{count: 4, node: 3, constraints: nodeKey(1), tmpl: nodeSel("node", "winNodeA")},
				{count: 3, node: 4, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")},
				{count: 1, node: 5, constraints: nodeKey(1), tmpl: nodeSel("os", "windows")}}, want: 0},
		{name: "3 domains, sizes [0, 1, 100], maxSkew=1, move 66 pods to get [34, 33, 34]",
			nodes:  []*build.NodeBuilder{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")},
			groups: []podGroup{{count: 1, node: 1, constraints: defaultConstraint(1)}, {count: 100, node: 2}}, want: 66},
		{name: "4 domains, sizes [0, 1, 3, 5], should move 3 to get [2, 2, 3, 2]",
			nodes:  []*build.NodeBuilder{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC"), zoneNode("n4", "zoneD")},
			groups: []podGroup{{count: 1, node: 1, constraints: defaultConstraint(1)}, {count: 3, node: 2}, {count: 5, node: 3}},
			want:   3},
		{name: "2 domains size [2 6], maxSkew=2, should move 1 to get [3 5]", nodes: twoZones(),
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(2)}, {count: 1, node: 0}, {count: 6, node: 1}}, want: 1},
		{name: "2 domains size [2 6], maxSkew=2, can't move any because of node taints", nodeFit: true,
			nodes:  []*build.NodeBuilder{zoneNode("n1", "zoneA").Taint("hardware", "gpu", model.NoSchedule), zoneNode("n2", "zoneB")},
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(2)}, {count: 1, node: 0}, {count: 6, node: 1}}, want: 0},
		{name: "2 domains size [2 6], maxSkew=2, can't move any because node1 does not have enough CPU", nodeFit: true,
			nodes:  []*build.NodeBuilder{build.Node().Name("n1").CPU(200).Mem(3000).MaxPods(10).Label("zone", "zoneA"), zoneNode("n2", "zoneB")},
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(2)}, {count: 1, node: 0}, {count: 6, node: 1}}, want: 0},
		{name: "Multiple constraints (6 nodes/2 zones, 4 pods)", profile: &all,
			nodes: []*build.NodeBuilder{
				upstreamNode("n1").Label("topology.kubernetes.io/zone", "zoneA"), upstreamNode("n2").Label("topology.kubernetes.io/zone", "zoneA"),
				upstreamNode("n3").Label("topology.kubernetes.io/zone", "zoneA"), upstreamNode("n4").Label("topology.kubernetes.io/zone", "zoneB"),
				upstreamNode("n5").Label("topology.kubernetes.io/zone", "zoneB"), upstreamNode("n6").Label("topology.kubernetes.io/zone", "zoneB")},
			groups: []podGroup{{count: 1, node: 0}, {count: 1, node: 1}, {count: 1, node: 2}, {count: 1, node: 3}},
			want:   1},
		{name: "3 domains size [8 7 0], maxSkew=1, should move 5 to get [5 5 5]",
			nodes:  []*build.NodeBuilder{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")},
			groups: []podGroup{{count: 8, node: 0, constraints: defaultConstraint(1)}, {count: 7, node: 1, constraints: defaultConstraint(1)}},
			// upstream expects pod-5..pod-9: the last listed in name order.
			want: 5, wantPods: []int{1, 2, 3, 9, 10}},
		{name: "3 domains size [5 5 5], maxSkew=1, should move 0 to retain [5 5 5]",
			nodes: []*build.NodeBuilder{zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"), zoneNode("n3", "zoneC")},
			groups: []podGroup{{count: 5, node: 0, constraints: defaultConstraint(1)}, {count: 5, node: 1, constraints: defaultConstraint(1)},
				{count: 5, node: 2, constraints: defaultConstraint(1)}}, want: 0},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 1 pod since pod tolerates the node with taint",
			nodes: taintTest(model.NoSchedule), groups: twoPodsTaint(true), want: 1, wantPods: []int{1}},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 0 pods since pod does not tolerate the tainted node",
			nodes: taintTest(model.NoSchedule), groups: twoPodsTaint(false), want: 0},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 0 pods since pod does not tolerate the tainted node, and NodeFit is enabled",
			nodes: taintTest(model.NoSchedule), groups: twoPodsTaint(false), nodeFit: true, want: 0},
		{name: "2 domains, sizes [2,0], maxSkew=1, move 1 pod for node with PreferNoSchedule Taint",
			nodes: taintTest(model.PreferNoSchedule), groups: twoPodsTaint(false), want: 1, wantPods: []int{1}},
		{name: "2 domains, sizes [4,2], maxSkew=1, 2 pods in termination; nothing should be moved", nodes: twoZones(),
			groups: []podGroup{{count: 2, node: 0, constraints: defaultConstraint(1)},
				{count: 2, node: 0, constraints: defaultConstraint(1), terminating: true},
				{count: 2, node: 1, constraints: defaultConstraint(1)}}, want: 0},
		{name: "3 domains, sizes [2,3,4], maxSkew=1, NodeFit is enabled, and not enough cpu on zoneA; nothing should be moved",
			nodes: threeZones(250), groups: sizes234, nodeFit: true, want: 0},
		{name: "3 domains, sizes [2,3,4], maxSkew=1, args.NodeFit is false, and not enough cpu on zoneA; 1 should be moved to force scale-up",
			nodes: threeZones(250), groups: sizes234, profile: &noTBNF, want: 1, wantPods: []int{6}},
		{name: "2 domains, sizes [[1,4], [2,1]], maxSkew=1, NodeFit is enabled; should move 1", nodeFit: true,
			nodes: []*build.NodeBuilder{
				build.Node().Name("A1").CPU(1000).Mem(2000).MaxPods(9).Label("zone", "zoneA"),
				build.Node().Name("A2").CPU(1000).Mem(2000).MaxPods(9).Label("zone", "zoneA"),
				build.Node().Name("B1").CPU(1000).Mem(2000).MaxPods(9).Label("zone", "zoneB"),
				build.Node().Name("B2").CPU(1000).Mem(2000).MaxPods(9).Label("zone", "zoneB")},
			groups: []podGroup{{count: 1, node: 0, constraints: defaultConstraint(1)}, {count: 4, node: 1, constraints: defaultConstraint(1)},
				{count: 2, node: 2, constraints: defaultConstraint(1)}, {count: 1, node: 3, constraints: defaultConstraint(1)}},
			// upstream expects pod-4 (the last listed); Kivi's order takes the lowest slot.
			want: 1, wantPods: []int{1}},
	}
	// "Multiple constraints": every pod declares a ScheduleAnyway zone and
	// a DoNotSchedule hostname constraint on app=whoami.
	for i := range cases {
		if cases[i].name != "Multiple constraints (6 nodes/2 zones, 4 pods)" {
			continue
		}
		whoami := func(key string, when model.WhenUnsatisfiable) model.SpreadConstraint {
			return model.SpreadConstraint{MaxSkew: 1, TopologyKey: key, When: when, HonorNodeAffinity: true,
				Selector: &model.Selector{MatchLabels: map[string]string{"app": "whoami"}}}
		}
		for g := range cases[i].groups {
			cases[i].groups[g].constraints = []model.SpreadConstraint{
				whoami("topology.kubernetes.io/zone", model.ScheduleAnyway), whoami(model.HostnameKey, model.DoNotSchedule)}
			cases[i].groups[g].tmpl = func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Label("app", "whoami") }
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			next, _, _ := runCycle(t, u, s)
			got := evictedBy(s, next)
			if len(got) != tc.want {
				t.Errorf("evicted %d pods %v, want %d\n%s", len(got), got, tc.want, Explain(u, s))
			}
			if tc.wantPods != nil && !equalInts(got, tc.wantPods) {
				t.Errorf("evicted %v, want %v\n%s", got, tc.wantPods, Explain(u, s))
			}
		})
	}
}

// TestTiedDomainPodsBranch: the pods a move takes out of a domain are
// tied when the sort keys agree; the cycle branches over the distinct
// ones (pods on different nodes of one zone differ) and takes the lowest
// slots of identical ones (ties.go).
func TestTiedDomainPodsBranch(t *testing.T) {
	b := build.New()
	b.AddNodes(2, build.Node().Label("zone", "a"))
	b.AddNodes(1, build.Node().Label("zone", "b"))
	d := b.AddDeployment("web", b.AddTemplate(build.Template("app").Requests(4, 4).Label("app", "web").
		Spread(1, "zone", model.DoNotSchedule)), 4)
	b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 1).RunPod(d, 1)
	b.U.Descheduler = policy(tscProfile(false))
	u, s := b.MustBuild()
	s.DeschedulerPending = true
	// Zone a holds 4, zone b none: move 2, out of {2 on node 1, 2 on
	// node 2}: both from node 1, one each, or both from node 2.
	if got := branches(u, s); got != 3 {
		t.Fatalf("%d branches, want 3\n%s", got, Explain(u, s))
	}
	next, _, _ := runCycle(t, u, s)
	if got := evictedBy(s, next); !equalInts(got, []int{1, 2}) {
		t.Errorf("first branch evicted %v, want [1 2]", got)
	}
}

// TestSpreadConstraintsWrittenApart: upstream collects a namespace's
// constraints by deep equality of what it captured as written: the
// selector, and under the default nodeAffinityPolicy Honor the declaring
// pod's nodeSelector and required affinity. Two constraints that select
// the same pods and count the same nodes but are written apart (app=web
// and tier=a, which only web's pods carry; nodeSelectors pool=x and
// pool=x,disk=ssd on nodes that all carry both) are two constraints,
// each balanced on its own. Hosts n1 and n3 hold two matching pods each,
// n2 none: each constraint moves one pod out of whichever of n1 and n3
// its (map-ordered) sort puts last, so one pod or two may go. Written
// alike they are one constraint: one pod goes.
func TestSpreadConstraintsWrittenApart(t *testing.T) {
	spread := func(sel map[string]string) model.SpreadConstraint {
		return model.SpreadConstraint{MaxSkew: 1, TopologyKey: model.HostnameKey, When: model.DoNotSchedule,
			HonorNodeAffinity: true, Selector: &model.Selector{MatchLabels: sel}}
	}
	twoSelectors := func(second map[string]string) func(*build.Builder) {
		return func(b *build.Builder) {
			tmpl := build.Template("web").Requests(4, 4).Label("app", "web").Label("tier", "a").
				SpreadWith(spread(map[string]string{"app": "web"})).SpreadWith(spread(second))
			d := b.AddDeployment("web", b.AddTemplate(tmpl), 4)
			b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 2).RunPod(d, 2)
		}
	}
	twoNodeSelectors := func(second map[string]string) func(*build.Builder) {
		return func(b *build.Builder) {
			for i, sel := range []map[string]string{{"pool": "x"}, second} {
				tmpl := build.Template(fmt.Sprint("t", i)).Requests(4, 4).Label("tier", "a").
					SpreadWith(spread(map[string]string{"tier": "a"}))
				t := b.AddTemplate(tmpl)
				b.U.Templates[t].NodeSelector = sel
				d := b.AddDeployment(fmt.Sprint("d", i), t, 2)
				b.RunPod(d, 0).RunPod(d, 2)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		build func(*build.Builder)
		want  []string
	}{
		{"selectors written apart", twoSelectors(map[string]string{"tier": "a"}), []string{"[1 3]", "[1]", "[3]"}},
		{"selectors written alike", twoSelectors(map[string]string{"app": "web"}), []string{"[1]", "[3]"}},
		// Each domain holds one pod of each Deployment, tied: either
		// may go, and each constraint takes its own.
		{"nodeSelectors written apart", twoNodeSelectors(map[string]string{"pool": "x", "disk": "ssd"}),
			[]string{"[1 2]", "[1 3]", "[1 4]", "[1]", "[2 3]", "[2 4]", "[2]", "[3 4]", "[3]", "[4]"}},
		{"nodeSelectors written alike", twoNodeSelectors(map[string]string{"pool": "x"}), []string{"[1]", "[2]", "[3]", "[4]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(3, build.Node().Label("pool", "x").Label("disk", "ssd"))
			tc.build(b)
			b.U.Descheduler = policy(tscProfile(false))
			u, s := b.MustBuild()
			s.DeschedulerPending = true
			got := outcomeList(t, u, s)
			if !slices.Equal(got, tc.want) {
				t.Errorf("branches evict %v, want %v\n%s", got, tc.want, Explain(u, s))
			}
		})
	}
}
