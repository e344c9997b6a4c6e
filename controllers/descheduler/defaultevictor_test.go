package descheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// evictorCase is one row of sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/defaultevictor/defaultevictor_test.go: is pod p1
// (slot 0, on node1) evictable? Upstream's pods request 100 mCPU and its
// nodes have 2000 mCPU, 3000 memory and 10 pods unless a row says
// otherwise. The model has no mirror or static pods and no DaemonSets:
// the rows that turn on them are left out (see the tests).
type evictorCase struct {
	name string
	// owner: "rs" (a ReplicaSet's, through a Deployment), "sts" (a
	// StatefulSet's) or "bare" (no owner).
	owner  string
	failed bool
	tmpl   func(*model.PodTemplate)
	// nodes besides node1; others are pods on them (node index into the
	// full list, node1 being 0).
	nodes   []*build.NodeBuilder
	others  []otherPod
	profile model.DeschedulerProfile
	// more adds to the cluster after p1 runs (d: p1's workload, t: its
	// template): more pods, budgets, namespaces.
	more func(b *build.Builder, d, t int)
	want bool
}

type otherPod struct {
	node     int
	cpu, mem int64
}

func (tc evictorCase) build() (*model.Universe, *model.State) {
	b := build.New()
	b.AddNodes(1, upstreamNode("node1"))
	for _, nb := range tc.nodes {
		b.AddNodes(1, nb)
	}
	t := b.AddTemplate(build.Template("p1").Requests(100, 0))
	if tc.tmpl != nil {
		tc.tmpl(&b.U.Templates[t])
	}
	var d int
	if tc.owner == "sts" {
		d = b.AddStatefulSet("p1", t, 1)
	} else {
		d = b.AddDeployment("p1", t, 1)
	}
	b.RunPod(d, 0)
	if tc.more != nil {
		tc.more(b, d, t)
	}
	for i, o := range tc.others {
		od := b.AddDeployment("other"+string(rune('a'+i)), b.AddTemplate(build.Template("other"+string(rune('a'+i))).Requests(o.cpu, o.mem)), 1)
		b.RunPod(od, o.node)
	}
	b.U.Descheduler = policy(tc.profile)
	u, s := b.MustBuild()
	if tc.owner == "bare" {
		s.Pods[0].Owner = 0
	}
	if tc.failed {
		s.Pods[0].Phase = model.Failed
	}
	return u, s
}

