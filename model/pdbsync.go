package model

// The disruption controller needs the scale of every controller owning a
// selected pod when a budget's maxUnavailable is set or its minAvailable
// is a percentage (getExpectedScale). Its finders know ReplicationControllers,
// Deployments (through their ReplicaSets), ReplicaSets and StatefulSets,
// and ask any other owner's scale subresource; a Job has none, so the
// finder fails ("jobs.batch does not implement the scale subresource"),
// the sync fails, and failSafe writes disruptionsAllowed 0 with the
// DisruptionAllowed condition False, reason SyncFailed, leaving the other
// counts as the last successful sync wrote them. The model keeps no
// status history: it reports zero counts, what a budget synced before the
// Job's pods existed holds (docs/divergences.md, "PodDisruptionBudgets and
// the Eviction API").

// noScaleMessage is the error the failed sync records in the budget's
// condition, which the Eviction API quotes.
const noScaleMessage = "jobs.batch does not implement the scale subresource"

// scaleUnknown reports whether budget pdb selects a pod of s whose owner
// has no scale subresource (a Job, or a CronJob's Job).
func (u *Universe) scaleUnknown(s *State, pdb *PodDisruptionBudget) bool {
	for i := range s.Pods {
		if o := s.Pods[i].Owner; o > 0 && pdb.Selects(s, i) && u.Deployments[o-1].Kind == KindJob {
			return true
		}
	}
	return false
}
