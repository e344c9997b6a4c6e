package symmetry

import (
	"encoding/binary"

	"github.com/kivi-go/kivi/model"
)

// podQueues are the queues that hold pod slots.
var podQueues = [...]model.Queue{model.SchedulerQueue, model.KubeletQueue, model.TaintManagerQueue}

// podKeyLen is the width of a pod content key in bytes.
const podKeyLen = 5 + 4 + 4 + len(podQueues) + 1

// podKey is the content key of a pod slot: everything a future step can
// read of the pod except its slot and its node, at fixed width so that
// keys compare field by field. Its bytes, big-endian, are
//
//	free flag (Free slots sort last), phase|wasRunning|rs, owner,
//	template, pattern, CPU and memory usage (4 bytes each), its position
//	in the scheduler, kubelet and taint-manager queues (notQueued when
//	absent), whether a no-feasible-node failure names it,
//
// packed into three words: bytes 0-7 in k[0], 8-15 in k[1] and byte 16 in
// bits 24-31 of k[2]. Comparing the words in order compares the bytes, and
// the low 24 bits of k[2] are zero, free for sortKey's node and slot.
// Building the words directly (rather than bytes) keeps the sorts on
// integer compares.
//
// Queue positions make two pods waiting in queues different however equal
// their fields: a queue position belongs to one slot, so two pods with
// equal keys are waiting in no queue.
type podKey [3]uint64

// The key's last byte, the node byte and two slot bytes must fit in the
// third word's low 32 bits (a compile-time check).
const _ = uint(4 - (podKeyLen - 16) - 1 - 2)

// podKeyOf returns the content key of pod slot i; queuePos holds each
// slot's queue positions (queuePositions).
func podKeyOf(s *model.State, i int, queuePos *[len(podQueues)][]byte) podKey {
	p := &s.Pods[i]
	var head uint64 // free, phase|wasRunning|rs, owner, template, pattern
	if p.Phase == model.Free {
		head = 1 << 32
	} else {
		h := uint64(p.Phase) | uint64(p.RS)<<3
		if p.WasRunning {
			h |= 1 << 2
		}
		head = h<<24 | uint64(p.Owner)<<16 | uint64(p.Template)<<8 | uint64(p.Pattern)
	}
	cpu := uint64(uint32(p.CPU) ^ 1<<31)
	mem := uint64(uint32(p.Memory) ^ 1<<31)
	var failed uint64
	if s.Failed == model.FailNoFeasibleNode && int(s.FailedArg) == i {
		failed = 1
	}
	return podKey{
		head<<24 | cpu>>8,
		(cpu&0xFF)<<56 | mem<<24 | uint64(queuePos[0][i])<<16 | uint64(queuePos[1][i])<<8 | uint64(queuePos[2][i]),
		failed << 24,
	}
}

// compare orders keys as their bytes.
func (k *podKey) compare(o *podKey) int {
	switch {
	case k[0] != o[0]:
		return cmpUint64(k[0], o[0])
	case k[1] != o[1]:
		return cmpUint64(k[1], o[1])
	default:
		return cmpUint64(k[2], o[2])
	}
}

func cmpUint64(a, b uint64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// appendBytes appends the key's podKeyLen bytes.
func (k *podKey) appendBytes(dst []byte) []byte {
	dst = binary.BigEndian.AppendUint64(dst, k[0])
	dst = binary.BigEndian.AppendUint64(dst, k[1])
	return append(dst, byte(k[2]>>24))
}
