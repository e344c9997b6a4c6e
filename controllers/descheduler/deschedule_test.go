package descheduler

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The deschedule plugins against the tables of descheduler v0.36:
// removepodsviolatingnodetaints/node_taint_test.go,
// removepodsviolatingnodeaffinity/node_affinity_test.go and
// removepodsviolatinginterpodantiaffinity/pod_antiaffinity_test.go. Upstream
// nodes have 2000 mCPU, 3000 memory, 10 pods; pods request 100 mCPU. Each
// pod is its own Deployment's (upstream: a ReplicaSet each). Upstream's
// protected pods that the model has no kind for (DaemonSet, mirror and,
// unless evictLocalStoragePods, local-storage pods) are bare pods, which
// the DefaultEvictor protects the same way; an unschedulable node carries
// the node.kubernetes.io/unschedulable:NoSchedule taint, as `kubectl
// cordon` puts on it. A limit field of 0 is no limit (dsCase.limits);
// upstream's rows with a limit of 0 (no eviction at all) are in
// evictions_test.go (dsCase.zeroLimit).

// dsPod is one pod of a case: its node and how its template differs.
type dsPod struct {
	node int
	tmpl func(*build.TemplateBuilder) *build.TemplateBuilder
	// bare: no owner (a pod the DefaultEvictor protects).
	bare        bool
	terminating bool
}

type dsCase struct {
	name  string
	nodes []*build.NodeBuilder
	// notReady nodes are left out of the cycle (upstream: not passed in).
	notReady []int
	pods     []dsPod
	profile  model.DeschedulerProfile
	limits   [3]int // per node, per namespace, total
	// zeroLimit: some limit is given as 0 (model.Descheduler.EvictionLimitZero).
	zeroLimit bool
	want      int
	// wantPods, when set, are the evicted pods (printed numbers) of the
	// first branch.
	wantPods []int
}

func (tc dsCase) build() (*model.Universe, *model.State) {
	b := build.New()
	for _, nb := range tc.nodes {
		b.AddNodes(1, nb)
	}
	for i, p := range tc.pods {
		tb := build.Template(fmt.Sprintf("p%d", i+1)).Requests(100, 0)
		if p.tmpl != nil {
			tb = p.tmpl(tb)
		}
		d := b.AddDeployment(fmt.Sprintf("p%d", i+1), b.AddTemplate(tb), 1)
		b.RunPod(d, p.node)
	}
	pol := policy(tc.profile)
	pol.MaxPerNode, pol.MaxPerNamespace, pol.MaxTotal = tc.limits[0], tc.limits[1], tc.limits[2]
	pol.EvictionLimitZero = tc.zeroLimit
	b.U.Descheduler = pol
	u, s := b.MustBuild()
	for _, n := range tc.notReady {
		s.Nodes[n].Status = model.NotReady
	}
	for i, p := range tc.pods {
		if p.bare {
			s.Pods[i].Owner = 0
		}
		if p.terminating {
			s.Pods[i].Phase, s.Pods[i].WasRunning = model.Terminating, true
		}
	}
	s.DeschedulerPending = true
	return u, s
}

// runDeschedulePlugins runs the deschedule extension point alone on a
// copy of s (choice 0 everywhere), as upstream's tests call the plugin
// directly: a one-node cluster is not skipped.
func runDeschedulePlugins(u *model.Universe, s *model.State, choices []int) (*model.State, []string) {
	tx := model.NewTx(u)
	tx.Begin(choices, true)
	next := s.Clone()
	newCycle(u, next, tx, nil).runDeschedule()
	var lines []string
	for _, l := range tx.Lines {
		lines = append(lines, l.String())
	}
	return next, lines
}

func runDsCases(t *testing.T, cases []dsCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			next, lines := runDeschedulePlugins(u, s, nil)
			got := evictedBy(s, next)
			if len(got) != tc.want {
				t.Errorf("evicted %v, want %d\n%s", got, tc.want, Explain(u, s))
			}
			if tc.wantPods != nil && !equalInts(got, tc.wantPods) {
				t.Errorf("evicted %v, want %v", got, tc.wantPods)
			}
			if len(lines) != 2*len(got) {
				t.Errorf("trace %q: want a reason and an eviction line per pod", lines)
			}
		})
	}
}

