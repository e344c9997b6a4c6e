package nodelifecycle

import "github.com/kivi-go/kivi/model"

var (
	_ model.Footprinter = (*NodeController)(nil)
	_ model.Footprinter = (*TaintManager)(nil)
)

// DisabledBy: the node controller waits for its queue.
func (*NodeController) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.QueueFootprint(model.NodeControllerQueue)
}

// DisabledBy: the taint manager waits for its queue.
func (*TaintManager) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.QueueFootprint(model.TaintManagerQueue)
}
