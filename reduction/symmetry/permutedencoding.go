package symmetry

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// permutedView holds what appendPermuted writes of a canonical form
// besides its pods: a state whose unchanged parts alias the source
// state's (it is only encoded, never changed or copied into), and the
// buffers of the parts that move.
type permutedView struct {
	state     model.State
	nodes     []model.NodeState
	eventVars []uint8
	queues    [model.NumQueues][]uint16
	pods      model.PermutedPods
	inverse   []int
	rename    []uint16
}

// appendPermuted appends the encoding of s's canonical form given its
// plan (perm and podPerm as permuteInto takes them, sortKQ as
// sortQueues): the encoding of permute(s) with its queues sorted, written
// from s in canonical order without building the permuted copy.
func (c *Canonicalizer) appendPermuted(w *scratch, dst []byte, s *model.State, perm, podPerm []int, sortKQ bool) []byte {
	v := &w.view
	t := &v.state
	t.DeschedulerPending, t.Init, t.Atomic = s.DeschedulerPending, s.Init, s.Atomic
	t.Failed, t.FailedArg = s.Failed, s.FailedArg
	t.Deps, t.Monitors = s.Deps, s.Monitors
	t.Nodes, t.EventVars = s.Nodes, s.EventVars
	t.Queues = s.Queues
	v.pods.Src, v.pods.Order, v.pods.Rename = s.Pods, nil, nil
	// The plan leaves a blank tail of slots in place (blankTail).
	v.pods.FreeTail = podPerm != nil
	if perm != nil {
		nodes := sized(v.nodes, len(s.Nodes))
		v.nodes = nodes
		rename := sized(v.rename, len(perm)+1)
		v.rename = rename
		rename[0] = 0
		from := s.Nodes[:len(perm)]
		for old, new := range perm {
			nodes[new] = from[old]
			rename[old+1] = uint16(new + 1)
		}
		t.Nodes = nodes
		v.pods.Rename = rename
		if len(c.layout.panics)+len(c.layout.maints) > 0 {
			vars := append(v.eventVars[:0], s.EventVars...)
			v.eventVars = vars
			t.EventVars = vars
			for old, new := range perm {
				c.layout.moveVars(vars, s.EventVars, old, new)
			}
		}
		if q := s.Queues[model.NodeControllerQueue]; len(q) > 0 {
			items := append(v.queues[model.NodeControllerQueue][:0], q...)
			v.queues[model.NodeControllerQueue] = items
			for i, n := range items {
				if int(n) < len(perm) {
					items[i] = uint16(perm[n])
				}
			}
			t.Queues[model.NodeControllerQueue] = items
		}
		if t.Failed == model.FailKernelPanic && int(t.FailedArg) < len(perm) {
			t.FailedArg = uint16(perm[t.FailedArg])
		}
	}
	if podPerm != nil {
		inverse := sized(v.inverse, len(podPerm))
		v.inverse = inverse
		for old, new := range podPerm {
			inverse[new] = old
		}
		v.pods.Order = inverse
		for _, q := range podQueues {
			if len(s.Queues[q]) == 0 {
				continue
			}
			items := append(v.queues[q][:0], s.Queues[q]...)
			v.queues[q] = items
			for i, p := range items {
				if int(p) < len(podPerm) {
					items[i] = uint16(podPerm[p])
				}
			}
			t.Queues[q] = items
		}
		if t.Failed == model.FailNoFeasibleNode && int(t.FailedArg) < len(podPerm) {
			t.FailedArg = uint16(podPerm[t.FailedArg])
		}
	}
	if sq := s.Queues[model.SchedulerQueue]; c.pods && len(sq) > 1 {
		// The runs are found in s's queue and sorted in the renamed one;
		// without a pod permutation a run already in slot order stays.
		if found, sorted := nominatedRuns(s, sq); found && (podPerm != nil || !sorted) {
			if podPerm == nil {
				t.Queues[model.SchedulerQueue] = append(v.queues[model.SchedulerQueue][:0], sq...)
				v.queues[model.SchedulerQueue] = t.Queues[model.SchedulerQueue]
			}
			sortNominatedRuns(t.Queues[model.SchedulerQueue], sq, s)
		}
	}
	if sortKQ {
		kq := s.Queues[model.KubeletQueue]
		if podPerm == nil {
			kq = append(v.queues[model.KubeletQueue][:0], kq...)
			v.queues[model.KubeletQueue] = kq
		} else {
			kq = t.Queues[model.KubeletQueue] // renamed: the sort reads the pods in their new slots
		}
		sortKubeletPermuted(kq, s.Pods, v.pods.Order)
		t.Queues[model.KubeletQueue] = kq
	}
	if tq := t.Queues[model.TaintManagerQueue]; c.taintSet && len(tq) > 1 {
		if podPerm == nil {
			tq = append(v.queues[model.TaintManagerQueue][:0], tq...)
			v.queues[model.TaintManagerQueue] = tq
			t.Queues[model.TaintManagerQueue] = tq
		}
		sortTaintQueue(tq)
	}
	return t.AppendEncodingPermuted(c.u, dst, &v.pods)
}

// sortKubeletPermuted is sortKubelet for the kubelet queue q of a state
// whose slot p holds src[order[p]] (p < len(order)) or src[p].
func sortKubeletPermuted(q []uint16, src []model.PodState, order []int) {
	if len(q) < 2 {
		return
	}
	var buf [256]uint32
	keys := buf[:0]
	for _, p := range q {
		o := p
		if int(p) < len(order) {
			o = uint16(order[p])
		}
		keys = append(keys, uint32(ownerOf(src, o))<<16|uint32(p))
	}
	// Owners ranked by their first pod in the queue (kubeletRanks).
	var seen [4]uint64
	var rank [256]uint8
	next := uint8(0)
	for _, k := range keys {
		o := k >> 16
		if seen[o>>6]&(1<<(o&63)) != 0 {
			continue
		}
		seen[o>>6] |= 1 << (o & 63)
		rank[o] = next
		next++
	}
	for i, k := range keys {
		keys[i] = uint32(rank[k>>16])<<16 | k&0xFFFF
	}
	sortIDsByKey(q, keys)
}

// moveVars is move on the event memory alone: node old's memory in src
// becomes node new's in dst.
func (m nodeMemory) moveVars(dst, src []uint8, old, new int) {
	for _, off := range m.panics {
		dst[off+2*new] = src[off+2*old]
		dst[off+2*new+1] = src[off+2*old+1]
	}
	for _, off := range m.maints {
		dst[off+new] = src[off+old]
	}
}

// sized returns x's array cut to n elements when it holds them, else a
// new one (the contents are not kept).
func sized[T any](x []T, n int) []T { return slices.Grow(x[:0], n)[:n] }
