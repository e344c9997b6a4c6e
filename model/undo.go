package model

import "fmt"

// kubectl rollout undo copies the pod template of the Deployment's
// previous revision (its newest old ReplicaSet) into the Deployment; the
// strategy stays the Deployment's own, and the Deployment controller
// finds that revision's ReplicaSet and scales it back up (a rollback).
// In the model the previous revision is the other ReplicaSet slot, and
// the event switches the deployment to the configuration with that slot's
// template and the current configuration's strategy. addUndoConfigs
// makes one for every pair the deployment may need.

// addUndoConfigs gives RolloutUndo event ev every configuration the
// deployment may take: for every pod template of its configurations
// (configs) under every strategy of them, the configuration that has
// both, made if it does not exist yet, and appends the new ones to
// configs.
func (u *Universe) addUndoConfigs(ev *Event, configs *[]int) error {
	have := *configs
	for _, s := range have {
		for _, t := range have {
			want := u.Configs[s]
			want.PodTemplate = u.Configs[t].PodTemplate
			if findConfig(u, *configs, want) >= 0 {
				continue
			}
			if len(u.Configs) >= maxConfigs {
				return fmt.Errorf("rolloutUndo: more than %d deployment configurations (model bound): %w", maxConfigs, ErrInvalid)
			}
			u.Configs = append(u.Configs, want)
			*configs = append(*configs, len(u.Configs)-1)
		}
	}
	ev.Configs = append([]int(nil), *configs...)
	return nil
}

// maxConfigs bounds the configurations: a deployment's is a byte of its
// state.
const maxConfigs = 256

// findConfig returns the configuration among configs equal to want, or -1.
func findConfig(u *Universe, configs []int, want DeploymentConfig) int {
	for _, k := range configs {
		if u.Configs[k] == want {
			return k
		}
	}
	return -1
}

// UndoConfig returns the configuration a RolloutUndo event e switches a
// deployment in configuration cur to when its previous revision has pod
// template t: t under cur's strategy, and whether there is one.
func (e *Event) UndoConfig(u *Universe, cur, t int) (int, bool) {
	want := u.Configs[cur]
	want.PodTemplate = t
	k := findConfig(u, e.Configs, want)
	return k, k >= 0
}
