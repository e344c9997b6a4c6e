package kubelet

import "github.com/kivi-go/kivi/model"

// retryWaitingPods queues every unbound Pending pod that is not in the
// scheduling queue (model.MoveAllToActiveQueue, which says in what
// order), as kube-scheduler moves its unschedulable pods back to the
// active queue when an assigned pod is deleted: a pod the scheduler could
// not place, whether it found no node at all or waited for a terminating
// pod (controllers/scheduler, waiting.go, unschedulable.go). Under Kivi's
// lifecycle only a pod that preempted others waits (controllers/scheduler,
// preemption.go): a failed attempt ends the run there.
func retryWaitingPods(u *model.Universe, s *model.State) {
	if u.Options.KiviLifecycle && !u.CanPreempt() {
		return
	}
	model.MoveAllToActiveQueue(u, s)
}
