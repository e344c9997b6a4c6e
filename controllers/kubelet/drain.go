package kubelet

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// queueUpdates batches what one drain of the kubelet queue does to the
// other pod queues: the pods it removes leave the scheduler's and the
// taint manager's queues (and the waiting pods are retried), and the pods
// it starts join the taint manager's. Done pod by pod, each update would
// scan a queue, making a drain of hundreds of pods over queues of
// hundreds quadratic. Done once at the end of the drain, the result is the same:
// nothing the drain does reads those queues, a started pod is never one
// the drain removes, and the pods waiting for a node are the same
// throughout the drain (it only starts, rejects and removes bound or
// terminating pods), so each queue ends as its surviving items in their
// order followed by the pods added, in the order they were added, that
// it did not hold.
type queueUpdates struct {
	removed, tainted []int
	// failed: the drain failed a pod that held resources (a pod
	// preempted to admit a critical pod).
	failed bool
	bufs   [2][16]int
}

func (q *queueUpdates) init() {
	q.removed, q.tainted = q.bufs[0][:0], q.bufs[1][:0]
}

// remove records that the drain removed pod slot p.
func (q *queueUpdates) remove(p int) { q.removed = append(q.removed, p) }

// fail records that the drain failed a pod that held resources.
func (q *queueUpdates) fail() { q.failed = true }

// taint records that pod slot p joins the taint manager's queue.
func (q *queueUpdates) taint(p int) { q.tainted = append(q.tainted, p) }

// apply makes the recorded updates.
func (q *queueUpdates) apply(u *model.Universe, s *model.State) {
	if len(q.removed) > 0 {
		slices.Sort(q.removed)
		for _, queue := range [...]model.Queue{model.SchedulerQueue, model.TaintManagerQueue} {
			s.Queues[queue] = slices.DeleteFunc(s.Queues[queue], func(x uint16) bool {
				_, found := slices.BinarySearch(q.removed, int(x))
				return found
			})
		}
	}
	if len(q.removed) > 0 || q.failed {
		model.AssignedPodDeleted(u, s)
	}
	if len(q.tainted) == 0 {
		return
	}
	held := s.Queues[model.TaintManagerQueue]
	if len(held)*len(q.tainted) <= 256 {
		for _, p := range q.tainted {
			s.Enqueue(model.TaintManagerQueue, p)
		}
		return
	}
	sorted := slices.Sorted(slices.Values(held))
	for _, p := range q.tainted {
		if _, found := slices.BinarySearch(sorted, uint16(p)); !found {
			s.Queues[model.TaintManagerQueue] = append(s.Queues[model.TaintManagerQueue], uint16(p))
		}
	}
}
