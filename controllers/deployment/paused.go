package deployment

import "github.com/kivi-go/kivi/model"

// syncPaused is upstream's sync of a paused deployment (syncDeployment
// calls sync while spec.paused is set, v1.36): the ReplicaSet of the
// deployment's template, if it has one, is its new set (a template set
// back to an existing set's makes that set current, as a rollback would),
// none is created (getAllReplicaSetsAndSyncRevision with
// createIfNotExisted false), and the sets it has are scaled to
// spec.replicas (scale). Nothing is rolled out until it is resumed.
func syncPaused(tx *model.Tx, s *model.State, d int, a *model.ReplicasAnnotations) {
	ds := &s.Deps[d]
	newRS := findNewReplicaSet(tx.U, ds)
	if newRS >= 0 {
		makeCurrent(ds, newRS, false)
	} else if tx.Tracing() {
		tx.Log(Component, "Deployment %s is paused: no ReplicaSet of its pod template is created until it is resumed", tx.U.Deployments[d].Name)
	}
	scale(tx, s, d, a, newRS)
}

// latestReplicaSet is the set FindActiveOrLatest returns when no set is
// active: the new set (newRS, the slot of the deployment's template), else
// the newest old set by creation time; -1 when the deployment has no set.
func latestReplicaSet(ds *model.DeploymentState, newRS int) int {
	if newRS >= 0 {
		return newRS
	}
	cur, other := int(ds.Cur), 1-int(ds.Cur)
	switch {
	case ds.RS[cur].Template == 0 && ds.RS[other].Template == 0:
		return -1
	case ds.RS[other].Template == 0:
		return cur
	case ds.RS[cur].Template == 0:
		return other
	case ds.NewRSOlder:
		return other
	}
	return cur
}

// saturated is IsSaturated of slot k: its replicas and its
// desired-replicas annotation are spec.replicas, and so many of its pods
// are available.
func saturated(s *model.State, d int, a *model.ReplicasAnnotations, k int) bool {
	spec := specReplicas(&s.Deps[d])
	return int(s.Deps[d].RS[k].Replicas) == spec && a.Desired == spec && model.RSCounts(s, d, k).Available == spec
}
