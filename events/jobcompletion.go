package events

import (
	"github.com/kivi-go/kivi/model"
)

// JobPodCompletion is a Job's pod succeeding: its containers exit with
// status 0, the kubelet reports phase Succeeded and the Job controller
// counts the completion. The model has no clock, so when a pod finishes
// is a choice: once the cluster is quiescent (ControllerAndHPAQueuesEmpty,
// as every other environment event), any Running pod of a Job on a Ready
// node may complete, one per step. A batch pod runs for minutes and the
// controllers react in milliseconds: a completion in the middle of a
// controller's work would only add interleavings the real cluster's
// timing makes rare, while every order of completions, HPA syncs and
// other events at rest stays explored (docs/divergences.md, "Job
// controller").
//
// The step counts the pod in its Job's status.succeeded, frees its slot
// at once (the Succeeded pod object, which upstream keeps until its TTL
// or the pod garbage collector, holds no resources and no controller of
// the model reads it), queues the Job for its controller and retries the
// pods waiting for room, as the kubelet's removal of a pod does.
type JobPodCompletion struct{ unanalysed }

var _ model.Process = JobPodCompletion{}

func (JobPodCompletion) Name() string { return "jobPodCompletion" }

func (JobPodCompletion) Enabled(u *model.Universe, s *model.State) bool {
	if !u.HasJobs || !atRest(s) {
		return false
	}
	for i := range s.Pods {
		if completes(u, s, i) {
			return true
		}
	}
	return false
}

// completes reports whether pod slot i is a Running pod of a Job, on a
// Ready node, that may succeed.
func completes(u *model.Universe, s *model.State, i int) bool {
	p := &s.Pods[i]
	return p.Phase == model.Running && p.Node != 0 && u.IsJob(int(p.Owner)-1) &&
		s.Nodes[p.Node-1].Status.Health() == model.Ready
}

// Step completes one pod; which one is a choice, identical pods (same
// Job, node and usage) counted once.
func (JobPodCompletion) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	var candidates []int
	for i := range s.Pods {
		if completes(u, s, i) {
			candidates = append(candidates, i)
		}
	}
	picked := tx.ChoosePods(s, candidates, 1)
	if len(picked) == 0 {
		return
	}
	p := picked[0]
	pod := s.Pods[p]
	d := int(pod.Owner) - 1
	ds := &s.Deps[d]
	if !jobIndexSucceeded(u, ds, &pod) && ds.JobSucceeded < model.MaxJobCount {
		ds.JobSucceeded++
	}
	s.ForgetPod(p)
	s.Enqueue(model.DeploymentQueue, d)
	model.RequestDeschedulerCycle(u, s)
	model.AssignedPodDeleted(u, s)
	if tx.Tracing() {
		tx.Log(WorkloadComponent, "Pod %s of job %s completed on node %s (succeeded %d)",
			model.PodRef{Slot: p, Pod: pod}, u.Deployments[d].Name, u.Nodes[pod.Node-1].Name, ds.JobSucceeded)
	}
}

var _ model.Footprinter = JobPodCompletion{}

// DisabledBy: the phase, then quiescence, then the pods and nodes that
// make a Running Job pod on a Ready node.
func (JobPodCompletion) DisabledBy(_ *model.Universe, s *model.State) model.Footprint {
	var rest model.Footprint
	rest.AddPods()
	rest.AddNodes()
	return atRestDisabledBy(s, rest)
}
