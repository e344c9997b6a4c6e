package deployment

import "github.com/kivi-go/kivi/model"

// findNewReplicaSet returns the slot whose template is the deployment's
// pod template, or -1 (FindNewReplicaSet: templates are compared, so
// going back to the previous template reuses its ReplicaSet, a rollback).
func findNewReplicaSet(u *model.Universe, ds *model.DeploymentState) int {
	want := uint8(u.Configs[ds.Config].PodTemplate + 1)
	cur := int(ds.Cur)
	switch want {
	case ds.RS[cur].Template:
		return cur
	case ds.RS[1-cur].Template:
		return 1 - cur
	}
	return -1
}

// createNewReplicaSet starts a ReplicaSet at 0 replicas for the
// deployment's template and returns its slot, or -1 when the model has
// no slot for it (a bound is reached). A deployment that never had a set
// uses its current slot. Otherwise the new set takes the other slot. If
// that slot still holds an older revision with replicas or pods,
// Kubernetes would now have three ReplicaSets and the model has two per
// deployment. That revision is merged into the current slot first, so
// the two older revisions are rolled out of as one old set (their pods
// keep their own templates), when that changes nothing Kubernetes does
// (mergeChangesNothing) or under Options.MergeOldRevisions; otherwise
// the step reaches BoundReplicaSetRevisions.
func createNewReplicaSet(u *model.Universe, s *model.State, d int) int {
	ds := &s.Deps[d]
	want := uint8(u.Configs[ds.Config].PodTemplate + 1)
	cur := int(ds.Cur)
	if ds.RS[cur].Template == 0 && !slotInUse(s, d, cur) {
		ds.RS[cur] = model.ReplicaSetState{Template: want}
		return cur
	}
	other := 1 - cur
	if slotInUse(s, d, other) {
		if !u.Options.MergeOldRevisions && !mergeChangesNothing(u, s, d, other) {
			s.ReachBound(model.BoundReplicaSetRevisions)
			return -1
		}
		mergeInto(s, d, other, cur)
	}
	ds.RS[other] = model.ReplicaSetState{Template: want}
	return other
}

// mergeInto moves the pods and replicas of slot from into slot to.
func mergeInto(s *model.State, d, from, to int) {
	ds := &s.Deps[d]
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase != model.Free && p.Owner == owner && int(p.RS) == from {
			p.RS = uint8(to)
		}
	}
	ds.RS[to].Replicas += ds.RS[from].Replicas
	ds.RS[from] = model.ReplicaSetState{}
}

// mergeChangesNothing: slot rs of deployment d has no replicas and no
// active pod, only Terminating or Failed ones. Kubernetes' ReplicaSet of
// that revision then has nothing its controllers count or act on: the
// ReplicaSet controller and the Deployment controller's scale-downs and
// proportional scaling skip a set of 0 replicas and count active pods
// only, so rolling out of it merged with the next older set is rolling
// out of that set alone. The descheduler's minReplicas is the exception:
// it counts every pod of a ReplicaSet, those terminating or failed too.
func mergeChangesNothing(u *model.Universe, s *model.State, d, rs int) bool {
	if s.Deps[d].RS[rs].Replicas != 0 || countsOwnerPods(u.Descheduler) {
		return false
	}
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Active() && p.Owner == owner && int(p.RS) == rs {
			return false
		}
	}
	return true
}

// countsOwnerPods: some profile of descheduler ds protects pods by
// minReplicas, which counts the pods of each owner.
func countsOwnerPods(ds *model.Descheduler) bool {
	if ds == nil {
		return false
	}
	for i := range ds.Profiles {
		if ds.Profiles[i].Evictor.MinReplicas > 1 {
			return true
		}
	}
	return false
}

// slotInUse: ReplicaSet slot rs of deployment d has replicas or still
// owns pods (of any phase, Terminating included).
func slotInUse(s *model.State, d, rs int) bool {
	if s.Deps[d].RS[rs].Replicas > 0 {
		return true
	}
	return hasPods(s, d, rs)
}

// hasPods: some pod (any phase but Free) belongs to slot rs of d.
func hasPods(s *model.State, d, rs int) bool {
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase != model.Free && p.Owner == owner && int(p.RS) == rs {
			return true
		}
	}
	return false
}
