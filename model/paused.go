package model

import (
	"fmt"
	"math"
)

// A paused Deployment (spec.paused: true) is one the Deployment controller
// does not roll out (pkg/controller/deployment, v1.36: syncDeployment
// calls sync instead of the strategy's rollout). Its sync finds the
// ReplicaSet of its pod template but never creates one
// (getAllReplicaSetsAndSyncRevision with createIfNotExisted false), and
// scales the sets it has to spec.replicas (scale: the only active set, or
// every active set of a RollingUpdate Deployment in proportion). So a
// Deployment created paused has no ReplicaSet and no pods, and a pod
// template changed while paused waits for `kubectl rollout resume`. The
// ReplicaSet controller keeps the sets' pods at their replicas as usual.
//
// The state carries the bit (DeploymentState.Paused) only in universes
// where some Deployment may be paused: its manifest or an applied file
// sets spec.paused, or `kubectl rollout pause` or `resume` is an event.
// Elsewhere no Deployment is ever paused and the states stay as they
// were.

// pausable reports whether the states of u carry DeploymentState.Paused.
func pausable(u *Universe) bool {
	for i := range u.Deployments {
		if u.Deployments[i].Paused {
			return true
		}
	}
	for i := range u.DeploymentTemplates {
		if p := u.DeploymentTemplates[i].Paused; p != nil && *p {
			return true
		}
	}
	for i := range u.Events {
		if k := u.Events[i].Kind; k == RolloutPause || k == RolloutResume {
			return true
		}
	}
	return false
}

// IsPaused reports whether deployment d is paused in s.
func (u *Universe) IsPaused(s *State, d int) bool {
	return u.pausable && s.Deps[d].Paused
}

// SetPaused sets deployment d's spec.paused in s, where the states carry
// it: elsewhere nothing ever pauses a Deployment (pausable), so paused is
// false.
func (u *Universe) SetPaused(s *State, d int, paused bool) {
	if u.pausable {
		s.Deps[d].Paused = paused
	}
}

// PausedAfterApply is spec.paused of deployment d once `kubectl apply`
// or `kubectl create` of deployment template t has updated it. A file
// that sets the field sets it; one that leaves it out keeps the live
// value, as kubectl apply's three-way merge does with a field neither the
// file nor the configuration applied last sets, except where the
// configuration applied last set it (the manifest the Deployment started
// from, until an apply saves another): a field it set and the new file
// leaves out is deleted (false). A `kubectl rollout pause` changes the
// live value only, so a later apply of a file without the field keeps the
// Deployment paused.
func (u *Universe) PausedAfterApply(s *State, d, t int, created bool) bool {
	if p := u.DeploymentTemplates[t].Paused; p != nil {
		return *p
	}
	if created || u.LastAppliedSetsPaused(s, d) {
		return false
	}
	return u.IsPaused(s, d)
}

// LastAppliedSetsPaused reports whether the configuration kubectl apply
// saved last on deployment d sets spec.paused.
func (u *Universe) LastAppliedSetsPaused(s *State, d int) bool {
	return u.pausable && s.Deps[d].LastAppliedSetsPaused
}

// SetLastAppliedPaused records whether the configuration just saved on
// deployment d sets spec.paused (false when the command saves none:
// kubectl create), where the states carry it.
func (u *Universe) SetLastAppliedPaused(s *State, d int, sets bool) {
	if u.pausable {
		s.Deps[d].LastAppliedSetsPaused = sets
	}
}

// checkPausedDecl refuses spec.paused on a workload that has none and
// rolledOut on a Deployment that is not paused.
func checkPausedDecl(d *DeploymentDecl, kind WorkloadKind) error {
	if d.Paused && kind != KindDeployment {
		return fmt.Errorf("paused: set for a %s (accepted: only a Deployment is paused; a Job is suspended): %w", kind, ErrInvalid)
	}
	if d.RolledOut && !d.Paused {
		return fmt.Errorf("rolledOut: set for a Deployment that is not paused (accepted: only with paused: true): %w", ErrInvalid)
	}
	if d.RolledOutTemplate != "" && !d.RolledOut {
		return fmt.Errorf("rolledOutTemplate: %q set for a Deployment that was not rolled out (accepted: only with paused: true and rolledOut: true): %w", d.RolledOutTemplate, ErrInvalid)
	}
	return nil
}

// oldReplicaSetDecl checks a Deployment's OldReplicaSet and NewReplicas
// and returns the older set's template index (-1 without one), its
// replicas and the current set's (replicas when NewReplicas is nil).
func oldReplicaSetDecl(c *Cluster, d *DeploymentDecl, kind WorkloadKind, replicas int, look lookup) (old, oldReplicas, newReplicas int, err error) {
	if d.OldReplicaSet == nil {
		if d.NewReplicas != nil {
			return -1, 0, 0, fmt.Errorf("newReplicas: set without oldReplicaSet (accepted: only for a Deployment in the middle of a rollout): %w", ErrInvalid)
		}
		return -1, 0, 0, nil
	}
	o := d.OldReplicaSet
	switch {
	case kind != KindDeployment:
		return -1, 0, 0, fmt.Errorf("oldReplicaSet: set for a %s (accepted: only a Deployment has ReplicaSets): %w", kind, ErrInvalid)
	case d.RolledOutTemplate != "":
		return -1, 0, 0, fmt.Errorf("oldReplicaSet: set with rolledOutTemplate (accepted: one of them; rolledOutTemplate is a paused Deployment's only set): %w", ErrInvalid)
	case o.Replicas < 0 || o.Replicas > math.MaxInt16:
		return -1, 0, 0, fmt.Errorf("oldReplicaSet.replicas: %d (accepted: 0..%d): %w", o.Replicas, math.MaxInt16, ErrInvalid)
	}
	if old = look.templates.of(o.Template); old < 0 {
		return -1, 0, 0, fmt.Errorf("oldReplicaSet.template %q: no such template (accepted: %s): %w", o.Template, c.templateNames(), ErrInvalid)
	}
	newReplicas = replicas
	if d.NewReplicas != nil {
		if newReplicas = *d.NewReplicas; newReplicas < 0 || newReplicas > math.MaxInt16 {
			return -1, 0, 0, fmt.Errorf("newReplicas: %d (accepted: 0..%d): %w", newReplicas, math.MaxInt16, ErrInvalid)
		}
	}
	return old, o.Replicas, newReplicas, nil
}
