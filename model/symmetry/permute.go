package symmetry

import "github.com/kivi-go/kivi/model"

// Permute returns a copy of s with node old moved to index perm[old]: the
// node states, every pod's binding, the node-controller queue items, the
// per-node event memory and the node a kernel-panic failure names. perm
// must be a permutation of 0..len(s.Nodes)-1; it is a symmetry of the
// model only when it maps nodes within the classes of Classes and leaves
// the nodes no maintenance has reached in place (Canonicalizer.Movable).
func Permute(u *model.Universe, s *model.State, perm []int) *model.State {
	return permute(nodeMemoryOf(u), s, perm)
}

func permute(layout nodeMemory, s *model.State, perm []int) *model.State {
	t := s.Clone()
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
	return t
}