func taintsProfile(nodeFit bool, args model.NodeTaintsArgs) model.DeschedulerProfile {
	return model.DeschedulerProfile{Name: "taints", NodeFit: nodeFit, Deschedule: model.DescheduleConfig{
		Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints}, NodeTaints: args}}
}

func TestRemovePodsViolatingNodeTaintsUpstream(t *testing.T) {
	// createNoScheduleTaint ignores its key and value: every "testing"
	// taint upstream is testTaint1=test1 too.
	taint1 := func(name string) *build.NodeBuilder {
		return upstreamNode(name).Taint("testTaint1", "test1", model.NoSchedule)
	}
	both := func(name string) *build.NodeBuilder {
		return taint1(name).Taint("testTaint1", "test1", model.NoSchedule)
	}
	pns := func(name string) *build.NodeBuilder {
		return upstreamNode(name).Taint("testTaint1", "test1", model.PreferNoSchedule)
	}
	unschedulable := func(name string) *build.NodeBuilder {
		return upstreamNode(name).Taint("node.kubernetes.io/unschedulable", "", model.NoSchedule)
	}
	tol := func(k, v string, e model.TaintEffect) func(*build.TemplateBuilder) *build.TemplateBuilder {
		return func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Toleration(k, v, e) }
	}
	tol1 := tol("testTaint1", "test1", model.NoSchedule)
	tolX := tol("testTaintX1", "testX1", model.NoSchedule)
	critical := func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Critical() }
	def := taintsProfile(false, model.NodeTaintsArgs{})
	cases := []dsCase{
		{name: "Pods not tolerating node taint should be evicted", nodes: []*build.NodeBuilder{taint1("n1")},
			pods: []dsPod{{tmpl: tol1}, {}, {tmpl: tol1}}, profile: def, want: 1, wantPods: []int{2}},
		{name: "Pods with tolerations but not tolerating node taint should be evicted", nodes: []*build.NodeBuilder{taint1("n1")},
			pods: []dsPod{{tmpl: tol1}, {tmpl: tol1}, {tmpl: tolX}}, profile: def, want: 1, wantPods: []int{3}},
		{name: "Only <maxNoOfPodsToEvictTotal> number of Pods not tolerating node taint should be evicted",
			nodes: []*build.NodeBuilder{taint1("n1")}, pods: []dsPod{{tmpl: tol1}, {}, {}}, profile: def, limits: [3]int{2, 0, 1}, want: 1},
		{name: "Only <maxPodsToEvictPerNode> number of Pods not tolerating node taint should be evicted",
			nodes: []*build.NodeBuilder{taint1("n1")}, pods: []dsPod{{tmpl: tol1}, {}, {}}, profile: def, limits: [3]int{1, 0, 0}, want: 1},
		{name: "Only <maxNoOfPodsToEvictPerNamespace> number of Pods not tolerating node taint should be evicted",
			nodes: []*build.NodeBuilder{taint1("n1")}, pods: []dsPod{{tmpl: tol1}, {}, {}}, profile: def, limits: [3]int{0, 1, 0}, want: 1},
		{name: "Critical pods not tolerating node taint should not be evicted", nodes: []*build.NodeBuilder{taint1("n2")},
			pods: []dsPod{{tmpl: critical}, {bare: true}, {bare: true}, {bare: true}}, profile: def, want: 0},
		{name: "Critical pods except storage pods not tolerating node taint should not be evicted (evictLocalStoragePods: p9 is an ordinary pod)",
			nodes: []*build.NodeBuilder{taint1("n2")},
			pods:  []dsPod{{tmpl: critical}, {bare: true}, {}, {bare: true}}, profile: def, want: 1, wantPods: []int{3}},
		{name: "Critical and non critical pods, only non critical pods not tolerating node taint should be evicted",
			nodes: []*build.NodeBuilder{taint1("n2")},
			pods:  []dsPod{{tmpl: critical}, {bare: true}, {bare: true}, {}}, profile: def, want: 1, wantPods: []int{4}},
		{name: "Critical and non critical pods, pods not tolerating node taint should be evicted even if they are critical",
			nodes:   []*build.NodeBuilder{taint1("n1"), taint1("n2")},
			pods:    []dsPod{{node: 0}, {node: 1, tmpl: critical}, {node: 1, bare: true}, {node: 1, bare: true}},
			profile: model.DeschedulerProfile{Name: "taints", EvictSystemCriticalPods: true, Deschedule: def.Deschedule},
			want:    2, wantPods: []int{1, 2}},
		{name: "Pod p2 doesn't tolerate taint on it's node, but also doesn't tolerate taints on other nodes",
			nodes: []*build.NodeBuilder{taint1("n1"), taint1("n2")}, pods: []dsPod{{tmpl: tol1}, {}, {tmpl: tol1}},
			profile: taintsProfile(true, model.NodeTaintsArgs{}), want: 0},
		{name: "Pod p12 doesn't tolerate taint on it's node, but other nodes don't match it's selector (p11 is on no listed node)",
			nodes: []*build.NodeBuilder{taint1("n1"), upstreamNode("n3").Label("datacenter", "east")},
			pods:  []dsPod{{tmpl: tol1}, {tmpl: tol1}}, profile: taintsProfile(true, model.NodeTaintsArgs{}), want: 0},
		{name: "Pod p2 doesn't tolerate taint on it's node, but other nodes are unschedulable",
			nodes: []*build.NodeBuilder{taint1("n1"), unschedulable("n4")}, pods: []dsPod{{tmpl: tol1}, {}, {tmpl: tol1}},
			profile: taintsProfile(true, model.NodeTaintsArgs{}), want: 0},
		{name: "Pods not tolerating PreferNoSchedule node taint should not be evicted when not enabled", nodes: []*build.NodeBuilder{pns("n5")},
			pods: []dsPod{{tmpl: tol("testTaint0", "test0", model.PreferNoSchedule)}}, profile: def, want: 0},
		{name: "Pods not tolerating PreferNoSchedule node taint should be evicted when enabled", nodes: []*build.NodeBuilder{pns("n5")},
			pods:    []dsPod{{tmpl: tol("testTaint0", "test0", model.PreferNoSchedule)}},
			profile: taintsProfile(false, model.NodeTaintsArgs{IncludePreferNoSchedule: true}), want: 1},
		{name: "Pods not tolerating excluded node taints (by key) should not be evicted", nodes: []*build.NodeBuilder{taint1("n1")},
			pods: []dsPod{{}}, profile: taintsProfile(false, model.NodeTaintsArgs{ExcludedTaints: []string{"excludedTaint1", "testTaint1"}}), want: 0},
		{name: "Pods not tolerating excluded node taints (by key and value) should not be evicted", nodes: []*build.NodeBuilder{taint1("n1")},
			pods: []dsPod{{}}, profile: taintsProfile(false, model.NodeTaintsArgs{ExcludedTaints: []string{"testTaint1=test1"}}), want: 0},
		{name: "The excluded taint matches the key of node1's taint, but does not match the value", nodes: []*build.NodeBuilder{taint1("n1")},
			pods: []dsPod{{}}, profile: taintsProfile(false, model.NodeTaintsArgs{ExcludedTaints: []string{"testTaint1=test2"}}), want: 1},
		{name: "Critical and non critical pods, pods not tolerating node taint can't be evicted because the only available node does not have enough resources.",
			nodes:   []*build.NodeBuilder{taint1("n1"), build.Node().Name("n6").CPU(1).Mem(1).MaxPods(1).Taint("testTaint1", "test1", model.PreferNoSchedule)},
			pods:    []dsPod{{}},
			profile: model.DeschedulerProfile{Name: "taints", EvictSystemCriticalPods: true, NodeFit: true, Deschedule: def.Deschedule},
			want:    0},
		{name: "Pods tolerating included taints should not get evicted even with other taints present", nodes: []*build.NodeBuilder{both("n7")},
			pods: []dsPod{{tmpl: tol1}}, profile: taintsProfile(false, model.NodeTaintsArgs{IncludedTaints: []string{"testTaint1=test1"}}), want: 0},
		{name: "Pods not tolerating not included taints should not get evicted", nodes: []*build.NodeBuilder{taint1("n1")},
			pods:    []dsPod{{tmpl: tol1}, {}, {tmpl: tolX}},
			profile: taintsProfile(false, model.NodeTaintsArgs{IncludedTaints: []string{"testTaint2=test2"}}), want: 0},
		{name: "Pods tolerating includedTaint should not get evicted. Pods not tolerating includedTaints should get evicted",
			nodes: []*build.NodeBuilder{taint1("n1")}, pods: []dsPod{{tmpl: tol1}, {}, {tmpl: tol1}},
			profile: taintsProfile(false, model.NodeTaintsArgs{IncludedTaints: []string{"testTaint1=test1"}}), want: 1, wantPods: []int{2}},
		// addTolerationToPod replaces the tolerations: p15 keeps only
		// testingTaint1=testing1 and is the one evicted.
		{name: "Pods not tolerating all taints are evicted when includedTaints is empty", nodes: []*build.NodeBuilder{both("n7")},
			pods: []dsPod{{tmpl: tol1}, {tmpl: tol("testingTaint1", "testing1", model.NoSchedule)}}, profile: def, want: 1, wantPods: []int{2}},
		{name: "(model) NoExecute taints are not this plugin's", nodes: []*build.NodeBuilder{upstreamNode("n1").Taint("k", "v", model.NoExecute)},
			pods: []dsPod{{}}, profile: def, want: 0},
		{name: "(model) nodeFit: the only other node holds a pod the anti-affinity keeps it from",
			nodes: []*build.NodeBuilder{taint1("n1"), upstreamNode("n2")},
			pods: []dsPod{{node: 0, tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder {
				return tb.Label("app", "web").PodAntiAffinity(model.HostnameKey, "app", "web")
			}}, {node: 1, tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Label("app", "web") }}},
			profile: taintsProfile(true, model.NodeTaintsArgs{}), want: 0},
		{name: "(model) nodeFit: the other node's pod does not match the anti-affinity",
			nodes: []*build.NodeBuilder{taint1("n1"), upstreamNode("n2")},
			pods: []dsPod{{node: 0, tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder {
				return tb.Label("app", "web").PodAntiAffinity(model.HostnameKey, "app", "web")
			}}, {node: 1, tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Label("app", "db") }}},
			profile: taintsProfile(true, model.NodeTaintsArgs{}), want: 1, wantPods: []int{1}},
		{name: "(model) pods of a node that is not Ready are not listed", nodes: []*build.NodeBuilder{taint1("n1"), upstreamNode("n2")},
			notReady: []int{0}, pods: []dsPod{{}}, profile: def, want: 0},
	}
	runDsCases(t, cases)
}

