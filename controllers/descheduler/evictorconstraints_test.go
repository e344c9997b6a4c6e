package descheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestDefaultEvictorConstraintsUpstream: the rows of upstream's
// TestDefaultEvictorFilter (defaultevictor_test.go, descheduler v0.36)
// on the evict and prefer-no-eviction annotations, minReplicas,
// minPodAge and the PodsWithoutPDB protection, then rows of the model's
// own on what it reads differently (no clock, ReplicaSets as owners).
//
// Left out: the DaemonSet and mirror-pod rows with the evict annotation
// (no such pods in the model); "minReplicas of 2, multiple owners" (the
// model's pods have one owner); "minPodAge of 50, pod created 10 minutes
// ago, no eviction" (no clock: a started pod is taken as old enough,
// docs/divergences.md "DefaultEvictor minPodAge").
func TestDefaultEvictorConstraintsUpstream(t *testing.T) {
	evict := func(t *model.PodTemplate) { t.DeschedulerEvict = true }
	preferNo := func(t *model.PodTemplate) { t.PreferNoEviction = true }
	with := func(fs ...func(*model.PodTemplate)) func(*model.PodTemplate) {
		return func(t *model.PodTemplate) {
			for _, f := range fs {
				f(t)
			}
		}
	}
	prio := func(p int32) func(*model.PodTemplate) { return func(t *model.PodTemplate) { t.Priority = p } }
	local := func(t *model.PodTemplate) { t.LocalStorage = true }
	app := func(v string) func(*model.PodTemplate) {
		return func(t *model.PodTemplate) { t.Labels = map[string]string{"app": v} }
	}
	const low, high = int32(800), int32(900)
	lowP := low
	secondPod := func(b *build.Builder, d, _ int) { b.RunPod(d, 0) }
	pendingPod := func(b *build.Builder, d, _ int) { b.PendingPod(d, 0) }
	budget := func(v string) func(b *build.Builder, _, _ int) {
		return func(b *build.Builder, _, _ int) {
			b.U.PDBs = append(b.U.PDBs, model.PodDisruptionBudget{Name: "pdb1", Selector: &model.Selector{MatchLabels: map[string]string{"app": v}},
				MaxUnavailable: &model.IntOrPercent{Value: 1}})
		}
	}
	minPodAge := model.DeschedulerProfile{Evictor: model.EvictorConstraints{MinPodAge: "50m"}}
	withoutPDB := model.DeschedulerProfile{Evictor: model.EvictorConstraints{PodsWithoutPDB: true}}
	cases := []evictorCase{
		{name: "Normal pod eviction with normal ownerRefs and descheduler.alpha.kubernetes.io/evict annotation", owner: "rs", tmpl: evict, want: true},
		{name: "Normal pod eviction with normal ownerRefs and descheduler.alpha.kubernetes.io/prefer-no-eviction annotation (preference)", owner: "rs", tmpl: preferNo,
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{NoEvictionPolicy: "Preferred"}}, want: true},
		{name: "Normal pod eviction with normal ownerRefs and descheduler.alpha.kubernetes.io/prefer-no-eviction annotation (mandatory)", owner: "rs", tmpl: preferNo,
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{NoEvictionPolicy: "Mandatory"}}, want: false},
		{name: "Normal pod eviction with replicaSet ownerRefs and descheduler.alpha.kubernetes.io/evict annotation", owner: "rs", tmpl: evict, want: true},
		{name: "Normal pod eviction with statefulSet ownerRefs and descheduler.alpha.kubernetes.io/evict annotation", owner: "sts", tmpl: evict, want: true},
		{name: "Pod is evicted because it is bound to a PV and evictLocalStoragePods = false, but it has scheduler.alpha.kubernetes.io/evict annotation",
			owner: "rs", tmpl: with(local, evict), want: true},
		{name: "Pod is evicted because it has system critical priority, but it has scheduler.alpha.kubernetes.io/evict annotation",
			owner: "rs", tmpl: with(prio(model.SystemCriticalPriority), evict), want: true},
		{name: "Pod is evicted because it has a priority higher than the configured priority threshold, but it has scheduler.alpha.kubernetes.io/evict annotation",
			owner: "rs", tmpl: with(prio(high), evict), profile: model.DeschedulerProfile{PriorityThreshold: &lowP}, want: true},
		{name: "Pod is evicted because it has system critical priority, but evictSystemCriticalPods = true and it has scheduler.alpha.kubernetes.io/evict annotation",
			owner: "rs", tmpl: with(prio(model.SystemCriticalPriority), evict), profile: model.DeschedulerProfile{EvictSystemCriticalPods: true}, want: true},
		{name: "Pod is evicted because it has a priority higher than the configured priority threshold, but evictSystemCriticalPods = true and it has scheduler.alpha.kubernetes.io/evict annotation",
			owner: "rs", tmpl: with(prio(high), evict), profile: model.DeschedulerProfile{EvictSystemCriticalPods: true, PriorityThreshold: &lowP}, want: true},
		{name: "minReplicas of 2, owner with 2 replicas, evicts", owner: "rs", more: secondPod,
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{MinReplicas: 2}}, want: true},
		{name: "minReplicas of 3, owner with 2 replicas, no eviction", owner: "rs", more: secondPod,
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{MinReplicas: 3}}, want: false},
		{name: "minPodAge of 50, pod created 60 minutes ago, evicts", owner: "rs", profile: minPodAge, want: true},
		{name: "nil minPodAge, pod created 60 minutes ago, evicts", owner: "rs", want: true},
		{name: "ignorePodsWithoutPDB, pod with no PDBs, no eviction", owner: "rs", tmpl: app("foo"), profile: withoutPDB, want: false},
		{name: "ignorePodsWithoutPDB, pod with PDBs, evicts", owner: "rs", tmpl: app("foo"), more: budget("foo"), profile: withoutPDB, want: true},
		{name: "Pod without PDB is not evicted because 'PodsWithoutPDB' is in ExtraEnabled", owner: "rs", profile: withoutPDB, want: false},

		{name: "(model) a budget of another app does not cover the pod", owner: "rs", tmpl: app("foo"), more: budget("bar"), profile: withoutPDB, want: false},
		{name: "(model) the evict annotation lifts PodsWithoutPDB", owner: "rs", tmpl: with(app("foo"), evict), profile: withoutPDB, want: true},
		{name: "(model) the evict annotation lifts the prefer-no-eviction annotation under Mandatory", owner: "rs", tmpl: with(preferNo, evict),
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{NoEvictionPolicy: "Mandatory"}}, want: true},
		{name: "(model) the evict annotation admits a bare pod", owner: "bare", tmpl: evict, want: true},
		{name: "(model) minPodAge: a started pod beside an unstarted one is old enough", owner: "rs", more: pendingPod, profile: minPodAge, want: true},
		{name: "(model) minReplicas counts a Pending pod of the owner", owner: "rs", more: pendingPod,
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{MinReplicas: 2}}, want: true},
		{name: "(model) minReplicas of a StatefulSet's pod counts the StatefulSet's pods", owner: "sts",
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{MinReplicas: 2}}, want: false},
		{name: "(model) labelSelector matching the pod's labels", owner: "rs", tmpl: app("foo"),
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{LabelSelector: &model.Selector{MatchLabels: map[string]string{"app": "foo"}}}}, want: true},
		{name: "(model) labelSelector not matching the pod's labels", owner: "rs", tmpl: app("foo"),
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{LabelSelector: &model.Selector{MatchLabels: map[string]string{"app": "bar"}}}}, want: false},
		{name: "(model) labelSelector NotIn the pod's value", owner: "rs", tmpl: app("foo"),
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{LabelSelector: &model.Selector{MatchExpressions: []model.Requirement{
				{Key: "app", Operator: model.OpNotIn, Values: []string{"foo"}}}}}}, want: false},
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

