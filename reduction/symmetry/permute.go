package symmetry

import "github.com/kivi-go/kivi/model"

// Permute returns a copy of s with node old moved to index perm[old]: the
// node states, every pod's binding and nominated node, the node-controller queue items, the
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
	t := cloneCompact(s)
	permuteInto(t, layout, s, perm, podPerm)
	return t
}

// permuteInto applies the permutations to t, a copy of s. podPerm may be
// shorter than s.Pods: the slots past it stay (Canonicalizer.plan).
func permuteInto(t *model.State, layout nodeMemory, s *model.State, perm, podPerm []int) {
	memory := len(layout.panics)+len(layout.maints) > 0
	for old, new := range perm {
		t.Nodes[new] = s.Nodes[old]
		if memory {
			layout.move(t, s, old, new)
		}
	}
	// Locals: the stores into t would make the slices be reloaded.
	dst, src := t.Pods, s.Pods
	if podPerm != nil {
		if perm == nil {
			for old, new := range podPerm {
				dst[new] = src[old]
			}
		} else {
			// Copy, then rename the node in place through a table: a
			// field changed in a copy on the stack before the pod's
			// store makes the store wait (a store-forwarding stall), and
			// a branch on whether the pod is bound mispredicts. Node
			// values past perm (none in a state of the universe) stay.
			var small [257]uint16
			rename := small[:]
			if len(perm)+1 > len(small) {
				rename = make([]uint16, len(perm)+1)
			}
			rename = rename[:len(perm)+1]
			for old, new := range perm {
				rename[old+1] = uint16(new + 1)
			}
			for old, new := range podPerm {
				d := &dst[new]
				*d = src[old]
				if int(d.Node) < len(rename) {
					d.Node = rename[d.Node]
				}
				if int(d.NominatedNode) < len(rename) {
					d.NominatedNode = rename[d.NominatedNode]
				}
			}
		}
		for _, q := range podQueues {
			items := t.Queues[q]
			for i, p := range items {
				if int(p) < len(podPerm) {
					items[i] = uint16(podPerm[p])
				}
			}
		}
		if t.Failed == model.FailNoFeasibleNode && int(t.FailedArg) < len(podPerm) {
			t.FailedArg = uint16(podPerm[t.FailedArg])
		}
	} else if perm != nil {
		for i := range dst {
			if n := dst[i].Node; n != 0 && int(n) <= len(perm) {
				dst[i].Node = uint16(perm[n-1] + 1)
			}
			if n := dst[i].NominatedNode; n != 0 && int(n) <= len(perm) {
				dst[i].NominatedNode = uint16(perm[n-1] + 1)
			}
		}
	}
	if perm != nil {
		q := t.Queues[model.NodeControllerQueue]
		for i, n := range q {
			if int(n) < len(perm) {
				q[i] = uint16(perm[n])
			}
		}
		if t.Failed == model.FailKernelPanic && int(t.FailedArg) < len(perm) {
			t.FailedArg = uint16(perm[t.FailedArg])
		}
	}
}

// cloneCompact is State.Clone with the small slices carved from one
// array each (queues; event and monitor memory): Canonical builds a new
// state for most successors, so its allocations count. Each part's
// capacity is its length, so an append to one never writes into the
// next; empty parts stay nil, as in Clone.
func cloneCompact(s *model.State) *model.State {
	t := &model.State{
		Nodes:              cloneSlice(s.Nodes),
		Pods:               cloneSlice(s.Pods),
		Deps:               cloneSlice(s.Deps),
		DeschedulerPending: s.DeschedulerPending,
		Init:               s.Init,
		Atomic:             s.Atomic,
		Failed:             s.Failed,
		FailedArg:          s.FailedArg,
	}
	n := 0
	for q := range s.Queues {
		n += len(s.Queues[q])
	}
	items := make([]uint16, 0, n)
	for q := range s.Queues {
		t.Queues[q] = carve(&items, s.Queues[q])
	}
	mem := make([]byte, 0, len(s.EventVars)+len(s.Monitors))
	t.EventVars = carve(&mem, s.EventVars)
	t.Monitors = carve(&mem, s.Monitors)
	return t
}

// carve appends x to *buf, whose capacity has room for it, and returns
// the part appended with its capacity cut to its length (nil for none).
func carve[T any](buf *[]T, x []T) []T {
	if len(x) == 0 {
		return nil
	}
	start := len(*buf)
	*buf = append(*buf, x...)
	return (*buf)[start:len(*buf):len(*buf)]
}

// cloneSlice copies x; empty gives nil, as State.Clone's appends do.
func cloneSlice[T any](x []T) []T {
	if len(x) == 0 {
		return nil
	}
	return append(make([]T, 0, len(x)), x...)
}
