package kubelet

import (
	"cmp"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// retryWaitingPods queues every unbound Pending pod that is not in the
// scheduling queue: a pod the scheduler could not place while a pod was
// terminating waits for a removal (controllers/scheduler, waiting.go), as
// kube-scheduler moves its unschedulable pods back to the active queue
// when an assigned pod is deleted. Under Kivi's lifecycle only a pod
// that preempted others waits (controllers/scheduler, preemption.go).
//
// kube-scheduler moves them in no particular order (a map's), and its
// active queue then orders them by priority and queueing time. The model
// queues them by priority, highest first, and then by their contents
// (nominated first, owner, ReplicaSet, template, usage), never by pod slot: with pods of
// two deployments waiting, an order by slot would make the scheduler's
// order depend on slots, which the symmetry reduction permutes
// (reduction/symmetry). Identical pods go in slot order, which changes
// nothing reachable. Two pods that differ only in the node they are
// nominated to go in slot order too: an order by node index would depend
// on node indices, which the reduction permutes as well; upstream's
// order is a map's, and which of the two is tried first matters only
// when neither fits its nominated node.
func retryWaitingPods(u *model.Universe, s *model.State) {
	if u.Options.KiviLifecycle && !u.CanPreempt() {
		return
	}
	var buf [16]int
	waiting := buf[:0]
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Phase == model.Pending && p.Node == 0 {
			waiting = append(waiting, i)
		}
	}
	if len(waiting) > 1 {
		slices.SortFunc(waiting, func(i, j int) int {
			a, b := &s.Pods[i], &s.Pods[j]
			return cmp.Or(
				cmp.Compare(u.Templates[b.Template].Priority, u.Templates[a.Template].Priority),
				-cmpBool(a.NominatedNode != 0, b.NominatedNode != 0),
				cmp.Compare(a.Owner, b.Owner), cmp.Compare(a.RS, b.RS), cmp.Compare(a.Template, b.Template),
				cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.CPU, b.CPU), cmp.Compare(a.Memory, b.Memory),
				cmp.Compare(i, j))
		})
	}
	for _, i := range waiting {
		s.Enqueue(model.SchedulerQueue, i) // not twice: Enqueue skips a queued pod
	}
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