// TestDefaultEvictorFilterUpstream: TestDefaultEvictorFilter's rows, the
// DefaultEvictor's Filter (cycle.filterAnyPhase, the Filter every plugin
// applies, Failed pods included).
//
// The rows on the descheduler's annotations, minReplicas, minPodAge and
// ignorePodsWithoutPDB are in TestDefaultEvictorConstraintsUpstream
// (evictorconstraints_test.go). Left out, with what covers them in
// docs/divergences.md:
//   - "Pod not evicted because it is part of a daemonSet" and "… a mirror
//     pod": no DaemonSets or mirror pods in the model (bare pods stand for
//     them in the plugin tables; "System-critical pods and
//     priorityThreshold");
//   - the podProtections rows (DefaultDisabled, ExtraEnabled, storage
//     classes, resource claims): podProtections is read into the same
//     profile fields as the legacy booleans (inputs/manifest
//     TestPodProtections; row "DefaultEvictor `podProtections`").
func TestDefaultEvictorFilterUpstream(t *testing.T) {
	const low, high = int32(800), int32(900)
	lowP := low
	prio := func(p int32) func(*model.PodTemplate) {
		return func(t *model.PodTemplate) { t.Priority = p }
	}
	local := func(t *model.PodTemplate) { t.LocalStorage = true }
	pvc := func(t *model.PodTemplate) { t.PVC = true }
	taint := func(name string) *build.NodeBuilder {
		return upstreamNode(name).Taint("hardware", "gpu", model.NoSchedule)
	}
	cases := []evictorCase{
		{name: "Failed pod eviction with no ownerRefs", owner: "bare", failed: true, want: false},
		{name: "Normal pod eviction with no ownerRefs and evictFailedBarePods enabled", owner: "bare",
			profile: model.DeschedulerProfile{EvictFailedBarePods: true}, want: false},
		{name: "Failed pod eviction with no ownerRefs (evictFailedBarePods)", owner: "bare", failed: true,
			profile: model.DeschedulerProfile{EvictFailedBarePods: true}, want: true},
		{name: "Normal pod eviction with normal ownerRefs", owner: "rs", want: true},
		{name: "Normal pod eviction with replicaSet ownerRefs", owner: "rs", want: true},
		{name: "Normal pod eviction with statefulSet ownerRefs", owner: "sts", want: true},
		{name: "Pod not evicted because it is bound to a PV and evictLocalStoragePods = false", owner: "rs", tmpl: local, want: false},
		{name: "Pod is evicted because it is bound to a PV and evictLocalStoragePods = true", owner: "rs", tmpl: local,
			profile: model.DeschedulerProfile{EvictLocalStoragePods: true}, want: true},
		{name: "Pod not evicted because it has system critical priority", owner: "rs", tmpl: prio(model.SystemCriticalPriority), want: false},
		{name: "Pod not evicted because it has a priority higher than the configured priority threshold", owner: "rs", tmpl: prio(high),
			profile: model.DeschedulerProfile{PriorityThreshold: &lowP}, want: false},
		{name: "Pod is evicted because it has system critical priority, but evictSystemCriticalPods = true", owner: "rs",
			tmpl: prio(model.SystemCriticalPriority), profile: model.DeschedulerProfile{EvictSystemCriticalPods: true}, want: true},
		{name: "Pod is evicted because it has a priority higher than the configured priority threshold, but evictSystemCriticalPods = true",
			owner: "rs", tmpl: prio(high), profile: model.DeschedulerProfile{EvictSystemCriticalPods: true, PriorityThreshold: &lowP}, want: true},
		{name: "Pod with no tolerations running on normal node, all other nodes tainted, no PreEvictionFilter, should ignore nodeFit",
			owner: "rs", nodes: []*build.NodeBuilder{taint("node2"), taint("node3")}, profile: model.DeschedulerProfile{NodeFit: true}, want: true},
		{name: "ignorePvcPods is set, pod with PVC, not evicts", owner: "rs", tmpl: pvc,
			profile: model.DeschedulerProfile{IgnorePvcPods: true}, want: false},
		{name: "ignorePvcPods is not set, pod with PVC, evicts", owner: "rs", tmpl: pvc, want: true},
		{name: "(model) a priority below the threshold is evictable", owner: "rs", tmpl: prio(low - 1),
			profile: model.DeschedulerProfile{PriorityThreshold: &lowP}, want: true},
		{name: "(model) a priority equal to the threshold is protected", owner: "rs", tmpl: prio(low),
			profile: model.DeschedulerProfile{PriorityThreshold: &lowP}, want: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			c := newCycle(u, s, nil, nil)
			if got := c.filterAnyPhase(&u.Descheduler.Profiles[0], 0); got != tc.want {
				t.Errorf("Filter: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDefaultEvictorPreEvictionFilterUpstream: the rows of
// TestDefaultEvictorPreEvictionFilter (nodeFit: can p1 go to one of the
// other nodes?). Upstream's byte-sized memory is restated in MiB (the
// model's unit). The two namespaceLabelSelector rows are in
// TestDefaultEvictorNamespaceSelectorUpstream.
func TestDefaultEvictorPreEvictionFilterUpstream(t *testing.T) {
	const mib = 1 // the model's memory unit
	taint := func(name string) *build.NodeBuilder {
		return upstreamNode(name).Taint("hardware", "gpu", model.NoSchedule)
	}
	east := func(name string) *build.NodeBuilder { return upstreamNode(name).Label("datacenter", "east") }
	selector := func(v string) func(*model.PodTemplate) {
		return func(t *model.PodTemplate) { t.NodeSelector = map[string]string{"datacenter": v} }
	}
	small := func(name string, cpu, mem int64) *build.NodeBuilder {
		return build.Node().Name(name).CPU(cpu).Mem(mem*mib).MaxPods(10).Label("datacenter", "east")
	}
	big := func(t *model.PodTemplate) { selector("east")(t); t.CPU, t.Memory = 12, 8*mib }
	nodeFit := model.DeschedulerProfile{NodeFit: true}
	cases := []evictorCase{
		{name: "Pod with no tolerations running on normal node, all other nodes tainted",
			nodes: []*build.NodeBuilder{taint("node2"), taint("node3")}, profile: nodeFit, want: false},
		{name: "Pod with correct tolerations running on normal node, all other nodes tainted",
			tmpl: func(t *model.PodTemplate) {
				t.Tolerations = append(t.Tolerations, model.Toleration{Key: "hardware", Value: "gpu", Effect: model.NoSchedule})
			},
			nodes: []*build.NodeBuilder{taint("node2"), taint("node3")}, profile: nodeFit, want: true},
		{name: "Pod with incorrect node selector", tmpl: selector("fail"),
			nodes: []*build.NodeBuilder{east("node2"), east("node3")}, profile: nodeFit, want: false},
		{name: "Pod with correct node selector", tmpl: selector("east"),
			nodes: []*build.NodeBuilder{east("node2"), east("node3")}, profile: nodeFit, want: true},
		{name: "Pod with correct node selector, but only available node doesn't have enough CPU", tmpl: big,
			nodes: []*build.NodeBuilder{small("node2-TEST", 10, 16), small("node3-TEST", 10, 16)}, profile: nodeFit, want: false},
		{name: "Pod with correct node selector, and one node has enough memory", tmpl: big,
			nodes:  []*build.NodeBuilder{small("node2", 100, 16), small("node3", 100, 20)},
			others: []otherPod{{1, 20, 10 * mib}, {2, 20, 10 * mib}}, profile: nodeFit, want: true},
		{name: "Pod with correct node selector, but both nodes don't have enough memory", tmpl: big,
			nodes:  []*build.NodeBuilder{small("node2", 100, 16), small("node3", 100, 16)},
			others: []otherPod{{1, 10, 10 * mib}, {2, 10, 10 * mib}}, profile: nodeFit, want: false},
		{name: "Pod with incorrect node selector, but nodefit false, should still be evicted", tmpl: selector("fail"),
			nodes: []*build.NodeBuilder{east("node2"), east("node3")}, want: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.owner = "rs"
			u, s := tc.build()
			c := newCycle(u, s, nil, nil)
			p := &u.Descheduler.Profiles[0]
			if got := c.filterAnyPhase(p, 0) && c.preEvictionFilter(p, 0); got != tc.want {
				t.Errorf("Filter and PreEvictionFilter: %v, want %v", got, tc.want)
			}
		})
	}
}