func affinityProfile(nodeFit bool, types ...model.NodeAffinityType) model.DeschedulerProfile {
	return model.DeschedulerProfile{Name: "affinity", NodeFit: nodeFit, Deschedule: model.DescheduleConfig{
		Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeAffinity}, NodeAffinityType: types}}
}

func TestRemovePodsViolatingNodeAffinityUpstream(t *testing.T) {
	const key, val = "kubernetes.io/desiredNode", "yes"
	withLabels := func() *build.NodeBuilder { return upstreamNode("nodeWithLabels").Label(key, val) }
	withoutLabels := func() *build.NodeBuilder { return upstreamNode("nodeWithoutLabels") }
	unschedulableWithLabels := func() *build.NodeBuilder {
		return upstreamNode("unschedulableNodeWithLabels").Label(key, val).Taint("node.kubernetes.io/unschedulable", "", model.NoSchedule)
	}
	req, pref := model.RequiredDuringSchedulingIgnoredDuringExecution, model.PreferredDuringSchedulingIgnoredDuringExecution
	// addPodsToNode: the pod with node affinity, then pod1 and pod2.
	podsOn := func(node int, typ model.NodeAffinityType, terminating bool) []dsPod {
		aff := func(tb *build.TemplateBuilder) *build.TemplateBuilder {
			if typ == req {
				return tb.Required(key, val)
			}
			return tb.Preferred(10, key, val)
		}
		return []dsPod{{node: node, tmpl: aff, terminating: terminating}, {node: node, terminating: terminating}, {node: node, terminating: terminating}}
	}
	var cases []dsCase
	for _, typ := range []model.NodeAffinityType{req, pref} {
		tag := map[model.NodeAffinityType]string{req: " [required affinity]", pref: " [preferred affinity]"}[typ]
		cases = append(cases,
			dsCase{name: "Pod is correctly scheduled on node, no eviction expected" + tag, nodes: []*build.NodeBuilder{withLabels()},
				pods: podsOn(0, typ, false), profile: affinityProfile(false, typ), want: 0},
			dsCase{name: "Pod is scheduled on node without matching labels, another schedulable node available, should be evicted" + tag,
				nodes: []*build.NodeBuilder{withoutLabels(), withLabels()}, pods: podsOn(0, typ, false), profile: affinityProfile(false, typ),
				want: 1, wantPods: []int{1}},
			dsCase{name: "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode set to 1, should be evicted" + tag,
				nodes: []*build.NodeBuilder{withoutLabels(), withLabels()}, pods: podsOn(0, typ, false), profile: affinityProfile(false, typ),
				limits: [3]int{1, 0, 0}, want: 1},
			dsCase{name: "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode set to 1, no pod evicted since pod terminating" + tag,
				nodes: []*build.NodeBuilder{withoutLabels(), withLabels()}, pods: podsOn(0, typ, true), profile: affinityProfile(false, typ),
				limits: [3]int{1, 0, 0}, want: 0},
			dsCase{name: "Pod is scheduled on node without matching labels, another schedulable node available, maxNoOfPodsToEvictPerNamespace set to 1, should be evicted" + tag,
				nodes: []*build.NodeBuilder{withoutLabels(), withLabels()}, pods: podsOn(0, typ, false), profile: affinityProfile(false, typ),
				limits: [3]int{0, 1, 0}, want: 1},
			dsCase{name: "Pod is scheduled on node without matching labels, another schedulable node available, maxNoOfPodsToEvictPerNamespace set to 1, no pod evicted since pod terminting" + tag,
				nodes: []*build.NodeBuilder{withoutLabels(), withLabels()}, pods: podsOn(0, typ, true), profile: affinityProfile(false, typ),
				limits: [3]int{0, 1, 0}, want: 0},
			dsCase{name: "Pod is scheduled on node without matching labels, but no node where pod fits is available, should not evict" + tag,
				nodes: []*build.NodeBuilder{withoutLabels(), unschedulableWithLabels()}, pods: podsOn(0, typ, false), profile: affinityProfile(true, typ),
				want: 0},
			dsCase{name: "Pod is scheduled on node without matching labels, and unschedulable node where pod could fit is available, should not evict" + tag,
				nodes:    []*build.NodeBuilder{withLabels(), unschedulableWithLabels(), withoutLabels()},
				notReady: []int{2}, pods: podsOn(2, typ, false), profile: affinityProfile(true, typ), limits: [3]int{1, 0, 0}, want: 0},
		)
	}
	cases = append(cases,
		dsCase{name: "(model) required: the plugin's own PodFitsAnyNode needs room on a matching node, nodeFit or not",
			nodes: []*build.NodeBuilder{withoutLabels(), build.Node().Name("full").CPU(100).Mem(3000).MaxPods(10).Label(key, val)},
			pods: []dsPod{{node: 0, tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Required(key, val) }},
				{node: 1}}, profile: affinityProfile(false, req), want: 0},
		dsCase{name: "(model) required: a matching node with room is enough",
			nodes: []*build.NodeBuilder{withoutLabels(), build.Node().Name("roomy").CPU(200).Mem(3000).MaxPods(10).Label(key, val)},
			pods: []dsPod{{node: 0, tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Required(key, val) }},
				{node: 1}}, profile: affinityProfile(false, req), want: 1, wantPods: []int{1}},
		dsCase{name: "(model) a nodeSelector alone is not required node affinity",
			nodes:   []*build.NodeBuilder{withoutLabels(), withLabels()},
			pods:    []dsPod{{tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.NodeSelector(key, val) }}},
			profile: affinityProfile(false, req), want: 0},
		dsCase{name: "(model) without nodeFit the pod's own node counts for PodFitsAnyNode: preferred evicts although the better node is full",
			nodes: []*build.NodeBuilder{withoutLabels(), build.Node().Name("full").CPU(100).Mem(3000).MaxPods(10).Label(key, val)},
			pods: []dsPod{{node: 0, tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Preferred(10, key, val) }},
				{node: 1}}, profile: affinityProfile(false, pref), want: 1, wantPods: []int{1}},
		dsCase{name: "(model) with nodeFit a third node with room is enough: the better node stays full",
			nodes: []*build.NodeBuilder{withoutLabels(), build.Node().Name("full").CPU(100).Mem(3000).MaxPods(10).Label(key, val), upstreamNode("other")},
			pods: []dsPod{{node: 0, tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Preferred(10, key, val) }},
				{node: 1}}, profile: affinityProfile(true, pref), want: 1, wantPods: []int{1}},
		dsCase{name: "(model) both passes evict a pod once",
			nodes: []*build.NodeBuilder{withoutLabels(), withLabels()},
			pods: []dsPod{{tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder {
				return tb.Required(key, val).Preferred(10, key, val)
			}}}, profile: affinityProfile(false, req, pref), want: 1},
	)
	runDsCases(t, cases)
}

