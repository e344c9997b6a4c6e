package nodelifecycle

import "github.com/kivi-go/kivi/model"

var (
	_ model.Footprinter = (*NodeController)(nil)
	_ model.Footprinter = (*TaintManager)(nil)
)

// StaticFootprint: the whole cluster (model.ClusterFootprint).
func (*NodeController) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	f := model.ClusterFootprint()
	return f, f
}

// StepFootprint is the static footprint.
func (c *NodeController) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return c.StaticFootprint(u)
}

// DisabledBy: the node controller waits for its queue.
func (*NodeController) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.QueueFootprint(model.NodeControllerQueue)
}

// StaticFootprint: the whole cluster (model.ClusterFootprint).
func (*TaintManager) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	f := model.ClusterFootprint()
	return f, f
}

// StepFootprint is the static footprint.
func (t *TaintManager) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return t.StaticFootprint(u)
}

// DisabledBy: the taint manager waits for its queue.
func (*TaintManager) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.QueueFootprint(model.TaintManagerQueue)
}
