package symmetry

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// podQueues are the queues that hold pod slots.
var podQueues = [...]model.Queue{model.SchedulerQueue, model.KubeletQueue, model.TaintManagerQueue}

// podKeyLen is the width of a pod content key in bytes.
const podKeyLen = 5 + 4 + 4 + len(podQueues) + 1 + len(podQueues) + 1 + 1

// sortKey holds a pod slot's content key followed by its slot, packed
// into three words whose lexicographic order is that of (key bytes,
// slot); the unique slot makes an unstable sort give the stable order.
//
// The content key is everything a future step can read of the pod except
// its slot and the node it refers to (its node, or else its nominated
// node: refNode), at fixed width so that keys compare field by field.
// Whether the pod is nominated is content (bit 4 of the second byte), so
// a node's pods and the pods nominated to it never mix. Its bytes,
// big-endian, are
//
//	free flag<<7 (Free slots sort last) | wasRunning<<3 | the
//	failure facts (PodState.Failure, three bits),
//	phase (three bits) | rs<<3 | nominated<<4 | readiness<<5,
//	owner,
//	template, pattern, CPU and memory usage (4 bytes each), the low
//	bytes of its positions in the scheduler, kubelet and taint-manager
//	queues (notQueued when absent), its StatefulSet ordinal
//	(PodState.Ordinal: a StatefulSet pod's identity is content, never
//	its slot), the high bytes of those positions
//	(notQueued when absent: a long queue's positions past 255 stay
//	apart from it), whether a no-feasible-node failure names it, its
//	restart count (PodState.Restarts),
//
// bytes 0-7 in k[0], 8-15 in k[1] and bytes 16-21 in bits 16-63 of
// k[2], whose low 16 bits hold the slot. Building the words directly
// (rather than bytes) keeps the sorts on integer compares.
//
// Queue positions make two pods waiting in queues different however equal
// their fields: a queue position belongs to one slot, so two pods with
// equal keys are waiting in no queue.
type sortKey [3]uint64

// freeFlag is a Free slot's first key byte: its top bit, which no pod's
// first byte sets (wasRunning and the failure facts use its low three
// bits).
const freeFlag = 0x80

// The failure facts and wasRunning share the first key byte below
// freeFlag, and the phase its three bits of the second (compile-time
// checks).
const (
	_ = 3 - (model.DisruptionTarget | model.ContainersRan)
	_ = 7 - model.Failed
)

// The key's last six bytes and the two slot bytes must fit in the third
// word (a compile-time check).
const _ = uint(8 - (podKeyLen - 16) - 2)

func (k *sortKey) slot() int { return int(uint16(k[2])) }

func (k *sortKey) less(o *sortKey) bool {
	if k[0] != o[0] {
		return k[0] < o[0]
	}
	if k[1] != o[1] {
		return k[1] < o[1]
	}
	return k[2] < o[2]
}

// sameContent reports whether k and o hold equal content keys.
func (k *sortKey) sameContent(o *sortKey) bool {
	return k[0] == o[0] && k[1] == o[1] && (k[2]^o[2])>>16 == 0
}

// free reports whether k is a Free slot's key.
func (k *sortKey) free() bool { return k[0]>>63 != 0 }

// podSortKeys returns the sort keys of the first n slots, in slot order;
// with kubeletSet a pod's position in the kubelet queue is replaced by
// kubeletQueued, and with taintSet its position in the taint-manager
// queue. The keys are built from the pods alone and then the few
// queued and failed slots are patched, rather than looking every slot up
// in every queue. oddFree reports whether one of the slots is Free with
// a usage, a node or the no-feasible-node failure, so that it may sort
// after the blank slots (blankTail).
func podSortKeys(dst []sortKey, s *model.State, n int, kubeletSet, taintSet bool) (keys []sortKey, oddFree bool) {
	pods := s.Pods[:n] // a local: the stores to keys would make s.Pods be reloaded
	keys = slices.Grow(dst[:0], len(pods))[:len(pods)]
	for i := range pods {
		p, k := &pods[i], &keys[i]
		var head uint64 // free|wasRunning|failure, phase|rs|nominated|readiness, owner, template, pattern
		if p.Phase == model.Free {
			head = freeFlag << 32
			oddFree = oddFree || uint32(p.Node)|uint32(p.NominatedNode)|uint32(p.CPU)|uint32(p.Memory) != 0
		} else {
			f := uint64(p.Failure)
			if p.WasRunning {
				f |= 1 << 3
			}
			h := uint64(p.Phase) | uint64(p.RS)<<3
			if p.NominatedNode != 0 {
				h |= 1 << 4
			}
			h |= uint64(p.Readiness) << 5
			head = f<<32 | h<<24 | uint64(p.Owner)<<16 | uint64(p.Template)<<8 | uint64(p.Pattern)
		}
		cpu := uint64(uint32(p.CPU) ^ 1<<31)
		mem := uint64(uint32(p.Memory) ^ 1<<31)
		k[0] = head<<24 | cpu>>8
		k[1] = (cpu&0xFF)<<56 | mem<<24 | notQueued<<16 | notQueued<<8 | notQueued
		k[2] = uint64(p.Ordinal)<<56 | notQueuedHigh | uint64(p.Restarts)<<16 | uint64(i)
	}
	for k, q := range podQueues {
		if k == 0 {
			markSchedulerQueue(keys, s, s.Queues[q], 8*(len(podQueues)-1))
			continue
		}
		markQueued(keys, s.Queues[q], 8*(len(podQueues)-1-k), k == 1 && kubeletSet || k == 2 && taintSet)
	}
	if s.Failed == model.FailNoFeasibleNode && int(s.FailedArg) < len(keys) {
		keys[s.FailedArg][2] |= 1 << 24
		oddFree = oddFree || pods[s.FailedArg].Phase == model.Free
	}
	return keys, oddFree
}

