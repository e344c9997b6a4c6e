package nodelifecycle

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestEvictableFromNode: Kivi's controller models — Pending (bound) and
// Running pods of the node are evicted; Terminating ones are not counted
// again (Kivi's double-counting bug is not reproduced).
func TestEvictableFromNode(t *testing.T) {
	tests := []struct {
		name string
		pod  model.PodState
		want bool
	}{
		{"running on node", model.PodState{Phase: model.Running, Node: 1}, true},
		{"bound pending on node", model.PodState{Phase: model.Pending, Node: 1}, true},
		{"terminating on node", model.PodState{Phase: model.Terminating, Node: 1}, false},
		{"running elsewhere", model.PodState{Phase: model.Running, Node: 2}, false},
		{"unbound pending", model.PodState{Phase: model.Pending}, false},
		{"free", model.PodState{}, false},
	}
	for _, tc := range tests {
		if got := evictableFromNode(&tc.pod, 0); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTaintManagerDecision: Kivi's controller models — only Running pods on a
// node with an untolerated NoExecute taint are evicted; NoSchedule taints
// and tolerated NoExecute taints are not reasons. The step is marked as
// an eviction of the owner's pods.
func TestTaintManagerDecision(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().Taint("k", "v", model.NoExecute))
	b.AddNodes(1, build.Node().Taint("k", "v", model.NoSchedule))
	plain := b.AddTemplate(build.Template("plain").Requests(1, 1))
	tol := b.AddTemplate(build.Template("tol").Requests(1, 1).Toleration("k", "v", model.NoExecute))
	u, _ := b.MustBuild()
	tests := []struct {
		name string
		pod  model.PodState
		want bool
	}{
		{"running, untolerated NoExecute", model.PodState{Phase: model.Running, Node: 1, Template: uint8(plain)}, true},
		{"running, tolerated NoExecute", model.PodState{Phase: model.Running, Node: 1, Template: uint8(tol)}, false},
		{"running, NoSchedule only", model.PodState{Phase: model.Running, Node: 2, Template: uint8(plain)}, false},
		{"pending on tainted node", model.PodState{Phase: model.Pending, Node: 1, Template: uint8(plain)}, false},
		{"terminating on tainted node", model.PodState{Phase: model.Terminating, Node: 1, Template: uint8(plain)}, false},
	}
	for _, tc := range tests {
		if _, got := untoleratedNoExecute(u, &tc.pod); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	s := model.NewState(u, 0)
	s.Pods = append(s.Pods, model.PodState{Phase: model.Running, Node: 1, Owner: 3, Template: uint8(plain)})
	s.Deps = make([]model.DeploymentState, 3)
	s.Enqueue(model.TaintManagerQueue, len(s.Pods)-1)
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	NewTaintManager().Step(tx, s)
	if !slices.Equal(tx.Marks, []model.Mark{model.MarkEvicted(2)}) || !s.Pods[len(s.Pods)-1].WasRunning || len(s.Queues[model.KubeletQueue]) != 1 {
		t.Errorf("eviction: marks %v, %s", tx.Marks, model.Describe(u, s))
	}
}
