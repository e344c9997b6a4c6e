package hpa

import "github.com/kivi-go/kivi/model"

// Component is the HPA's trace component (Kivi's text).
const Component = "HPA"

// HPA is the horizontal pod autoscaler process. It drains the HPA queue
// while the core controllers are quiet.
type HPA struct{}

// New returns the HPA process.
func New() *HPA { return &HPA{} }

// Name is Kivi's process name.
func (*HPA) Name() string { return "HPA" }

// Enabled: the HPA queue has work and the node-controller, scheduler,
// kubelet and deployment queues are empty (Kivi's Q4-empty clause; its
// clock clause is dropped, docs/model.md).
func (*HPA) Enabled(_ *model.Universe, s *model.State) bool {
	return !s.Empty(model.HPAQueue) && s.Quiet4()
}

// Step drains the HPA queue. A rescale enqueues the deployment, which
// makes the guard false and ends the step.
func (h *HPA) Step(tx *model.Tx, s *model.State) {
	for h.Enabled(tx.U, s) {
		d, _ := s.Dequeue(model.HPAQueue)
		if d >= len(s.Deps) {
			s.Fail(model.FailInternal, d)
			return
		}
		reconcile(tx, s, d)
	}
}

// reconcile is one HPA sync of deployment d (reconcileAutoscaler).
func reconcile(tx *model.Tx, s *model.State, d int) {
	ds := &s.Deps[d]
	if !ds.Active || ds.HPA == 0 {
		return
	}
	spec := &tx.U.HPAs[ds.HPA-1]
	current := int(ds.Replicas)
	desired, ok := Desired(tx.U, s, d, spec, current)
	if !ok || desired == current {
		return
	}
	ds.Replicas = int16(desired)
	s.Enqueue(model.DeploymentQueue, d)
	if tx.Tracing() {
		tx.Log(Component, "Need to rescale, pod number change from %d to %d", current, desired)
	}
}

// Desired is the replica count the HPA wants for deployment d at current
// spec replicas; ok is false when it makes no recommendation (invalid
// metrics).
func Desired(u *model.Universe, s *model.State, d int, spec *model.HPA, current int) (desired int, ok bool) {
	b := Bounds{Min: spec.Min, Max: spec.Max}
	if desired, decided := EntryCase(current, b); decided {
		return desired, true
	}
	proposals := make([]Proposal, len(spec.Metrics))
	tol := Symmetric(spec.TolerancePercent)
	for i, m := range spec.Metrics {
		pods := groupPods(u, s, d, m.Resource)
		switch m.Target {
		case model.Utilization:
			proposals[i] = UtilizationReplicas(current, m.Value, tol, pods)
		case model.AverageValue:
			proposals[i] = AverageValueReplicas(current, m.Value, tol, pods)
		}
	}
	proposal, ok := CombineProposals(current, proposals)
	if !ok {
		return current, false
	}
	return Normalize(current, proposal, b), true
}
