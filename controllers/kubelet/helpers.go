package kubelet

import "github.com/kivi-go/kivi/model"

// A derived rollout predicate that belongs in package model; kept
// private here until model grows it.

// rolloutInProgress reports whether deployment d still has an old
// ReplicaSet with replicas or pods: the deployment controller then waits
// for new pods to become available before scaling the old set down.
func rolloutInProgress(s *model.State, d int) bool {
	ds := &s.Deps[d]
	old := 1 - int(ds.Cur)
	if ds.RS[old].Template == 0 {
		return false
	}
	if ds.RS[old].Replicas > 0 {
		return true
	}
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase != model.Free && p.Owner == owner && int(p.RS) == old {
			return true
		}
	}
	return false
}