func antiProfile(nodeFit bool) model.DeschedulerProfile {
	return model.DeschedulerProfile{Name: "anti", NodeFit: nodeFit, Deschedule: model.DescheduleConfig{
		Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}}}
}

func TestRemovePodsViolatingInterPodAntiAffinityUpstream(t *testing.T) {
	node1 := func() *build.NodeBuilder { return upstreamNode("n1").Label("region", "main-region") }
	anti := func(k, v string) func(*build.TemplateBuilder) *build.TemplateBuilder {
		return func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.PodAntiAffinity("region", k, v) }
	}
	fooBar := func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Label("foo", "bar") }
	nonEvict := dsPod{tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Critical().Label("foo", "bar") }, bare: true}
	four := []dsPod{{tmpl: anti("foo", "bar")}, {tmpl: fooBar}, {tmpl: anti("foo", "bar")}, {tmpl: anti("foo", "bar")}}
	west := dsPod{tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.NodeSelector("datacenter", "west") }, bare: true}
	cases := []dsCase{
		{name: "Maximum pods to evict - 0", nodes: []*build.NodeBuilder{node1()}, pods: four, profile: antiProfile(false), want: 3, wantPods: []int{1, 3, 4}},
		{name: "Maximum pods to evict - 3", nodes: []*build.NodeBuilder{node1()}, pods: four, profile: antiProfile(false), limits: [3]int{3, 0, 0}, want: 3},
		{name: "Maximum pods to evict (maxPodsToEvictPerNamespace=3) - 3", nodes: []*build.NodeBuilder{node1()}, pods: four,
			profile: antiProfile(false), limits: [3]int{0, 3, 0}, want: 3},
		{name: "Maximum pods to evict (maxNoOfPodsToEvictTotal)", nodes: []*build.NodeBuilder{node1()}, pods: four,
			profile: antiProfile(false), limits: [3]int{0, 3, 1}, want: 1},
		{name: "Evicts pod that conflicts with critical pod (but does not evict critical pod)", nodes: []*build.NodeBuilder{node1()},
			pods: []dsPod{{tmpl: anti("foo", "bar")}, nonEvict}, profile: antiProfile(false), limits: [3]int{1, 0, 0}, want: 1, wantPods: []int{1}},
		{name: "Won't evict pods because node selectors don't match available nodes",
			nodes: []*build.NodeBuilder{node1(), upstreamNode("n2").Label("datacenter", "east")},
			pods:  []dsPod{west, nonEvict}, profile: antiProfile(true), limits: [3]int{1, 0, 0}, want: 0},
		{name: "Won't evict pods because only other node is not schedulable",
			nodes: []*build.NodeBuilder{node1(), upstreamNode("n3").Taint("node.kubernetes.io/unschedulable", "", model.NoSchedule)},
			pods:  []dsPod{west, nonEvict}, profile: antiProfile(true), limits: [3]int{1, 0, 0}, want: 0},
		{name: "No pod to evicted since all pod terminating", nodes: []*build.NodeBuilder{node1()},
			pods: []dsPod{{tmpl: anti("foo", "bar"), terminating: true}, {tmpl: anti("foo", "bar"), terminating: true}}, profile: antiProfile(false), want: 0},
		{name: "Won't evict pods because only other node doesn't have enough resources",
			nodes: []*build.NodeBuilder{node1(), build.Node().Name("n4").CPU(2).Mem(2).MaxPods(1)}, pods: four,
			profile: antiProfile(true), limits: [3]int{3, 0, 0}, want: 0},
		{name: "Evict pod violating anti-affinity among different node (all pods have anti-affinity)",
			nodes: []*build.NodeBuilder{node1(), build.Node().Name("n5").CPU(200).Mem(3000).MaxPods(10).Label("region", "main-region")},
			pods:  []dsPod{{node: 0, tmpl: anti("foo", "bar")}, {node: 1, tmpl: fooBar}}, profile: antiProfile(false), want: 1, wantPods: []int{1}},
		{name: "(model) a terminating pod still counts against the others", nodes: []*build.NodeBuilder{node1()},
			pods: []dsPod{{tmpl: anti("foo", "bar")}, {tmpl: fooBar, terminating: true}}, profile: antiProfile(false), want: 1, wantPods: []int{1}},
		{name: "(model) two pods on one node share a domain although the node lacks the key", nodes: []*build.NodeBuilder{upstreamNode("n1"), upstreamNode("n2")},
			pods: []dsPod{{tmpl: anti("foo", "bar")}, {tmpl: fooBar}}, profile: antiProfile(false), want: 1},
		{name: "(model) pods on two nodes without the key do not", nodes: []*build.NodeBuilder{upstreamNode("n1"), upstreamNode("n2")},
			pods: []dsPod{{node: 0, tmpl: anti("foo", "bar")}, {node: 1, tmpl: fooBar}}, profile: antiProfile(false), want: 0},
		{name: "(model) BestEffort pods go first: the conflicting BestEffort pod is evicted and the other one stays",
			nodes: []*build.NodeBuilder{node1()},
			pods: []dsPod{{tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder {
				return fooBar(tb).PodAntiAffinity("region", "foo", "bar")
			}},
				{tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder {
					return fooBar(tb).PodAntiAffinity("region", "foo", "bar").Requests(0, 0)
				}}},
			profile: antiProfile(false), want: 1, wantPods: []int{2}},
	}
	runDsCases(t, cases)
}

