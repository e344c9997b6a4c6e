package symmetry

import "github.com/kivi-go/kivi/model"

// Permute returns a copy of s with node old moved to index perm[old]: the
// node states, every pod's binding, the node-controller queue items, the
// per-node event memory and the node a kernel-panic failure names. perm
// must be a permutation of 0..len(s.Nodes)-1; it is a symmetry of the
// model only when it maps nodes within the classes of Classes and leaves
// the nodes no maintenance has reached in place (Canonicalizer.Movable).
func Permute(u *model.Universe, s *model.State, perm []int) *model.State {
	return permute(nodeMemoryOf(u), s, perm, nil)
}

// PermuteAll is Permute that also moves pod slot old to podPerm[old]: the
// pod states, the pod ids in the scheduler, kubelet and taint-manager
// queues (their order kept), and the pod a no-feasible-node failure names.
// Either permutation may be nil (identity). Pod permutations are
// symmetries of the model only when Canonicalizer.PodsMove says so.
func PermuteAll(u *model.Universe, s *model.State, perm, podPerm []int) *model.State {
	return permute(nodeMemoryOf(u), s, perm, podPerm)
}

func permute(layout nodeMemory, s *model.State, perm, podPerm []int) *model.State {
	t := s.Clone()
	if perm != nil {
		for old, new := range perm {
			t.Nodes[new] = s.Nodes[old]
			layout.move(t, s, old, new)
		}
		for i := range t.Pods {
			if n := t.Pods[i].Node; n != 0 && int(n) <= len(perm) {
				t.Pods[i].Node = uint8(perm[n-1] + 1)
			}
		}
		q := t.Queues[model.NodeControllerQueue]
		for i, n := range q {
			if int(n) < len(perm) {
				q[i] = uint8(perm[n])
			}
		}
		if t.Failed == model.FailKernelPanic && int(t.FailedArg) < len(perm) {
			t.FailedArg = uint8(perm[t.FailedArg])
		}
	}
	if podPerm != nil {
		moved := append([]model.PodState(nil), t.Pods...)
		for old, new := range podPerm {
			t.Pods[new] = moved[old]
		}
		for _, q := range podQueues {
			items := t.Queues[q]
			for i, p := range items {
				if int(p) < len(podPerm) {
					items[i] = uint8(podPerm[p])
				}
			}
		}
		if t.Failed == model.FailNoFeasibleNode && int(t.FailedArg) < len(podPerm) {
			t.FailedArg = uint8(podPerm[t.FailedArg])
		}
	}
	return t
}
