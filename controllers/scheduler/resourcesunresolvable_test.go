package scheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestRequestAboveAllocatableIsUnresolvable: a node whose allocatable cpu
// is below the pod's request cannot be freed by preemption
// (NodeResourcesFit's Unresolvable): it is no potential node, while a
// node of the same usage but larger allocatable is.
func TestRequestAboveAllocatableIsUnresolvable(t *testing.T) {
	for _, tc := range []struct {
		nodeCPU, lowCPU int64
		want            string
	}{
		{64, 32, "[kube-scheduler] Pod pod#2 cannot be scheduled: 0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{128, 64, "[kube-scheduler] Pod pod#2 cannot be scheduled yet: 0/1 nodes are available: 1 Insufficient cpu. It is nominated to node 1 and preempts pod#1"},
	} {
		b := build.New()
		b.AddNodes(1, build.Node().CPU(tc.nodeCPU).Mem(64))
		low := b.AddDeployment("low", b.AddTemplate(build.Template("low").Requests(tc.lowCPU, 8)), 1)
		high := b.AddDeployment("high", b.AddTemplate(build.Template("high").Requests(100, 8).Priority(1000)), 1)
		b.RunPod(low, 0).PendingPod(high, -1)
		u, s := b.MustBuild()
		s.Enqueue(model.SchedulerQueue, 1)
		if lines := run(u, s); !slices.Contains(lines, tc.want) {
			t.Errorf("node cpu %d: lines %q, want %q", tc.nodeCPU, lines, tc.want)
		}
	}
}