// TestAntiAffinityOrderBranches is upstream's "Evict only 1 pod after
// sorting": p5 and p6 (foo=bar, anti-affinity to foo1=bar1) and p7
// (foo1=bar1, anti-affinity to foo=bar) all conflict. Upstream evicts p7,
// the lowest priority, and then neither p5 nor p6 conflicts with anyone
// (TestEvictOnlyOnePodAfterSortingUpstream). Here the three have one
// priority, and the model branches over which conflicting pod goes
// first: p7 alone, or one of p5, p6 and then one of the remaining pair.
func TestAntiAffinityOrderBranches(t *testing.T) {
	lbl := func(k, v, ak, av string) func(*build.TemplateBuilder) *build.TemplateBuilder {
		return func(tb *build.TemplateBuilder) *build.TemplateBuilder {
			return tb.Label(k, v).PodAntiAffinity("region", ak, av)
		}
	}
	tc := dsCase{nodes: []*build.NodeBuilder{upstreamNode("n1").Label("region", "main-region"), upstreamNode("n2")},
		pods:    []dsPod{{tmpl: lbl("foo", "bar", "foo1", "bar1")}, {tmpl: lbl("foo", "bar", "foo1", "bar1")}, {tmpl: lbl("foo1", "bar1", "foo", "bar")}},
		profile: antiProfile(false)}
	u, s := tc.build()
	outcomes := map[string]bool{}
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	n := 0
	for {
		next := s.Clone()
		newCycle(u, next, tx, nil).runDeschedule()
		outcomes[fmt.Sprint(evictedBy(s, next))] = true
		n++
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	if n != 5 || len(outcomes) != 4 || !outcomes["[3]"] || !outcomes["[1 2]"] || !outcomes["[1 3]"] || !outcomes["[2 3]"] {
		t.Errorf("%d branches, outcomes %v; want 5 branches and [3], [1 2], [1 3], [2 3]", n, outcomes)
	}
	// Three pods each conflicting with a pod that stays (upstream's
	// "Maximum pods to evict - 0") all go whatever the order: no branch.
	fooBar := func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Label("foo", "bar") }
	anti := func(tb *build.TemplateBuilder) *build.TemplateBuilder {
		return tb.PodAntiAffinity("region", "foo", "bar")
	}
	tc = dsCase{nodes: []*build.NodeBuilder{upstreamNode("n1").Label("region", "main-region"), upstreamNode("n2")},
		pods: []dsPod{{tmpl: anti}, {tmpl: fooBar}, {tmpl: anti}, {tmpl: anti}}, profile: antiProfile(false)}
	u, s = tc.build()
	if got := branches(u, s); got != 1 {
		t.Errorf("three pods anchored to a pod that stays: %d branches, want 1", got)
	}
	// Two identical pods conflicting with each other are one choice.
	b := build.New()
	b.AddNodes(2, build.Node())
	d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web").PodAntiAffinity("zone", "app", "web")), 2)
	b.RunPod(d, 0).RunPod(d, 0)
	b.U.Descheduler = policy(antiProfile(false))
	u, s = b.MustBuild()
	s.DeschedulerPending = true
	if got := branches(u, s); got != 1 {
		t.Errorf("two identical conflicting pods: %d branches, want 1", got)
	}
}

