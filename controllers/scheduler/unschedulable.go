package scheduler

import "github.com/kivi-go/kivi/model"

// A pod without a feasible node fails the state with FailNoFeasibleNode
// (pod_always_schedulable's violation, kube-scheduler's
// FailedScheduling); it is out of the scheduling queue, Pending and
// unbound. Under Kivi's lifecycle the run ends there. Under Kubernetes'
// the pod waits, as in kube-scheduler's unschedulable queue, and the run
// goes on from the state without the failure
// (model.Universe.ContinuesAfterFailure): the pod is tried again when a
// pod is removed (controllers/kubelet), a node's Ready condition or
// cordon changes (model.NodeUpdated), or a pod it may be waiting for is
// bound (model.AssignedPodAdded). The step still ends at the failed pod;
// the pods left in the queue are scheduled from the failed state inside
// the scheduler's atomic section, as the rest of the same drain.

// drainGoesOn reports whether the scheduler's drain must go on from s in
// a further step of its atomic section: pods are left in the queue, and
// either ties branch (one pod per step) or the step stopped at an
// unschedulable pod whose failure does not end the run.
func drainGoesOn(u *model.Universe, s *model.State, onePod bool) bool {
	if s.Empty(model.SchedulerQueue) {
		return false
	}
	if s.Failed == model.NoFailure {
		return onePod
	}
	return u.ContinuesAfterFailure(s)
}
