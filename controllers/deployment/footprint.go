package deployment

import "github.com/kivi-go/kivi/model"

var _ model.Footprinter = (*Controller)(nil)

// StaticFootprint: the whole cluster (model.ClusterFootprint).
func (*Controller) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	f := model.ClusterFootprint()
	return f, f
}

// StepFootprint is the static footprint.
func (c *Controller) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return c.StaticFootprint(u)
}

// DisabledBy: a busy kubelet queue (only the kubelet empties it), else
// an empty deployment queue.
func (*Controller) DisabledBy(_ *model.Universe, s *model.State) model.Footprint {
	if !s.Empty(model.KubeletQueue) {
		return model.QueueFootprint(model.KubeletQueue)
	}
	return model.QueueFootprint(model.DeploymentQueue)
}
