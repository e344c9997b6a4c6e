package model

// ReplicasAnnotations are the deployment.kubernetes.io/desired-replicas and
// max-replicas annotations the deployment controller writes on a
// Deployment's ReplicaSets whenever it scales one (SetReplicasAnnotations
// in pkg/controller/deployment/util, v1.36): the Deployment's spec.replicas
// and spec.replicas + maxSurge at that moment. A sync whose active sets
// (replicas > 0) carry a desired-replicas value other than spec.replicas is
// a scaling event, and a scaling event during a rollout scales the active
// sets in proportion to their sizes, reading max-replicas.
//
// The active sets of a deployment always carry the same desired-replicas
// value: a sync is a scaling event as soon as one active set differs, and
// that sync rewrites every active set (or the only one); any other sync
// writes spec.replicas, which every active set already carries, and a set
// that becomes active is written as it does. The value of an inactive set
// is never read (it is rewritten before the set is active again), so one
// Desired value per deployment is the whole of it.
// Max-replicas depends on the configuration the write used, so it is kept
// per ReplicaSet slot.
type ReplicasAnnotations struct {
	// Desired is the desired-replicas value of the active sets.
	Desired int
	// Max is each slot's max-replicas value.
	Max [2]int
}

// MaxSurge is upstream's MaxSurge: cfg's maxSurge resolved against spec
// (rounded up) for a RollingUpdate deployment, 0 for Recreate.
func MaxSurge(cfg *DeploymentConfig, spec int) int {
	if cfg.Strategy != RollingUpdate {
		return 0
	}
	return cfg.MaxSurge.Resolve(spec, true)
}

// Annotations returns the replicas annotations of ds, a deployment of u.
//
// The state stores them canonically, so that the annotations of a
// deployment that is not rolling out add nothing to the state:
// DesiredReplicas 0 stands for the current set's replicas (the value a
// settled deployment carries), and MaxReplicas[k] 0 for Desired + the
// current configuration's MaxSurge at Desired (the value the last write
// gave unless the configuration changed since; ApplyConfig keeps it).
// Both are also 0 when no set is active, and MaxReplicas[k] when set k is
// not, since those values are never read. Any other value v is stored as
// v + 1.
func (ds *DeploymentState) Annotations(u *Universe) ReplicasAnnotations {
	a := ReplicasAnnotations{Desired: int(ds.DesiredReplicas) - 1}
	if ds.DesiredReplicas == 0 {
		a.Desired = int(ds.RS[ds.Cur].Replicas)
	}
	implied := a.Desired + MaxSurge(&u.Configs[ds.Config], a.Desired)
	for k := range a.Max {
		a.Max[k] = int(ds.MaxReplicas[k]) - 1
		if ds.MaxReplicas[k] == 0 {
			a.Max[k] = implied
		}
	}
	return a
}

// SetAnnotations stores a in ds canonically (Annotations).
func (ds *DeploymentState) SetAnnotations(u *Universe, a ReplicasAnnotations) {
	var active [2]bool
	any := false
	for k := range ds.RS {
		active[k] = ds.RS[k].Replicas > 0
		any = any || active[k]
	}
	var desired int16
	var maxReplicas [2]int16
	if any {
		if a.Desired != int(ds.RS[ds.Cur].Replicas) {
			desired = int16(a.Desired + 1)
		}
		implied := a.Desired + MaxSurge(&u.Configs[ds.Config], a.Desired)
		for k := range a.Max {
			if active[k] && a.Max[k] != implied {
				maxReplicas[k] = int16(a.Max[k] + 1)
			}
		}
	}
	ds.DesiredReplicas, ds.MaxReplicas = desired, maxReplicas
}

// ApplyConfig makes configuration cfg the deployment's (kubectl apply)
// keeping its ReplicaSets' annotations: a changed maxSurge applies to the
// next writes only, as upstream's.
func (ds *DeploymentState) ApplyConfig(u *Universe, cfg int) {
	a := ds.Annotations(u)
	ds.Config = uint8(cfg)
	ds.SetAnnotations(u, a)
}
