package hpa

import "github.com/kivi-go/kivi/model"

var _ model.Footprinter = (*HPA)(nil)

// StaticFootprint: the HPA reads pods and deployments and waits for the
// core queues; it writes spec.replicas (deployments), its own and the
// deployment queue, and may fail the state.
func (*HPA) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	f := model.ClusterFootprint()
	return f, f
}

// StepFootprint is the static footprint.
func (h *HPA) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return h.StaticFootprint(u)
}

// DisabledBy: the first busy core queue, else the empty HPA queue.
func (*HPA) DisabledBy(_ *model.Universe, s *model.State) model.Footprint {
	if f, busy := model.Quiet4DisabledBy(s); busy {
		return f
	}
	return model.QueueFootprint(model.HPAQueue)
}
