package model

// Readiness steps owner by owner. A readiness step advances one pod and
// wakes only that pod's owner (ReadinessChanged), so the steps of pods of
// different owners touch disjoint state: the readiness of their own pods
// (Footprint.AddReadiness) and, where they wake anything, the deployment
// and HPA queues. The kubelet offers them as one process per owner
// (controllers/kubelet, OwnerReadiness), which lets the partial-order
// reduction (reduction/por) take one owner's steps where the others' can
// wait (docs/reductions.md, "Readiness").

// ReadinessStepEnabledFor reports whether a readiness step of some pod of
// owner (PodState.Owner: deployment index+1, 0 for bare pods) may come in
// s (ReadinessStepEnabled); never in a universe without readiness delays.
func ReadinessStepEnabledFor(u *Universe, s *State, owner int) bool {
	if !u.readiness || !s.ControllerAndHPAQueuesEmpty() {
		return false
	}
	for i := range s.Pods {
		if int(s.Pods[i].Owner) == owner && ReadinessPending(s, i) {
			return true
		}
	}
	return false
}

// ChooseReadinessPodOf is ChooseReadinessPod among the pods of one owner.
func (tx *Tx) ChooseReadinessPodOf(s *State, owner int) int {
	var buf [16]int
	pending := buf[:0]
	for i := range s.Pods {
		if int(s.Pods[i].Owner) == owner && ReadinessStepEnabled(s, i) {
			pending = append(pending, i)
		}
	}
	if len(pending) == 0 {
		return -1
	}
	groups := identicalGroups(s, pending)
	return groups[tx.Choose(len(groups))][0]
}

// FirstReadinessPending returns the lowest pod slot whose readiness step
// is to come (ReadinessPending), or -1. While that pod's phase, node, its
// node's status and its readiness stay as they are, some pod's readiness
// is pending (AnyReadinessPending): what keeps a guard that waits for
// every readiness step disabled.
func FirstReadinessPending(u *Universe, s *State) int {
	if !u.readiness {
		return -1
	}
	for i := range s.Pods {
		if ReadinessPending(s, i) {
			return i
		}
	}
	return -1
}

// ReadinessPendingFootprint is what keeps pod slot i's readiness pending
// (ReadinessPending): its node without the readiness of that node's
// other pods (its phase, binding and the node's status) and its owner's
// readiness; an unbound pod's is the pool.
func ReadinessPendingFootprint(s *State, i int) Footprint {
	var f Footprint
	f.addPodWithoutReadiness(s, i)
	f.AddReadiness(int(s.Pods[i].Owner))
	return f
}

// ReadinessMayWakeDeployment reports whether a readiness step of a pod of
// deployment d may ever queue d for its controller (ReadinessChanged),
// starting from s: always for a StatefulSet; for a Deployment only while
// it rolls out (RolloutInProgress), which needs an old ReplicaSet, which
// the deployment controller creates only for a pod template other than
// its current set's: a template the deployment's configuration already
// differs by in s, or one an event applies (kubectl apply or create of an
// existing name, rollout restart, rollout undo). s nil: unknown, true.
func ReadinessMayWakeDeployment(u *Universe, s *State, d int) bool {
	if s == nil || d < 0 || d >= len(s.Deps) || u.IsStatefulSet(d) {
		return true
	}
	for e := range u.Events {
		switch u.Events[e].Kind {
		case ApplyDeployment, CreateDeployment, RolloutRestart, RolloutUndo:
			return true
		}
	}
	ds := &s.Deps[d]
	if ds.RS[1-ds.Cur].Template != 0 {
		return true
	}
	return int(ds.RS[ds.Cur].Template) != u.Configs[ds.Config].PodTemplate+1
}