// markQueued writes each queued slot's first position in q into the key:
// its low byte at bit shift of k[1], its high byte at bit 32+shift of
// k[2] (kubeletQueued, high byte 0, instead when asSet); ids out of range
// are ignored. Walking q backwards leaves the first position. (No
// position reads as notQueued: a queue is shorter than 0xFFFF.)
func markQueued(keys []sortKey, q []uint16, shift int, asSet bool) {
	keep, keepHigh := ^(uint64(0xFF) << shift), ^(uint64(0xFF) << (32 + shift))
	if asSet {
		for _, p := range q {
			if int(p) < len(keys) {
				keys[p][1] = keys[p][1]&keep | kubeletQueued<<shift
				keys[p][2] &= keepHigh
			}
		}
		return
	}
	for i := len(q) - 1; i >= 0; i-- {
		if p := int(q[i]); p < len(keys) {
			keys[p][1] = keys[p][1]&keep | uint64(byte(i))<<shift
			keys[p][2] = keys[p][2]&keepHigh | uint64(byte(i>>8))<<(32+shift)
		}
	}
}

// markSchedulerQueue is markQueued for the scheduling queue, whose runs
// of nominated twins (model.NominatedTwins) are sets: the scheduler takes
// any of them first (controllers/scheduler, popNext). Every pod of a run
// gets the run's first position, so that twins differ in their key only
// by the node they are nominated to, and sort by its new index as pods
// on nodes do; the canonical queue lists a run in slot order
// (sortNominatedRuns).
func markSchedulerQueue(keys []sortKey, s *model.State, q []uint16, shift int) {
	keep, keepHigh := ^(uint64(0xFF) << shift), ^(uint64(0xFF) << (32 + shift))
	for i := len(q) - 1; i >= 0; i-- {
		p := int(q[i])
		if p >= len(keys) {
			continue
		}
		at := i
		if s.Pods[p].NominatedNode != 0 {
			for at > 0 && int(q[at-1]) < len(keys) && model.NominatedTwins(&s.Pods[q[at-1]], &s.Pods[p]) {
				at--
			}
		}
		keys[p][1] = keys[p][1]&keep | uint64(byte(at))<<shift
		keys[p][2] = keys[p][2]&keepHigh | uint64(byte(at>>8))<<(32+shift)
	}
}

// nominatedRuns reports whether the scheduling queue q of s holds a run
// of two nominated twins or more (found), and whether every such run is
// in slot order, as the canonical form lists it (sorted).
func nominatedRuns(s *model.State, q []uint16) (found, sorted bool) {
	pods := s.Pods
	for i := 1; i < len(q); i++ {
		a, b := int(q[i-1]), int(q[i])
		if a < len(pods) && b < len(pods) && pods[a].NominatedNode != 0 && pods[b].NominatedNode != 0 && model.NominatedTwins(&pods[a], &pods[b]) {
			if b < a {
				return true, false
			}
			found = true
		}
	}
	return found, true
}

// sortNominatedRuns puts each run of nominated twins of the scheduling
// queue in slot order: q is the queue as renamed (slot q[i] of the
// canonical form holds the pod src[i] of s names), so runs are found in
// s's queue and sorted in q.
func sortNominatedRuns(q, src []uint16, s *model.State) {
	for i := 0; i < len(src); {
		end := model.NominatedRun(s, src, i)
		if end-i > 1 {
			slices.Sort(q[i:end])
		}
		i = end
	}
}

// notQueuedHigh holds the high bytes of the three queue positions of a
// pod in no queue (bits 32-55 of a key's third word): a position is two
// bytes, its low byte in the second word, so that positions past 255 in a
// long queue stay apart from notQueued, and a short queue's keys order as
// with one byte.
const notQueuedHigh = uint64(notQueued)<<48 | uint64(notQueued)<<40 | uint64(notQueued)<<32

// refNode is the node value (index+1, 0 = none) that pod p refers to:
// its node when bound, else its nominated node. A nominated pod is never
// bound in a reachable state (model.PodState.NominatedNode), so the node
// lists, signatures and pod orders built on it account for both
// references; for a state that has both, the nomination is left out of
// them and the canonical form is still a permutation of the state, only
// perhaps not the orbit's one.
func refNode(p *model.PodState) uint16 {
	if p.Node != 0 {
		return p.Node
	}
	return p.NominatedNode
}
