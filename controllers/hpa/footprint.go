package hpa

import "github.com/kivi-go/kivi/model"

// The HPA's footprints are the whole cluster (model.ClusterWide).
var _ model.Footprinter = (*HPA)(nil)

// DisabledBy: the first busy core queue, else the empty HPA queue. The
// HPA's other trigger, re-syncing a deployment its window held back
// (HPAHeld) or whose behavior memory ages (HPAMemory), needs an empty HPA
// queue too and both are set only by the HPA itself, so while the queue
// stays empty a disabled HPA stays disabled.
func (*HPA) DisabledBy(_ *model.Universe, s *model.State) model.Footprint {
	if f, busy := model.ControllerQueuesDisabledBy(s); busy {
		return f
	}
	return model.QueueFootprint(model.HPAQueue)
}