// TestMinPodAgeProtectsUnstartedPod: the pod the kubelet has not started
// (slot 1, Pending on node1) is refused under minPodAge, and admitted
// without it.
func TestMinPodAgeProtectsUnstartedPod(t *testing.T) {
	for _, tc := range []struct {
		age  string
		want bool
	}{{"", true}, {"50m", false}, {"0s", false}} {
		ec := evictorCase{owner: "rs", more: func(b *build.Builder, d, _ int) { b.PendingPod(d, 0) },
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{MinPodAge: tc.age}}}
		u, s := ec.build()
		if s.Pods[1].Phase != model.Pending || s.Pods[1].NodeOf() != 0 {
			t.Fatalf("slot 1: %+v, want a Pending pod on node1", s.Pods[1])
		}
		c := newCycle(u, s, nil, nil)
		if got := c.filter(&u.Descheduler.Profiles[0], 1); got != tc.want {
			t.Errorf("minPodAge %q: Filter of the unstarted pod %v, want %v", tc.age, got, tc.want)
		}
	}
}

// TestMinReplicasCountsEachReplicaSet: during a rollout a Deployment's
// pods belong to two ReplicaSets, and minReplicas counts the pod's own
// (upstream indexes pods by their ownerReference's UID).
func TestMinReplicasCountsEachReplicaSet(t *testing.T) {
	ec := evictorCase{owner: "rs", more: func(b *build.Builder, d, _ int) { b.RunPod(d, 0) },
		profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{MinReplicas: 2}}}
	u, s := ec.build()
	c := newCycle(u, s, nil, nil)
	if !c.filter(&u.Descheduler.Profiles[0], 0) {
		t.Fatal("two pods of one ReplicaSet: refused under minReplicas 2")
	}
	s.Pods[1].RS = 1
	c = newCycle(u, s, nil, nil)
	if c.filter(&u.Descheduler.Profiles[0], 0) {
		t.Error("one pod in each of two ReplicaSets: admitted under minReplicas 2")
	}
}

