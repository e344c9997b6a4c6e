package kubelet

import "github.com/kivi-go/kivi/model"

// PodReadiness reports a Running pod's readiness as it changes after the
// start: the kubelet's prober sets the Ready condition once a
// readinessProbe (after a startupProbe) succeeds or the readinessGates'
// conditions are True, and a Ready pod is available once it has been
// Ready for its workload's minReadySeconds (IsPodAvailable; the
// ReplicaSet and StatefulSet controllers re-sync after that delay). One
// pod per step, any pod whose step may come (model.ReadinessStepEnabled):
// the model has no clock, so a probe passes, and minReadySeconds passes,
// at quiescence, where the model lets time pass. Probes never fail once passed (docs/divergences.md). It runs only
// in universes where some template delays readiness
// (model.Universe.HasReadiness); elsewhere every pod is Ready and
// Available when it starts.
type PodReadiness struct{}

// NewReadiness returns the readiness process.
func NewReadiness() *PodReadiness { return &PodReadiness{} }

// Name is the process name.
func (*PodReadiness) Name() string { return "PodReadiness" }

// Enabled: some pod's readiness step may come
// (model.ReadinessStepEnabled: a probe at any time, minReadySeconds at
// quiescence).
func (*PodReadiness) Enabled(u *model.Universe, s *model.State) bool {
	return model.AnyReadinessStep(u, s)
}

// Step advances one pod, a choice among the pending ones: not Ready to
// Ready (and Available at once without minReadySeconds), or Ready to
// Available; its controllers are woken (model.ReadinessChanged).
func (*PodReadiness) Step(tx *model.Tx, s *model.State) {
	advanceReadiness(tx, s, tx.ChooseReadinessPod(s))
}

// advanceReadiness is the readiness step of pod slot i (none for -1).
func advanceReadiness(tx *model.Tx, s *model.State, i int) {
	if i < 0 {
		return
	}
	u := tx.U
	p := &s.Pods[i]
	t := &u.Templates[p.Template]
	was := p.Readiness
	p.Readiness = t.NextReadiness(was)
	model.ReadinessChanged(u, s, i)
	if was == model.PodNotReady && u.ReadinessRequestsDescheduler() {
		// A disruption budget counts the pod healthy now: an eviction the
		// descheduler's last cycle saw refused may pass.
		model.RequestDeschedulerCycle(u, s)
	}
	if !tx.Tracing() {
		return
	}
	switch {
	case was == model.PodReadyNotAvailable:
		tx.Log(Component, "Pod %s on node %s is Available: Ready for minReadySeconds (%d s)", s.PodRef(i), nodeName(u, p.Node), t.MinReadySeconds)
	case p.Readiness == model.PodReadyNotAvailable:
		tx.Log(Component, "Pod %s on node %s becomes Ready (readiness probe succeeded); Available after minReadySeconds (%d s)", s.PodRef(i), nodeName(u, p.Node), t.MinReadySeconds)
	default:
		tx.Log(Component, "Pod %s on node %s becomes Ready (readiness probe succeeded)", s.PodRef(i), nodeName(u, p.Node))
	}
}

var _ model.Footprinter = (*PodReadiness)(nil)

// StaticFootprint: every pod and node (the pods it advances, their nodes'
// status, the rollout check over a deployment's pods), every deployment
// (the rollout check), every queue (quiescence; identicalGroups tells
// queued pods apart), and the deployment and HPA queues it wakes.
func (*PodReadiness) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	var r model.Footprint
	r.AddPods()
	r.AddDeployments()
	r.AddQueues()
	var w model.Footprint
	w.AddPods()
	w.AddQueue(model.DeploymentQueue)
	w.AddQueue(model.HPAQueue)
	if u.ReadinessRequestsDescheduler() {
		// The request's effect depends on whether one is pending.
		r.Add(model.CompDeschedulerPending)
		w.Add(model.CompDeschedulerPending)
	}
	return r, w
}

// StepFootprint is the static footprint.
func (p *PodReadiness) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return p.StaticFootprint(u)
}

// DisabledBy: a pod's phase or readiness, its node's status, or the
// queues (quiescence) enable it; a universe without readiness delays
// never does.
func (*PodReadiness) DisabledBy(u *model.Universe, _ *model.State) model.Footprint {
	var f model.Footprint
	if u.HasReadiness() {
		f.AddPods()
		f.AddQueues()
	}
	return f
}

// startedReadiness is what the start's trace line adds for a pod that is
// not Ready and Available at once.
func startedReadiness(p *model.PodState) string {
	switch p.Readiness {
	case model.PodNotReady:
		return " (Running, not Ready until its readiness probe succeeds)"
	case model.PodReadyNotAvailable:
		return " (Ready, Available after minReadySeconds)"
	}
	return ""
}
