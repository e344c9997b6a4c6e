package deployment

import "github.com/kivi-go/kivi/model"

// replicaSet is what the rolling-update arithmetic reads of one set: its
// spec replicas and its available pods (status.availableReplicas:
// Running, Ready for minReadySeconds).
type replicaSet struct {
	Replicas, Available int
}

// fenceposts are a deployment's resolved maxSurge and maxUnavailable.
type fenceposts struct {
	Surge, Unavailable int
}

// resolveFenceposts is ResolveFenceposts: surge rounds up, unavailable
// down, and if both are 0 unavailable becomes 1 so a rollout can progress.
func resolveFenceposts(cfg *model.DeploymentConfig, spec int) fenceposts {
	f := fenceposts{Surge: cfg.MaxSurge.Resolve(spec, true), Unavailable: cfg.MaxUnavailable.Resolve(spec, false)}
	if f.Surge == 0 && f.Unavailable == 0 {
		f.Unavailable = 1
	}
	return f
}

// maxUnavailable is MaxUnavailable: 0 at 0 replicas, never above spec.
func (f fenceposts) maxUnavailable(spec int) int {
	if spec == 0 {
		return 0
	}
	return min(f.Unavailable, spec)
}

// reconcileNew is reconcileNewReplicaSet with NewRSNewReplicas: the new
// set is scaled down to spec if above it, else up as far as spec + surge
// total replicas allow, never above spec.
func reconcileNew(spec int, f fenceposts, newRS, oldRS replicaSet) int {
	switch {
	case newRS.Replicas == spec:
		return spec
	case newRS.Replicas > spec:
		return spec
	}
	maxTotal := spec + f.Surge
	current := newRS.Replicas + oldRS.Replicas
	if current >= maxTotal {
		return newRS.Replicas
	}
	return newRS.Replicas + min(maxTotal-current, spec-newRS.Replicas)
}

// reconcileOld is reconcileOldReplicaSets for one old set: it may shed
// replicas that are not available (cleanupUnhealthyReplicas) and then
// available ones down to spec − maxUnavailable available pods in total
// (scaleDownOldReplicaSetsForRollingUpdate), never letting the new set's
// unavailable pods push availability lower.
func reconcileOld(spec int, f fenceposts, newRS, oldRS replicaSet) int {
	if oldRS.Replicas == 0 {
		return 0
	}
	all := newRS.Replicas + oldRS.Replicas
	minAvailable := spec - f.maxUnavailable(spec)
	newUnavailable := newRS.Replicas - newRS.Available
	maxScaledDown := all - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return oldRS.Replicas
	}
	old := oldRS.Replicas
	unhealthy := old - oldRS.Available
	if unhealthy < 0 {
		// More available pods than spec replicas: upstream's cleanup
		// rejects the negative scale-down and the sync scales nothing.
		return old
	}
	old -= min(maxScaledDown, unhealthy)
	available := newRS.Available + oldRS.Available
	if available <= minAvailable || old == 0 {
		return old
	}
	return old - min(old, available-minAvailable)
}

// rolloutRolling is rolloutRolling over the model's two slots: the new set
// is created if needed, scaled up if it can be (and then the sync ends,
// as upstream returns after a scale-up, unless the set was just created
// with those replicas), else the old set is scaled down;
// a set whose size changes gets the replicas annotations (a).
func rolloutRolling(u *model.Universe, s *model.State, d int, a *model.ReplicasAnnotations) {
	ds := &s.Deps[d]
	cur := findNewReplicaSet(u, ds)
	created := cur < 0
	if created {
		cur = createNewReplicaSet(u, s, d)
	}
	makeCurrent(ds, cur, created)
	old := 1 - cur
	spec := specReplicas(ds)
	f := resolveFenceposts(&u.Configs[ds.Config], spec)
	newRS, oldRS := view(s, d, cur), view(s, d, old)
	if n := reconcileNew(spec, f, newRS, oldRS); n != newRS.Replicas {
		setReplicas(u, ds, a, cur, n, false)
		if !created {
			return
		}
		// A set this sync creates starts at those replicas
		// (getNewReplicaSet with NewRSNewReplicas), which is no scale-up:
		// the sync goes on to the old set.
		newRS = view(s, d, cur)
	}
	setReplicas(u, ds, a, old, reconcileOld(spec, f, newRS, oldRS), false)
}

// view reads slot rs of deployment d for the arithmetic.
func view(s *model.State, d, rs int) replicaSet {
	return replicaSet{Replicas: int(s.Deps[d].RS[rs].Replicas), Available: model.RSCounts(s, d, rs).Available}
}
