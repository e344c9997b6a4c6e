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
	f := model.QueueFootprint(model.DeploymentQueue)
	if len(u.ResourceQuotas) > 0 {
		// A quota may get room whenever a pod changes (quota.go), and
		// a deployment's ReplicaSets may fall short of a new count.
		f.AddPods()
		f.AddDeployments()
	}
	return f
}
