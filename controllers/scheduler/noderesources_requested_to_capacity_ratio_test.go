package scheduler

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestRequestedToCapacityRatioScoringStrategy transcribes
// TestRequestedToCapacityRatioScoringStrategy (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio_test.go),
// in the units of TestLeastAllocatedScoringStrategy.
func TestRequestedToCapacityRatioScoringStrategy(t *testing.T) {
	prof := strategy(model.RequestedToCapacityRatio, defaultResources(),
		model.ShapePoint{Utilization: 0, Score: 10}, model.ShapePoint{Utilization: 100, Score: 0})
	r := func(cpu, mem int64) kRes { return kRes{cpu: cpu, mem: mem} }
	for _, row := range []scoreRow{
		{name: "nothing scheduled, nothing requested (default - least requested nodes have priority)", pod: noRequests(),
			nodes: []kResNode{scoreNode("node1", 4000, 10000, noRequests(), noRequests()), scoreNode("node2", 4000, 10000)},
			want:  []int64{100, 100}, profile: prof},
		{name: "nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)",
			pod:   pod(r(1000, 2000), r(2000, 3000)),
			nodes: []kResNode{scoreNode("node1", 4000, 10000, noRequests(), noRequests()), scoreNode("node2", 6000, 10000)},
			want:  []int64{38, 50}, profile: prof},
		{name: "no resources requested, pods scheduled with resources (default - least requested nodes have priority)", pod: noRequests(),
			nodes: []kResNode{scoreNode("node1", 4000, 10000, pod(r(3000, 5000))), scoreNode("node2", 6000, 10000, pod(r(3000, 5000)))},
			want:  []int64{38, 50}, profile: prof},
	} {
		t.Run(row.name, func(t *testing.T) { row.run(t, leastAllocatedScore{}) })
	}
}

// TestBrokenLinearFunction transcribes TestBrokenLinearFunction
// (requested_to_capacity_ratio_test.go) on fitScoring.shapeAt.
func TestBrokenLinearFunction(t *testing.T) {
	type assertion struct{ p, want int64 }
	for i, tc := range []struct {
		points     []model.ShapePoint
		assertions []assertion
	}{
		{[]model.ShapePoint{{Utilization: 10, Score: 1}, {Utilization: 90, Score: 9}},
			[]assertion{{-10, 1}, {0, 1}, {9, 1}, {10, 1}, {15, 1}, {19, 1}, {20, 2}, {89, 8}, {90, 9}, {99, 9}, {100, 9}, {110, 9}}},
		{[]model.ShapePoint{{Utilization: 0, Score: 2}, {Utilization: 40, Score: 10}, {Utilization: 100, Score: 0}},
			[]assertion{{-10, 2}, {0, 2}, {20, 6}, {30, 8}, {40, 10}, {70, 5}, {100, 0}, {110, 0}}},
		{[]model.ShapePoint{{Utilization: 0, Score: 2}, {Utilization: 40, Score: 2}, {Utilization: 100, Score: 2}},
			[]assertion{{-10, 2}, {0, 2}, {20, 2}, {30, 2}, {40, 2}, {70, 2}, {100, 2}, {110, 2}}},
	} {
		t.Run(fmt.Sprintf("case_%d", i), func(t *testing.T) {
			f := fitScoring{shape: tc.points}
			for _, a := range tc.assertions {
				if got := f.shapeAt(a.p); got != a.want {
					t.Errorf("points %v, p=%d: %d, want %d", tc.points, a.p, got, a.want)
				}
			}
		})
	}
}

// TestResourceBinPackingSingleExtended transcribes
// TestResourceBinPackingSingleExtended (requested_to_capacity_ratio_test.go):
// intel.com/foo alone, shape 0→0, 100→1; upstream's nodes of 4000 cpus
// and 10000 MiB.
func TestResourceBinPackingSingleExtended(t *testing.T) {
	const foo = "intel.com/foo"
	prof := strategy(model.RequestedToCapacityRatio, []model.ResourceWeight{{Name: foo, Weight: 1}},
		model.ShapePoint{Utilization: 0, Score: 0}, model.ShapePoint{Utilization: 100, Score: 1})
	nodes := func(on2 ...kSpec) []kResNode {
		return []kResNode{
			scoreNode("node1", 4000, 10000).withScalar(ext(foo, 8)),
			scoreNode("node2", 4000, 10000, on2...).withScalar(ext(foo, 4)),
		}
	}
	wants := func(n int64) kSpec { return pod(kRes{scalar: ext(foo, n)}) }
	for _, row := range []scoreRow{
		{name: "nothing scheduled, nothing requested", pod: noRequests(), nodes: nodes(), want: []int64{0, 0}, profile: prof},
		// Upstream's existing pod is on no node: it changes nothing.
		{name: "resources requested, pods scheduled with less resources", pod: wants(2), nodes: nodes(), want: []int64{2, 5}, profile: prof},
		{name: "resources requested, pods scheduled with resources, on node with existing pod running ", pod: wants(2),
			nodes: nodes(wants(2)), want: []int64{2, 10}, profile: prof},
		{name: "resources requested, pods scheduled with more resources", pod: wants(4), nodes: nodes(), want: []int64{5, 10}, profile: prof},
	} {
		t.Run(row.name, func(t *testing.T) { row.run(t, leastAllocatedScore{}) })
	}
}

// TestResourceBinPackingMultipleExtended transcribes
// TestResourceBinPackingMultipleExtended (requested_to_capacity_ratio_test.go):
// intel.com/foo weighted 3 and intel.com/bar 5, shape 0→0, 100→1.
func TestResourceBinPackingMultipleExtended(t *testing.T) {
	const foo, bar = "intel.com/foo", "intel.com/bar"
	prof := strategy(model.RequestedToCapacityRatio, []model.ResourceWeight{{Name: foo, Weight: 3}, {Name: bar, Weight: 5}},
		model.ShapePoint{Utilization: 0, Score: 0}, model.ShapePoint{Utilization: 100, Score: 1})
	nodes := func(on2 ...kSpec) []kResNode {
		return []kResNode{
			scoreNode("node1", 4000, 10000).withScalar(map[string]int64{foo: 8, bar: 4}),
			scoreNode("node2", 4000, 10000, on2...).withScalar(map[string]int64{foo: 4, bar: 8}),
		}
	}
	wants := func(f, b int64) kSpec { return pod(kRes{scalar: map[string]int64{foo: f, bar: b}}) }
	for _, row := range []scoreRow{
		{name: "nothing scheduled, nothing requested", pod: noRequests(), nodes: nodes(), want: []int64{0, 0}, profile: prof},
		{name: "resources requested, pods scheduled with less resources", pod: wants(2, 2), nodes: nodes(), want: []int64{4, 3}, profile: prof},
		{name: "resources requested, pods scheduled with resources, on node with existing pod running ", pod: wants(2, 2),
			nodes: nodes(wants(4, 2)), want: []int64{4, 7}, profile: prof},
		{name: "resources requested, pods scheduled with more resources", pod: wants(4, 2), nodes: nodes(), want: []int64{5, 5}, profile: prof},
	} {
		t.Run(row.name, func(t *testing.T) { row.run(t, leastAllocatedScore{}) })
	}
}
