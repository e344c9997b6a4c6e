package deployment

import "github.com/kivi-go/kivi/model"

// rolloutRecreate is rolloutRecreate: scale every old set to 0; once no
// pod of an old set exists any more (Terminating ones included), create
// the new set if needed and scale it to spec. The kubelet's removal of
// the last old pod re-queues the deployment.
func rolloutRecreate(u *model.Universe, s *model.State, d int, a *model.ReplicasAnnotations) {
	ds := &s.Deps[d]
	cur := findNewReplicaSet(u, ds)
	if cur >= 0 {
		makeCurrent(ds, cur, false)
	}
	scaledDown := false
	for rs := range ds.RS {
		if rs != cur && ds.RS[rs].Replicas > 0 {
			setReplicas(u, ds, a, rs, 0, false)
			scaledDown = true
		}
	}
	if scaledDown {
		return
	}
	for rs := range ds.RS {
		if rs != cur && oldPodsRunning(s, d, rs) {
			return
		}
	}
	if cur < 0 {
		if cur = createNewReplicaSet(u, s, d); cur < 0 {
			return
		}
		makeCurrent(ds, cur, true)
	}
	setReplicas(u, ds, a, cur, specReplicas(ds), false)
}

// oldPodsRunning is upstream's oldPodsRunning for slot rs of deployment
// d: some pod of it that is not in a terminal phase (Failed pods do not
// hold the rollout back; Terminating ones do).
func oldPodsRunning(s *model.State, d, rs int) bool {
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase != model.Free && p.Phase != model.Failed && p.Owner == owner && int(p.RS) == rs {
			return true
		}
	}
	return false
}
