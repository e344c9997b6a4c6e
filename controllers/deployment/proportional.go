package deployment

import "github.com/kivi-go/kivi/model"

// isScalingEvent is upstream's isScalingEvent: some active ReplicaSet
// (replicas > 0) carries a desired-replicas annotation other than the
// deployment's spec.replicas. The active sets share that annotation
// (model.ReplicasAnnotations).
func isScalingEvent(ds *model.DeploymentState, a *model.ReplicasAnnotations) bool {
	return (ds.RS[0].Replicas > 0 || ds.RS[1].Replicas > 0) && a.Desired != specReplicas(ds)
}

// setReplicas is scaleReplicaSet: slot k gets n replicas, and when its
// size changes, or when force is set (the proportional scale's updates),
// the replicas annotations of the deployment's spec and maxSurge.
func setReplicas(u *model.Universe, ds *model.DeploymentState, a *model.ReplicasAnnotations, k, n int, force bool) {
	if !force && int(ds.RS[k].Replicas) == n {
		return
	}
	spec := specReplicas(ds)
	ds.RS[k].Replicas = int16(n)
	a.Desired = spec
	a.Max[k] = spec + model.MaxSurge(&u.Configs[ds.Config], spec)
}

// scale is upstream's scale (sync.go, v1.36) over the model's two slots,
// run on a scaling event instead of the rollout and at every sync of a
// paused deployment (syncPaused). newRS is the slot of the deployment's
// template, -1 when it has none.
//
// With one active set (FindActiveOrLatest) that set is scaled to spec;
// with none, the latest set (latestReplicaSet), which only a paused
// deployment's sync meets (a scaling event needs an active set). A
// saturated new set (IsSaturated: its replicas, its desired-replicas
// annotation and its available pods all spec) has the old sets scaled to
// 0; only a paused deployment meets that too, since on a scaling event the
// active sets' shared annotation differs from spec.
// Otherwise a RollingUpdate
// deployment scales its active sets in proportion: the allowed total
// spec + maxSurge (0 at spec 0) minus their replicas is distributed from
// the largest set to the smallest (equal sizes: the newer first when
// adding, the older first when removing), each set's share its replicas
// × (spec + maxSurge) / its max-replicas annotation, rounded, minus its
// replicas, capped by what is left; the rounding leftover goes to the
// first set, never below 0; every active set is rewritten. A Recreate
// deployment with two active sets is left as it is.
func scale(tx *model.Tx, s *model.State, d int, a *model.ReplicasAnnotations, newRS int) {
	u := tx.U
	ds := &s.Deps[d]
	spec := specReplicas(ds)
	var active []int
	for k := range ds.RS {
		if ds.RS[k].Replicas > 0 {
			active = append(active, k)
		}
	}
	switch len(active) {
	case 0:
		if k := latestReplicaSet(ds, newRS); k >= 0 {
			if tx.Tracing() && spec > 0 {
				tx.Log(Component, "Deployment %s is paused: scaling its latest ReplicaSet (rs %d) from 0 to %d", u.Deployments[d].Name, k, spec)
			}
			setReplicas(u, ds, a, k, spec, false)
		}
		return
	case 1:
		k := active[0]
		if from := int(ds.RS[k].Replicas); from != spec && tx.Tracing() {
			switch {
			case u.IsPaused(s, d):
				tx.Log(Component, "Deployment %s is paused: scaling its ReplicaSet (rs %d) from %d to %d", u.Deployments[d].Name, k, from, spec)
			case k != newRS:
				// Only an old set: the template changed with spec.replicas.
				tx.Log(Component, "Deployment %s scaled to %d before its rollout: scaling its old ReplicaSet (rs %d) from %d to %d",
					u.Deployments[d].Name, spec, k, from, spec)
			}
		}
		setReplicas(u, ds, a, k, spec, false)
		return
	}
	if newRS >= 0 && saturated(s, d, a, newRS) {
		old := 1 - newRS
		if tx.Tracing() {
			tx.Log(Component, "Deployment %s is paused with its new ReplicaSet (rs %d) saturated: scaling its old ReplicaSet (rs %d) from %d to 0", u.Deployments[d].Name, newRS, old, ds.RS[old].Replicas)
		}
		setReplicas(u, ds, a, old, 0, false)
		return
	}
	cfg := &u.Configs[ds.Config]
	if cfg.Strategy != model.RollingUpdate {
		return
	}
	allowed := 0
	if spec > 0 {
		allowed = spec + model.MaxSurge(cfg, spec)
	}
	total := 0
	for _, k := range active {
		total += int(ds.RS[k].Replicas)
	}
	toAdd := allowed - total
	order := sizeOrder(ds, toAdd)
	var size [2]int
	added := 0
	for _, k := range order {
		size[k] = int(ds.RS[k].Replicas)
		if toAdd != 0 {
			p := replicaSetProportion(ds, a, cfg, k, toAdd, added)
			size[k] += p
			added += p
		}
	}
	if toAdd != 0 {
		size[order[0]] = max(0, size[order[0]]+toAdd-added)
	}
	if tx.Tracing() && (size[0] != int(ds.RS[0].Replicas) || size[1] != int(ds.RS[1].Replicas)) {
		tx.Log(Component, "Deployment %s scaled to %d during a rollout: scaling its ReplicaSets in proportion, rs %d from %d to %d, rs %d from %d to %d",
			u.Deployments[d].Name, spec, order[0], ds.RS[order[0]].Replicas, size[order[0]], order[1], ds.RS[order[1]].Replicas, size[order[1]])
	}
	for _, k := range order {
		setReplicas(u, ds, a, k, size[k], true)
	}
}

