package model

// kubectl apply after kubectl rollout restart: the restart stamped the
// live pod template with kubectl.kubernetes.io/restartedAt, which the
// configuration applied last does not name, so the three-way merge of
// client-side apply keeps it (and under server-side apply another field
// manager owns it). Re-applying the file the workload was restarted from
// therefore leaves the restarted template, and its ReplicaSet, alone: no
// rollout back to the template before the restart.

// KeepsRestartedTemplate reports whether `kubectl apply` of configuration
// c to a workload at configuration cur changes nothing: cur is a
// restarted copy, through one rollout restart or more, of c itself (the
// same pod template and the same spec around it).
func (u *Universe) KeepsRestartedTemplate(cur, c int) bool {
	if cur == c {
		return false
	}
	for x := cur; ; {
		from, ok := u.restartedFrom(x)
		if !ok {
			return false
		}
		if from == c || u.sameConfig(from, c) {
			return true
		}
		x = from
	}
}

// restartedFrom returns the configuration a RolloutRestart copied config
// x from, and whether x is such a copy.
func (u *Universe) restartedFrom(x int) (int, bool) {
	for i := range u.Events {
		for _, r := range u.Events[i].Restarts {
			if r.To == x {
				return r.From, true
			}
		}
	}
	return 0, false
}

// sameConfig reports whether configurations a and b are one spec: the
// same pod template and the same strategy and workload fields.
func (u *Universe) sameConfig(a, b int) bool {
	return u.Configs[a] == u.Configs[b]
}