// TestDefaultEvictorNamespaceSelectorUpstream: the two namespaceLabelSelector
// rows of upstream's TestDefaultEvictorPreEvictionFilter (selector
// kubernetes.io/metadata.name: test, nodeFit on), and rows of the model's
// own where only the namespace decides.
func TestDefaultEvictorNamespaceSelectorUpstream(t *testing.T) {
	east := func(name string) *build.NodeBuilder { return upstreamNode(name).Label("datacenter", "east") }
	inNamespace := func(ns, dc string) func(*model.PodTemplate) {
		return func(t *model.PodTemplate) {
			t.Namespace = ns
			t.NodeSelector = map[string]string{"datacenter": dc}
		}
	}
	nsSel := &model.Selector{MatchLabels: map[string]string{model.NamespaceNameLabel: "test"}}
	profile := model.DeschedulerProfile{NodeFit: true, Evictor: model.EvictorConstraints{NamespaceLabelSelector: nsSel}}
	namespaces := func(b *build.Builder, _, _ int) {
		b.U.Namespaces = map[string]map[string]string{"default": nil, "test": {"env": "prod"}}
	}
	nodes := []*build.NodeBuilder{east("node2"), east("node3")}
	cases := []evictorCase{
		{name: "Pod with namespace matched namespace selector, should be evicted", tmpl: inNamespace("test", "east"), nodes: nodes, more: namespaces, profile: profile, want: true},
		{name: "Pod with namespace does not matched namespace selector, should not be evicted", tmpl: inNamespace("default", "fail"), nodes: nodes, more: namespaces, profile: profile, want: false},
		{name: "(model) a pod that fits elsewhere, of another namespace", tmpl: inNamespace("default", "east"), nodes: nodes, more: namespaces, profile: profile, want: false},
		{name: "(model) the namespace's own labels", tmpl: inNamespace("test", "east"), nodes: nodes, more: namespaces,
			profile: model.DeschedulerProfile{Evictor: model.EvictorConstraints{NamespaceLabelSelector: &model.Selector{MatchLabels: map[string]string{"env": "prod"}}}}, want: true},
		{name: "(model) the evict annotation does not lift the namespace selector (PreEvictionFilter)",
			tmpl: func(t *model.PodTemplate) { inNamespace("default", "east")(t); t.DeschedulerEvict = true }, nodes: nodes, more: namespaces, profile: profile, want: false},
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
