package scheduler

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestMostAllocatedScoringStrategy transcribes
// TestMostAllocatedScoringStrategy (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/most_allocated_test.go),
// in the units of TestLeastAllocatedScoringStrategy. Left out: "Resources
// not set, pods scheduled with error" and "resource with zero weight"
// (unreachable through the v1 configuration, as for LeastAllocated); the
// refused weights are in TestLeastAllocatedWeightsRefused.
func TestMostAllocatedScoringStrategy(t *testing.T) {
	most := func(rs []model.ResourceWeight) model.SchedulerProfile { return strategy(model.MostAllocated, rs) }
	r := func(cpu, mem int64) kRes { return kRes{cpu: cpu, mem: mem} }
	two := pod(r(1000, 2000), r(2000, 3000))
	unset := pod(kRes{unset: true})
	for _, row := range []scoreRow{
		{name: "nothing scheduled, nothing requested", pod: noRequests(),
			nodes: []kResNode{scoreNode("node1", 4000, 10000), scoreNode("node2", 4000, 10000)},
			want:  []int64{0, 0}, profile: most(defaultResources())},
		{name: "nothing scheduled, resources requested, differently sized nodes", pod: two,
			nodes: []kResNode{scoreNode("node1", 4000, 10000), scoreNode("node2", 6000, 10000)},
			want:  []int64{62, 50}, profile: most(defaultResources())},
		{name: "no resources requested, pods scheduled with resources", pod: noRequests(),
			nodes: []kResNode{
				scoreNode("node1", 10000, 20000, pod(r(3000, 0)), pod(r(3000, 0))),
				scoreNode("node2", 10000, 20000, pod(r(3000, 0)), pod(r(3000, 5000))),
			},
			want: []int64{30, 42}, profile: most(defaultResources())},
		{name: "resources requested, pods scheduled with resources", pod: two,
			nodes: []kResNode{scoreNode("node1", 10000, 20000, pod(r(3000, 0))), scoreNode("node2", 10000, 20000, pod(r(3000, 5000)))},
			want:  []int64{42, 55}, profile: most(defaultResources())},
		{name: "resources requested equal node capacity", pod: pod(r(2000, 4000), r(3000, 5000)),
			nodes: []kResNode{scoreNode("node1", 5000, 10000), scoreNode("node2", 10000, 9000)},
			want:  []int64{95, 75}, profile: most(defaultResources())},
		{name: "nothing scheduled, resources requested, differently sized nodes", pod: two,
			nodes: []kResNode{scoreNode("node1", 4000, 10000), scoreNode("node2", 6000, 10000)},
			want:  []int64{58, 50}, profile: most([]model.ResourceWeight{{Name: "memory", Weight: 2}, {Name: "cpu", Weight: 1}})},
		// Containers without requests score as 100m and 200Mi.
		{name: "no resources requested, pods scheduled, nonzero request for resource", pod: unset,
			nodes: []kResNode{scoreNode("node1", 250, 1000, unset, unset), scoreNode("node2", 250, 1000)},
			want:  []int64{80, 30}, profile: most(defaultResources())},
		{name: "bypass extended resource if the pod does not request", pod: two,
			nodes: []kResNode{scoreNode("node1", 6000, 10000), scoreNode("node2", 6000, 10000).withScalar(ext(extendedRes, 4))},
			want:  []int64{50, 50}, profile: most(extendedResourceSet())},
		{name: "honor extended resource if the pod request", pod: pod(kRes{cpu: 3000, mem: 5000, scalar: ext(extendedRes, 2)}),
			nodes: []kResNode{scoreNode("node1", 6000, 10000).withScalar(ext(extendedRes, 4)), scoreNode("node2", 6000, 10000).withScalar(ext(extendedRes, 10))},
			want:  []int64{50, 40}, profile: most(extendedResourceSet())},
		{name: "if the node doesn't have a resource", pod: pod(r(3000, 4000)),
			nodes: []kResNode{scoreNode("node1", 6000, 10000), scoreNode("node2", 6000, 10000).withScalar(ext(extendedRes, 4))},
			want:  []int64{45, 45}, profile: most([]model.ResourceWeight{{Name: extendedRes, Weight: 2}, {Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}})},
	} {
		t.Run(row.name, func(t *testing.T) { row.run(t, leastAllocatedScore{}) })
	}
}