// sizeOrder is the order upstream scales the two (active) slots in:
// ReplicaSetsBySizeNewer when adding replicas, ReplicaSetsBySizeOlder when
// removing them (larger first, equal sizes by creation time), and the
// listing order when there is nothing to distribute, where it does not
// matter.
func sizeOrder(ds *model.DeploymentState, toAdd int) []int {
	cur, other := int(ds.Cur), 1-int(ds.Cur)
	older, newer := other, cur
	if ds.NewRSOlder {
		older, newer = cur, other
	}
	first, second := older, newer
	switch r0, r1 := ds.RS[older].Replicas, ds.RS[newer].Replicas; {
	case r1 > r0:
		first, second = newer, older
	case r1 == r0 && toAdd > 0:
		first, second = newer, older
	}
	return []int{first, second}
}

// replicaSetProportion is GetReplicaSetProportion for slot k: its share of
// toAdd replicas, added of which are already given out.
func replicaSetProportion(ds *model.DeploymentState, a *model.ReplicasAnnotations, cfg *model.DeploymentConfig, k, toAdd, added int) int {
	replicas := int(ds.RS[k].Replicas)
	if replicas == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := replicaSetFraction(ds, a, cfg, k)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// replicaSetFraction is getReplicaSetFraction: at spec 0 the whole set
// goes; otherwise the set's replicas scaled by (spec + maxSurge) over its
// max-replicas annotation, rounded half away from zero
// (integer.RoundToInt32), minus its replicas.
func replicaSetFraction(ds *model.DeploymentState, a *model.ReplicasAnnotations, cfg *model.DeploymentConfig, k int) int {
	spec := specReplicas(ds)
	replicas := int(ds.RS[k].Replicas)
	if spec == 0 {
		return -replicas
	}
	maxReplicas := spec + model.MaxSurge(cfg, spec)
	// The model's active sets always carry the annotation, and it is
	// positive (upstream falls back to status.replicas without one).
	before := a.Max[k]
	if before <= 0 {
		return 0
	}
	num := replicas * maxReplicas
	return (2*num+before)/(2*before) - replicas
}