// TestDeschedulePluginFilters: a deschedule plugin lists only the pods
// its own namespaces and labelSelector args admit (model.PodFilter), as
// upstream's podutil filter does: on a tainted node only the admitted
// pods not tolerating the taint are evicted.
func TestDeschedulePluginFilters(t *testing.T) {
	node := func() *build.NodeBuilder { return upstreamNode("n1").Taint("testTaint1", "test1", model.NoSchedule) }
	in := func(ns, app string) func(*build.TemplateBuilder) *build.TemplateBuilder {
		return func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Namespace(ns).Label("app", app) }
	}
	pods := []dsPod{{tmpl: in("a", "web")}, {tmpl: in("b", "web")}, {tmpl: in("a", "batch")}}
	profile := func(f model.PodFilter) model.DeschedulerProfile {
		p := taintsProfile(false, model.NodeTaintsArgs{})
		p.Deschedule.NodeTaintsFilter = f
		return p
	}
	runDsCases(t, []dsCase{
		{name: "no filter", nodes: []*build.NodeBuilder{node()}, pods: pods, profile: profile(model.PodFilter{}), want: 3},
		{name: "namespaces include a", nodes: []*build.NodeBuilder{node()}, pods: pods,
			profile: profile(model.PodFilter{IncludeNamespaces: []string{"a"}}), want: 2, wantPods: []int{1, 3}},
		{name: "namespaces exclude a", nodes: []*build.NodeBuilder{node()}, pods: pods,
			profile: profile(model.PodFilter{ExcludeNamespaces: []string{"a"}}), want: 1, wantPods: []int{2}},
		{name: "labelSelector app=web", nodes: []*build.NodeBuilder{node()}, pods: pods,
			profile: profile(model.PodFilter{LabelSelector: &model.Selector{MatchLabels: map[string]string{"app": "web"}}}), want: 2, wantPods: []int{1, 2}},
		{name: "labelSelector app NotIn web, namespace a", nodes: []*build.NodeBuilder{node()}, pods: pods,
			profile: profile(model.PodFilter{IncludeNamespaces: []string{"a"}, LabelSelector: &model.Selector{MatchExpressions: []model.Requirement{{Key: "app", Operator: model.OpNotIn, Values: []string{"web"}}}}}),
			want:    1, wantPods: []int{3}},
	})
}
