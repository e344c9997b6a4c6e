package descheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestHighNodeUtilizationUpstreamMore restates the rows of
// sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/nodeutilization/highnodeutilization_test.go that
// TestHighNodeUtilizationUpstream (nodeutilization_test.go) does not:
// TestHighNodeUtilization's "with priorities" and the second "Other node
// does not have enough Memory", and TestHighNodeUtilizationWithTaints.
//
// Left out: "with extended resource", "with extended resource in some of
// nodes" and "with extended resource threshold and no extended resource
// pods": thresholds of extended resources are input errors
// (docs/divergences.md, "LowNodeUtilization and HighNodeUtilization",
// *Requests only*).
func TestHighNodeUtilizationUpstreamMore(t *testing.T) {
	const lowPriority, highPriority = 0, 10000
	variants := map[string]func(*build.TemplateBuilder) *build.TemplateBuilder{
		"low":  func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Priority(lowPriority) },
		"high": func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.Priority(highPriority) },
		"tolerate": func(tb *build.TemplateBuilder) *build.TemplateBuilder {
			return tb.TolerationWith(model.Toleration{Key: "key", Value: "value"})
		},
	}
	// TestHighNodeUtilizationWithTaints: thresholds cpu 40 %, the
	// DefaultEvictor's defaults (no nodeFit); upstream sets
	// maxPodsToEvictPerNode to the expected count (0: no eviction at all).
	withTaints := hnuProfile(thr(40, -1, -1))
	withTaints.NodeFit = false
	n3Tainted := func() *build.NodeBuilder {
		return nuNode("n3", 1000, 3000, 10).Taint("key", "value", model.NoSchedule)
	}
	cases := []nuCase{
		// n1 (20 %) and the cordoned n3 (20 %) are underutilised; n2
		// (80 %) has room for one pod: p1, the lower priority, goes.
		{name: "with priorities", profile: hnuProfile(thr(30, -1, -1)), want: 1, wantPods: []int{1}, variants: variants,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 2000, 3000, 10), cordoned(nuNode("n3", 2000, 3000, 10))},
			pods: append(append([]nuPod{{400, 0, 0, "rs/low", ""}, {400, 0, 0, "rs/high", ""}}, rsPods(4, 400, 0, 1)...),
				nuPod{400, 0, 2, "bare", ""})},
		{name: "Other node does not have enough Memory (second row)", profile: hnuProfile(thr(30, -1, 30)), want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 200, 9), nuNode("n2", 4000, 3000, 10)},
			pods:  append(rsPods(3, 400, 50, 0), nuPod{400, 50, 0, "bare", ""}, nuPod{400, 100, 1, "rs", ""})},
		// TestHighNodeUtilizationWithTaints.
		{name: "No taints", profile: withTaints, limits: model.Descheduler{MaxPerNode: 1}, want: 1, wantPods: []int{4},
			nodes: []*build.NodeBuilder{nuNode("n1", 1000, 3000, 10), nuNode("n2", 1000, 3000, 10), nuNode("n3", 1000, 3000, 10)},
			pods:  append(rsPods(3, 200, 0, 0), nuPod{200, 0, 1, "rs", ""})},
		{name: "No pod tolerates node taint", profile: withTaints, limits: model.Descheduler{EvictionLimitZero: true}, want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 1000, 3000, 10), n3Tainted()},
			pods:  []nuPod{{200, 0, 0, "rs", ""}, {200, 0, 1, "rs", ""}}},
		{name: "(model) No pod tolerates node taint, without the limit", profile: withTaints, want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 1000, 3000, 10), n3Tainted()},
			pods:  []nuPod{{200, 0, 0, "rs", ""}, {200, 0, 1, "rs", ""}}},
		{name: "Pod which tolerates node taint", profile: withTaints, limits: model.Descheduler{MaxPerNode: 1}, want: 1, wantPods: []int{2},
			nodes: []*build.NodeBuilder{nuNode("n1", 1000, 3000, 10), n3Tainted()}, variants: variants,
			pods: []nuPod{{100, 0, 0, "rs", ""}, {200, 0, 0, "rs/tolerate", ""}, {500, 0, 1, "rs", ""}}},
		{name: "(model) Pod which tolerates node taint, without the limit", profile: withTaints, want: 1, wantPods: []int{2},
			nodes: []*build.NodeBuilder{nuNode("n1", 1000, 3000, 10), n3Tainted()}, variants: variants,
			pods: []nuPod{{100, 0, 0, "rs", ""}, {200, 0, 0, "rs/tolerate", ""}, {500, 0, 1, "rs", ""}}},
	}
	runNUCases(t, cases)
}
