package descheduler

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// dupCase is one stanza transcribed from descheduler
// pkg/framework/plugins/removeduplicates/removeduplicates_test.go at v0.36
// (HEAD 7d2b28bf2): upstream nodes of 2000 mCPU / 3000 memory / 10 pods,
// pods requesting 100 mCPU, owned by ReplicaSets. Each owner is one
// deployment; pods[i] lists, per owner, the node of each of its pods.
type dupCase struct {
	name     string // upstream description
	nodes    []*build.NodeBuilder
	notReady []int // nodes left out of the cycle (upstream: not passed in)
	template func() *build.TemplateBuilder
	pods     [][]int
	profile  model.DeschedulerProfile
	edit     func(u *model.Universe, s *model.State)
	// tmplEdit changes the compiled-to-be template where the builder has
	// no method (matchExpressions).
	tmplEdit func(t *model.PodTemplate)
	want     int
	// wantPods, when set, are the evicted pods of the cycle's first branch
	// (choice 0: the lowest slots of identical pods; Kivi keeps the lowest
	// slot and evicts the next ones); upstream only asserts the count.
	wantPods []int
}

func upstreamNode(name string) *build.NodeBuilder {
	return build.Node().Name(name).CPU(2000).Mem(3000).MaxPods(10)
}

func upstreamPod() *build.TemplateBuilder {
	return build.Template("rs").Requests(100, 0).Label("app", "rs")
}

func nodesNamed(names ...string) []*build.NodeBuilder {
	var out []*build.NodeBuilder
	for _, n := range names {
		out = append(out, upstreamNode(n))
	}
	return out
}

func repeat(node, count int) []int {
	out := make([]int, count)
	for i := range out {
		out[i] = node
	}
	return out
}

