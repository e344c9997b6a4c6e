package kubelet

import "github.com/kivi-go/kivi/model"

// OwnerReadiness is PodReadiness for the pods of one owner: the same
// steps (a probe or gate passes, minReadySeconds passes, at quiescence),
// restricted to pods whose PodState.Owner is Owner. The composition runs
// one per owner instead of one PodReadiness, so that each owner's steps
// have their own footprint (the readiness of its pods, and the queues it
// may wake) and the partial-order reduction can tell the owners' steps
// apart (model/readinessowner.go).
type OwnerReadiness struct {
	// Owner is the pods' PodState.Owner: a deployment index+1, 0 for
	// bare pods.
	Owner int
	// WakesDeployment: a step may queue the owner for its controller
	// (model.ReadinessMayWakeDeployment).
	WakesDeployment bool
}

// NewOwnerReadiness returns the readiness process of the pods of owner
// (index+1, 0 for bare pods); wakesDeployment is
// model.ReadinessMayWakeDeployment of the owner's deployment.
func NewOwnerReadiness(owner int, wakesDeployment bool) *OwnerReadiness {
	return &OwnerReadiness{Owner: owner, WakesDeployment: wakesDeployment && owner > 0}
}

// Name is the process name, PodReadiness's: traces name the step alike.
func (*OwnerReadiness) Name() string { return "PodReadiness" }

// Enabled: some pod of the owner may take its readiness step
// (model.ReadinessStepEnabledFor).
func (r *OwnerReadiness) Enabled(u *model.Universe, s *model.State) bool {
	return model.ReadinessStepEnabledFor(u, s, r.Owner)
}

// Step advances one of the owner's pending pods, a choice as in
// PodReadiness.Step.
func (r *OwnerReadiness) Step(tx *model.Tx, s *model.State) {
	advanceReadiness(tx, s, tx.ChooseReadinessPodOf(s, r.Owner))
}

var _ model.Footprinter = (*OwnerReadiness)(nil)

// StaticFootprint: reads the owner's pods (where they are, their nodes'
// status, their readiness: model.Footprint.AddOwnerPods), every queue
// (quiescence; identicalGroups tells queued pods apart) and, when it may
// wake it, the owner's deployment (the rollout check); writes the
// readiness of the owner's pods and the queues it may wake: the
// deployment queue when WakesDeployment, the HPA queue when the universe
// has an HPA (model.ReadinessChanged; a bare pod wakes nothing).
func (r *OwnerReadiness) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	reads.AddOwnerPods(r.Owner)
	reads.AddQueues()
	writes.AddReadiness(r.Owner)
	if r.WakesDeployment {
		reads.AddDeployment(r.Owner - 1)
		writes.AddQueue(model.DeploymentQueue)
	}
	if u.HasHPA && r.Owner > 0 {
		writes.AddQueue(model.HPAQueue)
	}
	if u.ReadinessRequestsDescheduler() {
		// The request's effect depends on whether one is pending.
		reads.Add(model.CompDeschedulerPending)
		writes.Add(model.CompDeschedulerPending)
	}
	return reads, writes
}

// StepFootprint is the static footprint.
func (r *OwnerReadiness) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return r.StaticFootprint(u)
}

// DisabledBy: a busy queue while the cluster is not quiescent, else the
// owner's pods (a pod of it starting, its node coming back, its
// readiness); nothing in a universe without readiness delays.
func (r *OwnerReadiness) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	var f model.Footprint
	if !u.HasReadiness() {
		return f
	}
	for _, q := range [...]model.Queue{model.NodeControllerQueue, model.SchedulerQueue, model.KubeletQueue, model.DeploymentQueue, model.HPAQueue} {
		if !s.Empty(q) {
			return model.QueueFootprint(q)
		}
	}
	f.AddOwnerPods(r.Owner)
	return f
}
