package hpa

import "github.com/kivi-go/kivi/model"

// The HPA's footprints are the whole cluster (model.ClusterWide).
var _ model.Footprinter = (*HPA)(nil)

// DisabledBy: the first busy core queue, else the empty HPA queue. The
// HPA's other trigger, re-syncing a deployment its window held back
// (HPAHeld) or whose behavior memory ages (HPAMemory), needs an empty HPA
// queue too and both are set only by the HPA itself, so while the queue
// stays empty a disabled HPA stays disabled. An HPA reading a metric
// outside the model also syncs in a quiescent state whenever that would
// change something, which depends on the pods and the deployments, and
// so do the HPAs of a workload that several scale (ambiguous.go): then
// any write may enable it.
func (*HPA) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	if f, busy := model.ControllerQueuesDisabledBy(s); busy {
		return f
	}
	if model.HasUnknownHPAMetric(u) || hasAmbiguous(u) {
		return model.ClusterFootprint()
	}
	return model.QueueFootprint(model.HPAQueue)
}
