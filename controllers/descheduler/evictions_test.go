package descheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestNewPodEvictorUpstream restates the rows of sigs.k8s.io/descheduler@v0.36.0,
// pkg/descheduler/evictions/evictions_test.go, TestNewPodEvictor: one pod on
// one node, evicted under the three limits. The pod is driven to the evictor
// by RemovePodsViolatingNodeTaints (its node has a taint it does not
// tolerate). Upstream runs every row twice, with and without
// evictionFailureEventNotification; events are not modelled, so each pair is
// one row here. Left out: "eviction error …" (the fake API server fails the
// eviction; the model's Eviction API refuses only for a disruption budget,
// docs/divergences.md "PodDisruptionBudgets and the Eviction API") and
// "eviction with dryRun …" (dry runs are not modelled: the model checks what
// a real run does).
func TestNewPodEvictorUpstream(t *testing.T) {
	node := func() []*build.NodeBuilder {
		return []*build.NodeBuilder{upstreamNode("node").Taint("testTaint1", "test1", model.NoSchedule)}
	}
	def := taintsProfile(false, model.NodeTaintsArgs{})
	one := []dsPod{{}}
	runDsCases(t, []dsCase{
		{name: "one eviction expected with(out) eviction failure event notification", nodes: node(), pods: one, profile: def,
			limits: [3]int{1, 1, 1}, want: 1},
		{name: "eviction limit exceeded on total with(out) eviction failure event notification", nodes: node(), pods: one, profile: def,
			limits: [3]int{1, 1, 0}, zeroLimit: true, want: 0},
		{name: "eviction limit exceeded on node with(out) eviction failure event notification", nodes: node(), pods: one, profile: def,
			limits: [3]int{0, 1, 1}, zeroLimit: true, want: 0},
		// Upstream's second "… exceeded on node …" row sets the namespace limit to 0.
		{name: "eviction limit exceeded on node with(out) eviction failure event notification (maxPodsToEvictPerNamespace 0)",
			nodes: node(), pods: one, profile: def, limits: [3]int{1, 0, 1}, zeroLimit: true, want: 0},
		{name: "(model) no limit given: the pod goes", nodes: node(), pods: one, profile: def, want: 1},
	})
}

// TestEvictionLimitsUpstream restates the limit rows of the plugin tables
// (sigs.k8s.io/descheduler@v0.36.0) that set a limit to 0, which upstream
// reads as "no eviction at all" (its limits are *uint): the other rows of
// these tables are in deschedule_test.go and nodeutilization_test.go.
func TestEvictionLimitsUpstream(t *testing.T) {
	const key, val = "kubernetes.io/desiredNode", "yes"
	req, pref := model.RequiredDuringSchedulingIgnoredDuringExecution, model.PreferredDuringSchedulingIgnoredDuringExecution
	nodes := func() []*build.NodeBuilder {
		return []*build.NodeBuilder{upstreamNode("nodeWithoutLabels"), upstreamNode("nodeWithLabels").Label(key, val)}
	}
	podsOn := func(typ model.NodeAffinityType) []dsPod {
		aff := func(tb *build.TemplateBuilder) *build.TemplateBuilder {
			if typ == req {
				return tb.Required(key, val)
			}
			return tb.Preferred(10, key, val)
		}
		return []dsPod{{tmpl: aff}, {}, {}}
	}
	var cases []dsCase
	// pkg/framework/plugins/removepodsviolatingnodeaffinity/node_affinity_test.go,
	// TestRemovePodsViolatingNodeAffinity.
	for _, typ := range []model.NodeAffinityType{req, pref} {
		tag := map[model.NodeAffinityType]string{req: " [required affinity]", pref: " [preferred affinity]"}[typ]
		cases = append(cases,
			dsCase{name: "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode set to 0, should be not evicted" + tag,
				nodes: nodes(), pods: podsOn(typ), profile: affinityProfile(false, typ), zeroLimit: true, want: 0},
			dsCase{name: "Pod is scheduled on node without matching labels, another schedulable node available, maxNoOfPodsToEvictPerNamespace set to 0, should not be evicted" + tag,
				nodes: nodes(), pods: podsOn(typ), profile: affinityProfile(false, typ), zeroLimit: true, want: 0})
	}
	cases = append(cases,
		dsCase{name: "Pod is scheduled on node without matching labels, another schedulable node available, maxNoOfPodsToEvictTotal set to 0, should not be evicted [required affinity]",
			nodes: nodes(), pods: podsOn(req), profile: affinityProfile(false, req), limits: [3]int{0, 1, 0}, zeroLimit: true, want: 0},
	)
	runDsCases(t, cases)
}
