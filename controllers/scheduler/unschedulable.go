package scheduler

import "github.com/kivi-go/kivi/model"

// unschedulable records that pod p found no feasible node and, short of a
// preemption, stays unschedulable: the state fails with
// FailNoFeasibleNode (pod_always_schedulable's violation, and the
// FailedScheduling kube-scheduler reports). The pod is already out of the
// scheduling queue; it stays Pending and unbound.
//
// Under Kivi's lifecycle the run ends there. Under Kubernetes' the pod
// waits, as in kube-scheduler's unschedulable queue, and the run goes on
// from the state without the failure (model.Universe.ContinuesAfterFailure):
// the pod is tried again when a pod is removed (controllers/kubelet), a
// node's Ready condition or cordon changes (model.NodeUpdated), or a pod
// it may be waiting for is bound (model.AssignedPodAdded). The step
// still ends at the failed pod, so the failed state is the one a run ended
// in before; the pods left in the queue are scheduled from it inside the
// scheduler's atomic section (Step), as the rest of the same drain.
func unschedulable(s *model.State, p int) {
	s.Fail(model.FailNoFeasibleNode, p)
}

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
