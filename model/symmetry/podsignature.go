package symmetry

import (
	"encoding/binary"

	"github.com/kivi-go/kivi/model"
)

// podQueues are the queues that hold pod slots.
var podQueues = [...]model.Queue{model.SchedulerQueue, model.KubeletQueue, model.TaintManagerQueue}

// podKeyLen is the width of a pod content key.
const podKeyLen = 5 + 4 + 4 + len(podQueues) + 1

// podKey appends the content key of pod slot i: everything a future step
// can read of the pod except its slot and its node, at fixed width so that
// keys compare field by field:
//
//	free flag (Free slots sort last), phase|wasRunning|rs, owner,
//	template, pattern, CPU and memory usage (4 bytes each), its position
//	in the scheduler, kubelet and taint-manager queues (notQueued when
//	absent), whether a no-feasible-node failure names it.
//
// Queue positions make two pods waiting in queues different however equal
// their fields: a queue position belongs to one slot, so two pods with
// equal keys are waiting in no queue.
//
// queuePos holds each slot's queue positions (queuePositions).
func podKey(dst []byte, s *model.State, i int, queuePos *[len(podQueues)][]byte) []byte {
	p := &s.Pods[i]
	if p.Phase == model.Free {
		dst = append(dst, 1, 0, 0, 0, 0)
	} else {
		h := byte(p.Phase) | p.RS<<3
		if p.WasRunning {
			h |= 1 << 2
		}
		dst = append(dst, 0, h, p.Owner, p.Template, p.Pattern)
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(p.CPU)^1<<31)
	dst = binary.BigEndian.AppendUint32(dst, uint32(p.Memory)^1<<31)
	for k := range podQueues {
		dst = append(dst, queuePos[k][i])
	}
	failed := byte(0)
	if s.Failed == model.FailNoFeasibleNode && int(s.FailedArg) == i {
		failed = 1
	}
	return append(dst, failed)
}