func concat(parts ...[]int) []int {
	var out []int
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func (tc dupCase) build() (*model.Universe, *model.State) {
	b := build.New()
	for _, nb := range tc.nodes {
		b.AddNodes(1, nb)
	}
	tb := upstreamPod
	if tc.template != nil {
		tb = tc.template
	}
	for o, nodes := range tc.pods {
		tmpl := b.AddTemplate(tb())
		if tc.tmplEdit != nil {
			tc.tmplEdit(&b.U.Templates[tmpl])
		}
		d := b.AddDeployment(fmt.Sprintf("rs%d", o+1), tmpl, len(nodes))
		for _, n := range nodes {
			b.RunPod(d, n)
		}
	}
	b.U.Descheduler = policy(tc.profile)
	u, s := b.MustBuild()
	for _, n := range tc.notReady {
		s.Nodes[n].Status = model.NotReady
	}
	if tc.edit != nil {
		tc.edit(u, s)
	}
	s.DeschedulerPending = true
	return u, s
}

func TestRemoveDuplicatesUpstream(t *testing.T) {
	three := concat(repeat(0, 5), repeat(1, 3), repeat(2, 1)) // (5,3,1)
	cases := []dupCase{
		{name: "TestFindDuplicatePods: Three pods in the `dev` Namespace, bound to same ReplicaSet. 1 should be evicted.",
			nodes: nodesNamed("n1", "n2"), pods: [][]int{{0, 0, 0}}, profile: dupProfile(false), want: 1, wantPods: []int{1}},
		{name: "TestFindDuplicatePods: Pods are: ... critical pod annotation - none should be evicted.",
			nodes: nodesNamed("n1", "n2"), pods: [][]int{{0, 0, 0}}, profile: dupProfile(false),
			template: func() *build.TemplateBuilder { return upstreamPod().Critical() }, want: 0},
		{name: "(model) critical pods with evictSystemCriticalPods: 1 should be evicted",
			nodes: nodesNamed("n1", "n2"), pods: [][]int{{0, 0, 0}},
			profile:  model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemoveDuplicates}, EvictSystemCriticalPods: true},
			template: func() *build.TemplateBuilder { return upstreamPod().Critical() }, want: 1},
		{name: "(model) bare pods are protected (FailedBarePods): none should be evicted",
			nodes: nodesNamed("n1", "n2"), pods: [][]int{{0, 0, 0}}, profile: dupProfile(false),
			edit: func(u *model.Universe, s *model.State) {
				for i := range s.Pods {
					s.Pods[i].Owner = 0
				}
			}, want: 0},
		{name: "TestFindDuplicatePods: Pods with the same owner but different images should not be evicted",
			nodes: nodesNamed("n1", "n2"), pods: [][]int{{0, 0}, {}}, profile: dupProfile(false),
			edit: func(u *model.Universe, s *model.State) { s.Pods[1].Template = 1 }, want: 0},
		{name: "TestFindDuplicatePods: ... Only node available has a taint, and nodeFit set to true. 0 should be evicted.",
			nodes:   []*build.NodeBuilder{upstreamNode("n1"), upstreamNode("n3").Taint("hardware", "gpu", model.NoSchedule)},
			pods:    [][]int{{0, 0, 0}},
			profile: dupProfile(true), want: 0},
		{name: "TestFindDuplicatePods: ... Only node available has an incorrect node label, and nodeFit set to true. 0 should be evicted.",
			nodes:    []*build.NodeBuilder{upstreamNode("n1"), upstreamNode("n4").Label("datacenter", "east")},
			template: func() *build.TemplateBuilder { return upstreamPod().NodeSelector("datacenter", "west") },
			pods:     [][]int{{0, 0, 0}}, profile: dupProfile(true), want: 0},
		{name: "TestFindDuplicatePods: ... Only node available does not have enough CPU, and nodeFit set to true. 0 should be evicted.",
			nodes: []*build.NodeBuilder{upstreamNode("n1"), build.Node().Name("n6").CPU(200).Mem(200).MaxPods(10).Reserved(150, 150)},
			pods:  [][]int{{0, 0, 0}}, profile: dupProfile(true), want: 0},
		{name: "TestFindDuplicatePods: ... Only node available has enough CPU, and nodeFit set to true. 1 should be evicted.",
			nodes: []*build.NodeBuilder{upstreamNode("n1"), build.Node().Name("n6").CPU(200).Mem(200).MaxPods(10).Reserved(100, 150)},
			pods:  [][]int{{0, 0, 0}}, profile: dupProfile(true), want: 1},
		{name: "TestRemoveDuplicatesUniformly: Evict pods uniformly",
			nodes: nodesNamed("n1", "n2", "n3"), pods: [][]int{three}, profile: dupProfile(false), want: 2, wantPods: []int{1, 2}},
		{name: "TestRemoveDuplicatesUniformly: Evict pods uniformly with one node left out",
			nodes: nodesNamed("n1", "n2", "n3"), notReady: []int{2}, pods: [][]int{three}, profile: dupProfile(false), want: 1, wantPods: []int{1}},
		{name: "TestRemoveDuplicatesUniformly: Evict pods uniformly with two owner references",
			nodes: nodesNamed("n1", "n2", "n3"),
			pods:  [][]int{three, concat(repeat(0, 1), repeat(1, 3), repeat(2, 5))}, profile: dupProfile(false), want: 4,
			wantPods: []int{1, 2, 14, 15}},
		{name: "TestRemoveDuplicatesUniformly: Evict pods with number of pods less than nodes",
			nodes: nodesNamed("n1", "n2", "n3"), pods: [][]int{{0, 0}}, profile: dupProfile(false), want: 1, wantPods: []int{1}},
		{name: "TestRemoveDuplicatesUniformly: Evict pods with a single pod with three nodes",
			nodes: nodesNamed("n1", "n2", "n3"), pods: [][]int{{0}}, profile: dupProfile(false), want: 0},
		{name: "TestRemoveDuplicatesUniformly: Evict pods uniformly respecting taints",
			nodes: []*build.NodeBuilder{upstreamNode("worker1"), upstreamNode("worker2"), upstreamNode("worker3"),
				upstreamNode("master1").Taint("node-role.kubernetes.io/control-plane", "", model.NoSchedule),
				upstreamNode("master2").Taint("node-role.kubernetes.io/control-plane", "", model.NoSchedule),
				upstreamNode("master3").Taint("node-role.kubernetes.io/control-plane", "", model.NoSchedule)},
			template: func() *build.TemplateBuilder { return upstreamPod().Toleration("k1", "v1", model.NoSchedule) },
			pods:     [][]int{three}, profile: dupProfile(false), want: 2},
		{name: "TestRemoveDuplicatesUniformly: Evict pods uniformly respecting RequiredDuringSchedulingIgnoredDuringExecution node affinity",
			nodes: []*build.NodeBuilder{upstreamNode("worker1"), upstreamNode("worker2"), upstreamNode("worker3"),
				upstreamNode("master1").Label("node-role.kubernetes.io/control-plane", ""),
				upstreamNode("master2").Label("node-role.kubernetes.io/control-plane", ""),
				upstreamNode("master3").Label("node-role.kubernetes.io/control-plane", "")},
			pods: [][]int{three}, profile: dupProfile(false), want: 2,
			tmplEdit: func(t *model.PodTemplate) {
				t.Required = []model.Selector{{MatchExpressions: []model.Requirement{
					{Key: "node-role.kubernetes.io/control-plane", Operator: model.OpDoesNotExist},
					{Key: "k1", Operator: model.OpDoesNotExist}}}}
			}},
		{name: "TestRemoveDuplicatesUniformly: Evict pods uniformly respecting node selector",
			nodes: []*build.NodeBuilder{upstreamNode("worker1").Label("node-role.kubernetes.io/worker", "k2"),
				upstreamNode("worker2").Label("node-role.kubernetes.io/worker", "k2"), upstreamNode("worker3").Label("node-role.kubernetes.io/worker", "k2"),
				upstreamNode("master1"), upstreamNode("master2"), upstreamNode("master3")},
			template: func() *build.TemplateBuilder {
				return upstreamPod().NodeSelector("node-role.kubernetes.io/worker", "k2")
			},
			pods: [][]int{three}, profile: dupProfile(false), want: 2},
		{name: "TestRemoveDuplicatesUniformly: Evict pods uniformly respecting node selector with zero target nodes",
			nodes: nodesNamed("worker1", "worker2", "worker3", "master1", "master2", "master3"),
			template: func() *build.TemplateBuilder {
				return upstreamPod().NodeSelector("node-role.kubernetes.io/worker", "k2")
			},
			pods: [][]int{three}, profile: dupProfile(false), want: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			next, lines, _ := runCycle(t, u, s)
			got := evictedBy(s, next)
			if len(got) != tc.want {
				t.Errorf("evicted %v (%d), want %d\n%s", got, len(got), tc.want, Explain(u, s))
			}
			if tc.wantPods != nil && !equalInts(got, tc.wantPods) {
				t.Errorf("evicted %v, want %v", got, tc.wantPods)
			}
			// Every eviction prints the duplicate line, then the evictor's.
			if len(lines) != 2*len(got) {
				t.Errorf("trace %q: want two lines per eviction", lines)
			}
		})
	}
}

// TestTiedDuplicatesBranch: upstream keeps the first pods in listing
// (informer) order, which the model does not know, so the cycle branches
// over which of a node's pods go: identical pods are one choice, a pod
// with other usage is another (ties.go).
func TestTiedDuplicatesBranch(t *testing.T) {
	u, s := stacked(model.Descheduler{})
	if got := branches(u, s); got != 1 {
		t.Errorf("5 identical pods on n1, evict 2: %d branches, want 1", got)
	}
	s.Pods[2].CPU++ // pods 1,2,4,5 identical, pod 3 not
	if got := branches(u, s); got != 2 {
		t.Errorf("4+1 pods on n1, evict 2: %d branches, want 2 (two of the four, or one and pod 3)", got)
	}
	next, _, _ := runBranch(t, u, s, []int{1})
	if got := evictedBy(s, next); !equalInts(got, []int{1, 3}) {
		t.Errorf("second branch evicted %v, want [1 3]", got)
	}
}
