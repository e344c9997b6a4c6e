package descheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
)

// TestEvictOnlyOnePodAfterSortingUpstream is the row "Evict only 1 pod
// after sorting" of sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/removepodsviolatinginterpodantiaffinity/pod_antiaffinity_test.go,
// TestPodAntiAffinity: p5 and p6 (foo=bar, anti-affinity to foo1=bar1,
// priorities 100 and 50) and p7 (foo1=bar1, anti-affinity to foo=bar,
// priority 0) all conflict on n1. The node's pods are sorted by priority,
// lowest first: p7 goes, and then neither p5 nor p6 conflicts with
// anyone. (Without priorities the order is branched over:
// TestAntiAffinityOrderBranches.) The table's other rows are in
// deschedule_test.go (TestRemovePodsViolatingInterPodAntiAffinityUpstream);
// its second "Evicts pod that conflicts with critical pod" row repeats the
// first.
func TestEvictOnlyOnePodAfterSortingUpstream(t *testing.T) {
	pod := func(k, v, ak, av string, prio int32) dsPod {
		return dsPod{tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder {
			return tb.Label(k, v).PodAntiAffinity("region", ak, av).Priority(prio)
		}}
	}
	tc := dsCase{name: "Evict only 1 pod after sorting", nodes: []*build.NodeBuilder{upstreamNode("n1").Label("region", "main-region")},
		pods:    []dsPod{pod("foo", "bar", "foo1", "bar1", 100), pod("foo", "bar", "foo1", "bar1", 50), pod("foo1", "bar1", "foo", "bar", 0)},
		profile: antiProfile(false), want: 1, wantPods: []int{3}}
	runDsCases(t, []dsCase{tc})
	u, s := tc.build()
	if got := branches(u, s); got != 1 {
		t.Errorf("%d branches, want 1: the priorities fix the order", got)
	}
}
