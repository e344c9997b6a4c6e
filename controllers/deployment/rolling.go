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

// minAvailable is MinAvailable of a RollingUpdate deployment: the
// available pods a rollout keeps, spec − maxUnavailable.
func (f fenceposts) minAvailable(spec int) int { return spec - f.maxUnavailable(spec) }

// reconcileNew is reconcileNewReplicaSet: the new set is scaled down to
// spec if above it, else to newRSNewReplicas.
func reconcileNew(spec int, f fenceposts, newRS, oldRS replicaSet) int {
	if newRS.Replicas >= spec {
		return spec
	}
	return newRSNewReplicas(spec, f.Surge, newRS.Replicas, newRS.Replicas+oldRS.Replicas)
}

// newRSNewReplicas is NewRSNewReplicas of a RollingUpdate deployment: the
// new set (newReplicas) grows as far as spec + surge replicas in all sets
// (current) allow, never above spec; a set already at or past that total
// keeps its replicas.
func newRSNewReplicas(spec, surge, newReplicas, current int) int {
	maxTotal := spec + surge
	if current >= maxTotal {
		return newReplicas
	}
	return newReplicas + min(maxTotal-current, spec-newReplicas)
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
	minAvailable := f.minAvailable(spec)
	newUnavailable := newRS.Replicas - newRS.Available
	maxScaledDown := all - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return oldRS.Replicas
	}
	if oldRS.Available > oldRS.Replicas {
		// More available pods than spec replicas: upstream's cleanup
		// rejects the negative scale-down and the sync scales nothing.
		return oldRS.Replicas
	}
	old, _ := cleanupUnhealthyReplicas(oldRS, maxScaledDown)
	return scaleDownOldForRollingUpdate(minAvailable, newRS.Available+oldRS.Available, old)
}

// cleanupUnhealthyReplicas is cleanupUnhealthyReplicas for one old set
// with no more available pods than replicas: it sheds up to maxCleanup
// replicas that are not available and returns the set's replicas and how
// many it shed.
func cleanupUnhealthyReplicas(oldRS replicaSet, maxCleanup int) (replicas, cleaned int) {
	cleaned = max(0, min(maxCleanup, oldRS.Replicas-oldRS.Available))
	return oldRS.Replicas - cleaned, cleaned
}

// scaleDownOldForRollingUpdate is scaleDownOldReplicaSetsForRollingUpdate
// for one old set of replicas: available pods (of all sets, as the
// ReplicaSets' status reports them before this sync) above minAvailable
// go, as many as the set has.
func scaleDownOldForRollingUpdate(minAvailable, available, replicas int) int {
	if available <= minAvailable || replicas == 0 {
		return replicas
	}
	return replicas - min(replicas, available-minAvailable)
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
		if cur = createNewReplicaSet(u, s, d); cur < 0 {
			return
		}
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
