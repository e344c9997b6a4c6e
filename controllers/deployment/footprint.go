package deployment

import "github.com/kivi-go/kivi/model"

var _ model.Footprinter = (*Controller)(nil)

// DisabledBy: a busy kubelet queue under Kivi's lifecycle (only the
// kubelet empties it), else an empty deployment queue.
func (*Controller) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	if u.Options.KiviLifecycle && !s.Empty(model.KubeletQueue) {
		return model.QueueFootprint(model.KubeletQueue)
	}
	if !s.Empty(model.DeploymentQueue) && waitsForCollection(u, s) {
		// Waiting for the collector: any pod slot may free.
		var f model.Footprint
		f.AddPods()
		return f
	}
	return model.QueueFootprint(model.DeploymentQueue)
}
