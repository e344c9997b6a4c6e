package model_test

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// slotOrderCluster is one node with pod slots for two deployments, a and b.
func slotOrderCluster(t *testing.T) (u *model.Universe, s *model.State, a, b int) {
	t.Helper()
	bl := build.New()
	bl.AddNodes(1, build.Node().CPU(8))
	a = bl.AddDeployment("a", bl.AddTemplate(build.Template("a").Requests(1, 1)), 3)
	b = bl.AddDeployment("b", bl.AddTemplate(build.Template("b").Requests(1, 1)), 1)
	bl.Slots = 4
	u, s, err := bl.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	return u, s, a, b
}

// pod is a pod of deployment d on the node in phase ph.
func pod(u *model.Universe, d int, ph model.Phase) model.PodState {
	p := model.PodState{Phase: ph, Owner: uint8(d + 1), Template: uint8(u.Configs[d].PodTemplate), Node: 1}
	if ph == model.Terminating {
		p.WasRunning = true
	}
	return p
}

// TestNodePodsInOwnerOrderReadsContents: the pods of one node a step hands
// to the kubelet together go by owner and then by what they hold, whatever
// slots they are in: a Terminating and a Pending pod of one owner, or two
// Pending pods of which one waits in the taint manager's queue, come in
// the same order when their slots are swapped (the symmetry reduction
// permutes slots; the kubelet admits pinned pods in queue order, so the
// order decides which is turned away).
func TestNodePodsInOwnerOrderReadsContents(t *testing.T) {
	u, s, a, b := slotOrderCluster(t)
	for _, tc := range []struct {
		name   string
		pods   [3]model.PodState
		taints []uint16 // the taint manager's queue
	}{
		{"phases", [3]model.PodState{pod(u, a, model.Pending), pod(u, b, model.Running), pod(u, a, model.Terminating)}, nil},
		{"taint manager's queue", [3]model.PodState{pod(u, a, model.Pending), pod(u, b, model.Pending), pod(u, a, model.Pending)}, []uint16{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			order := func(swap bool) []model.PodState {
				x := s.Clone()
				copy(x.Pods, tc.pods[:])
				x.Queues[model.TaintManagerQueue] = slices.Clone(tc.taints)
				if swap {
					x.Pods[0], x.Pods[2] = x.Pods[2], x.Pods[0]
					for i, p := range x.Queues[model.TaintManagerQueue] {
						x.Queues[model.TaintManagerQueue][i] = 2 - p
					}
				}
				var out []model.PodState
				for _, i := range model.NodePodsInOwnerOrder(u, x, 0) {
					p := x.Pods[i]
					if slices.Contains(x.Queues[model.TaintManagerQueue], uint16(i)) {
						p.Restarts = 99 // marks the queued pod in the comparison
					}
					out = append(out, p)
				}
				return out
			}
			straight, swapped := order(false), order(true)
			if !slices.Equal(straight, swapped) {
				t.Errorf("order by slots:\n%v\nswapped:\n%v", straight, swapped)
			}
			if straight[0].Owner != uint8(a+1) || straight[2].Owner != uint8(b+1) {
				t.Errorf("not by owner: %v", straight)
			}
		})
	}
}

// TestForgetPodKeepsOwnerOrder: a pod that leaves the kubelet queue lets no
// owner move ahead of another. Queued a1, b, a2 or a2, b, a1 (the same
// queue up to the order of a's pods, which the symmetry reduction does not
// keep), a1's removal leaves a's other pod ahead of b in both, so the
// kubelet wakes a's controller first in both; a pod that is not its
// owner's first item, or its owner's only one, is simply dropped.
func TestForgetPodKeepsOwnerOrder(t *testing.T) {
	u, s, a, b := slotOrderCluster(t)
	s.Pods[0] = pod(u, a, model.Failed)
	s.Pods[1] = pod(u, b, model.Pending)
	s.Pods[2] = pod(u, a, model.Pending)
	for _, tc := range []struct{ queue, want []uint16 }{
		{[]uint16{0, 1, 2}, []uint16{2, 1}},
		{[]uint16{2, 1, 0}, []uint16{2, 1}},
		{[]uint16{0, 1}, []uint16{1}},
		{[]uint16{1, 0}, []uint16{1}},
	} {
		x := s.Clone()
		x.Queues[model.KubeletQueue] = slices.Clone(tc.queue)
		x.ForgetPod(0)
		if got := x.Queues[model.KubeletQueue]; !slices.Equal(got, tc.want) {
			t.Errorf("queue %v without pod 0: %v, want %v", tc.queue, got, tc.want)
		}
		if x.Pods[0] != (model.PodState{}) {
			t.Errorf("slot 0 not freed: %+v", x.Pods[0])
		}
	}
}
