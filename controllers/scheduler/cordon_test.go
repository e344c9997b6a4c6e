package scheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestCordonedNode: NodeUnschedulable (in the model's NodeReady filter)
// rejects a cordoned node for a pod that does not tolerate
// node.kubernetes.io/unschedulable:NoSchedule, with upstream's reason, and
// lets a pod that tolerates it through; a node that is not cordoned is
// judged as before.
func TestCordonedNode(t *testing.T) {
	b := build.New()
	b.AddNodes(2, build.Node())
	plain := b.AddTemplate(build.Template("plain").Requests(1, 1))
	tolerant := b.AddTemplate(build.Template("tolerant").Requests(1, 1).Toleration(model.TaintNodeUnschedulable, "", model.NoSchedule))
	b.PendingPod(b.AddDeployment("plain", plain, 1), -1)
	b.PendingPod(b.AddDeployment("tolerant", tolerant, 1), -1)
	u, s := b.MustBuild()
	s.Nodes[0].Cordoned = true
	pr := defaultProfile()
	for _, tt := range []struct {
		pod      int
		feasible []int
	}{{0, []int{1}}, {1, []int{0, 1}}} {
		var c cycle
		c.reset(u, s, tt.pod)
		c.filter(&pr)
		if !slices.Equal(c.feasible, tt.feasible) {
			t.Errorf("pod %d: feasible %v, want %v\n%s", tt.pod+1, c.feasible, tt.feasible, Explain(u, s, tt.pod))
		}
		if tt.pod == 0 && c.status[0] != reject(UnschedulableAndUnresolvable, "node(s) were unschedulable") {
			t.Errorf("cordoned node: %+v, want NodeUnschedulable's rejection", c.status[0])
		}
	}
}

// TestSpreadCountsCordonedNodes is kubernetes/kubernetes#106396 at the
// filter: zone c's only node is cordoned and empty. Under
// NodeTaintsPolicy=Ignore the domain still counts with 0 pods, so only c
// passes the spread filter, and NodeUnschedulable rejects it: no
// feasible node. Under Honor the cordoned node's unschedulable taint
// drops zone c and zone b fits.
func TestSpreadCountsCordonedNodes(t *testing.T) {
	spreadOverUnusableZone(t, func(s *model.State) { s.Nodes[2].Cordoned = true })
}
