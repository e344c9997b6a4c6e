package symmetry

import "github.com/kivi-go/kivi/model"

// The kubelet queue as a set. The kubelet drains its whole queue in one
// step; each pod's start or removal touches only that pod, and the
// deployment controller and HPA are woken after the drain in the order in
// which the owners first appear in the queue (controllers/kubelet,
// wakeups.go). Two states that differ only in the order of one owner's
// pods in the kubelet queue therefore have the same successors: the
// kubelet's step gives equal states, every other step leaves the two
// queues so related (others only append to the queue or read whether it is
// empty). So a canonical state may reorder the queue, as long as the order
// of the owners' first appearances is kept: the queue is sorted by (rank
// of the owner's first appearance, pod id).
//
// With node taints the kubelet also queues every pod it starts for the
// taint manager, in drain order. Under Kubernetes' lifecycle that order
// does not matter: the taint manager takes any item of its queue, which
// is a set too (taintqueue.go); the node controller's not-ready taint (a
// node status flag, not a node taint) makes the kubelet queue such pods
// the same way. Under Kivi's lifecycle the taint manager takes its
// queue's head, so with node taints the kubelet queue keeps its exact
// order (Canonicalizer.kubeletSet is false).

// That holds while admitting one pod cannot turn another away: the
// scheduler binds a pod only where it fits beside every pod bound there,
// so the kubelet admits the pods it places in any order. A pod pinned by
// spec.nodeName bypasses the scheduler, and the kubelet admits pinned
// pods against the pods it already runs, in queue order: with room for
// two of three, the queue A1, B1, A2 turns A2 away where A1, A2, B1
// turns B1 away. With a pinned template the queue keeps its exact order
// (pinsPods).

// pinsPods reports whether some template of u pins its pods to a node
// (spec.nodeName).
func pinsPods(u *model.Universe) bool {
	for i := range u.Templates {
		if u.Templates[i].NodeName != 0 {
			return true
		}
	}
	return false
}

// kubeletQueued is a pod's kubelet-queue byte in its content key when the
// queue is a set: queued, position irrelevant.
const kubeletQueued = 0

// kubeletRanks fills rank[o] with the rank of owner o's first appearance
// in q (owners of pods out of range count as 0, bare pods).
func kubeletRanks(rank *[256]uint8, q []uint16, pods []model.PodState) {
	var seen [4]uint64
	next := uint8(0)
	for _, p := range q {
		o := ownerOf(pods, p)
		if seen[o>>6]&(1<<(o&63)) != 0 {
			continue
		}
		seen[o>>6] |= 1 << (o & 63)
		rank[o] = next
		next++
	}
}

func ownerOf(pods []model.PodState, p uint16) uint8 {
	if int(p) < len(pods) {
		return pods[p].Owner
	}
	return 0
}

// kubeletOrder is the sort key of queued pod p: owner rank, then id.
func kubeletOrder(rank *[256]uint8, pods []model.PodState, p uint16) uint32 {
	return uint32(rank[ownerOf(pods, p)])<<16 | uint32(p)
}

// kubeletSorted reports whether q is already in canonical order.
func kubeletSorted(q []uint16, pods []model.PodState) bool {
	if len(q) < 2 {
		return true
	}
	var rank [256]uint8
	kubeletRanks(&rank, q, pods)
	for i := 1; i < len(q); i++ {
		if kubeletOrder(&rank, pods, q[i-1]) > kubeletOrder(&rank, pods, q[i]) {
			return false
		}
	}
	return true
}

// sortKubelet puts q (ids of pods) in canonical order, in place. The
// sort keys are computed once, and carry the id in their low 16 bits.
func sortKubelet(q []uint16, pods []model.PodState) {
	if len(q) < 2 {
		return
	}
	var rank [256]uint8
	kubeletRanks(&rank, q, pods)
	var buf [256]uint32
	keys := buf[:0]
	for _, p := range q {
		keys = append(keys, kubeletOrder(&rank, pods, p))
	}
	sortIDsByKey(q, keys)
}

// sortIDsByKey sorts keys (a sort key above, a pod id in the low 16
// bits; a queue is short, so by insertion) and writes their ids to q.
func sortIDsByKey(q []uint16, keys []uint32) {
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for j > 0 && keys[j-1] > k {
			keys[j] = keys[j-1]
			j--
		}
		keys[j] = k
	}
	for i, k := range keys {
		q[i] = uint16(k)
	}
}
