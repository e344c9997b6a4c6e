package kubelet

import "github.com/kivi-go/kivi/model"

// retryWaitingPods queues every unbound Pending pod that is not in the
// scheduling queue: a pod the scheduler could not place while a pod was
// terminating waits for a removal (controllers/scheduler, waiting.go), as
// kube-scheduler moves its unschedulable pods back to the active queue
// when an assigned pod is deleted. Under Kivi's lifecycle only a pod
// that preempted others waits (controllers/scheduler, preemption.go).
func retryWaitingPods(u *model.Universe, s *model.State) {
	if u.Options.KiviLifecycle && !u.CanPreempt() {
		return
	}
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Phase == model.Pending && p.Node == 0 {
			s.Enqueue(model.SchedulerQueue, i)
		}
	}
}
