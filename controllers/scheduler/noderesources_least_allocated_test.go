package scheduler

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestLeastAllocatedScoringStrategy transcribes
// TestLeastAllocatedScoringStrategy (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go):
// upstream's cpu in cores is restated in millicores and its memory bytes
// in MiB, the same ratios. Left out: "Resources not set, pods scheduled
// with error" and "resource with zero weight": the v1 configuration the
// model reads defaults missing resources to cpu and memory and a weight
// of 0 to 1 (inputs/manifest, scoringDecl), so neither reaches the
// plugin; "zero node resources, pods scheduled with resources": the model
// wants every node to have cpu and memory (model.Universe validation).
// The weight rows kube-scheduler refuses are refused by the reader
// (TestLeastAllocatedWeightsRefused).
func TestLeastAllocatedScoringStrategy(t *testing.T) {
	least := func(rs []model.ResourceWeight) model.SchedulerProfile { return strategy(model.LeastAllocated, rs) }
	r := func(cpu, mem int64) kRes { return kRes{cpu: cpu, mem: mem} }
	two := pod(r(1000, 2000), r(2000, 3000))
	for _, row := range []scoreRow{
		{name: "nothing scheduled, nothing requested", pod: noRequests(),
			nodes: []kResNode{scoreNode("node1", 4000, 10000), scoreNode("node2", 4000, 10000)},
			want:  []int64{100, 100}, profile: least(defaultResources())},
		{name: "nothing scheduled, resources requested, differently sized nodes", pod: two,
			nodes: []kResNode{scoreNode("node1", 4000, 10000), scoreNode("node2", 6000, 10000)},
			want:  []int64{37, 50}, profile: least(defaultResources())},
		{name: "no resources requested, pods scheduled", pod: noRequests(),
			nodes: []kResNode{scoreNode("node1", 4000, 10000, noRequests(), noRequests()), scoreNode("node2", 4000, 10000, noRequests(), noRequests())},
			want:  []int64{100, 100}, profile: least(defaultResources())},
		{name: "no resources requested, pods scheduled with resources", pod: noRequests(),
			nodes: []kResNode{
				scoreNode("node1", 10000, 20000, pod(r(3000, 0)), pod(r(3000, 0))),
				scoreNode("node2", 10000, 20000, pod(r(3000, 0)), pod(r(3000, 5000))),
			},
			want: []int64{70, 57}, profile: least(defaultResources())},
		{name: "resources requested, pods scheduled with resources", pod: two,
			nodes: []kResNode{scoreNode("node1", 10000, 20000, pod(r(3000, 0))), scoreNode("node2", 10000, 20000, pod(r(3000, 5000)))},
			want:  []int64{57, 45}, profile: least(defaultResources())},
		{name: "resources requested, pods scheduled with resources, differently sized nodes", pod: two,
			nodes: []kResNode{scoreNode("node1", 10000, 20000, pod(r(3000, 0))), scoreNode("node2", 10000, 50000, pod(r(3000, 5000)))},
			want:  []int64{57, 60}, profile: least(defaultResources())},
		{name: "requested resources exceed node capacity", pod: pod(r(3000, 0)),
			nodes: []kResNode{scoreNode("node1", 4000, 10000, pod(r(3000, 0))), scoreNode("node2", 4000, 10000, pod(r(3000, 5000)))},
			want:  []int64{50, 25}, profile: least(defaultResources())},
		{name: "nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes", pod: two,
			nodes: []kResNode{scoreNode("node1", 4000, 10000), scoreNode("node2", 6000, 10000)},
			want:  []int64{41, 50}, profile: least([]model.ResourceWeight{{Name: "memory", Weight: 2}, {Name: "cpu", Weight: 1}})},
		{name: "bypass extended resource if the pod does not request", pod: two,
			nodes: []kResNode{scoreNode("node1", 6000, 10000), scoreNode("node2", 6000, 10000).withScalar(ext(extendedRes, 4))},
			want:  []int64{50, 50}, profile: least(extendedResourceSet())},
		{name: "honor extended resource if the pod requests", pod: pod(kRes{cpu: 3000, mem: 5000, scalar: ext(extendedRes, 2)}),
			nodes: []kResNode{scoreNode("node1", 6000, 10000).withScalar(ext(extendedRes, 4)), scoreNode("node2", 6000, 10000).withScalar(ext(extendedRes, 10))},
			want:  []int64{50, 60}, profile: least(extendedResourceSet())},
		{name: "if the node doesn't have a resource", pod: pod(r(3000, 4000)),
			nodes: []kResNode{scoreNode("node1", 6000, 10000), scoreNode("node2", 6000, 10000).withScalar(ext(extendedRes, 4))},
			want:  []int64{55, 55}, profile: least([]model.ResourceWeight{{Name: extendedRes, Weight: 2}, {Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}})},
	} {
		t.Run(row.name, func(t *testing.T) { row.run(t, leastAllocatedScore{}) })
	}
}

// TestLeastAllocatedWeightsRefused: the rows of
// TestLeastAllocatedScoringStrategy (least_allocated_test.go) and
// TestMostAllocatedScoringStrategy (most_allocated_test.go) whose
// resource weights kube-scheduler refuses ("resource with negative
// weight", "resource weight larger than MaxNodeScore") are input errors
// naming the weight.
func TestLeastAllocatedWeightsRefused(t *testing.T) {
	for _, c := range []struct{ name, strategy, field string }{
		{"least: resource with negative weight", "{type: LeastAllocated, resources: [{name: memory, weight: -1}, {name: cpu, weight: 1}]}", "resources[0].weight"},
		{"least: resource weight larger than MaxNodeScore", "{type: LeastAllocated, resources: [{name: memory, weight: 1}, {name: cpu, weight: 101}]}", "resources[1].weight"},
		{"most: resource with negative weight", "{type: MostAllocated, resources: [{name: memory, weight: -1}, {name: cpu, weight: 1}]}", "resources[0].weight"},
		{"most: resource weight larger than MaxNodeScore", "{type: MostAllocated, resources: [{name: memory, weight: 101}]}", "resources[0].weight"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := refusesStrategy(t, c.strategy); !strings.Contains(err, c.field) {
				t.Errorf("error %q, want one naming %s", err, c.field)
			}
		})
	}
}
