package scheduler

// nodeAffinityFilter rejects nodes that fail the scheduler profile's
// addedAffinity, then those that fail the pod's nodeSelector or all of its
// required node-affinity terms (nodeaffinity/node_affinity.go). The
// relations are static and precomputed in NodeFit.AddedAffinityRejects and
// NodeFit.Affinity.
type nodeAffinityFilter struct{}

func (nodeAffinityFilter) Name() string { return "NodeAffinity" }

const (
	reasonNodeAffinity     = "node(s) didn't match Pod's node affinity/selector"
	reasonEnforcedAffinity = "node(s) didn't match scheduler-enforced node affinity"
)

func (nodeAffinityFilter) Filter(c *cycle, n int) Status {
	if c.fit[n].AddedAffinityRejects {
		return reject(UnschedulableAndUnresolvable, reasonEnforcedAffinity)
	}
	if !c.fit[n].Affinity {
		return reject(UnschedulableAndUnresolvable, reasonNodeAffinity)
	}
	return Status{}
}

// nodeAffinityScore prefers nodes matching the preferred terms, the pod's
// and the profile's added ones: raw = the summed weight of the matching
// terms, normalised to the best node.
type nodeAffinityScore struct{}

func (nodeAffinityScore) Name() string  { return "NodeAffinity" }
func (nodeAffinityScore) Weight() int64 { return 2 }

// PreScore skips pods without preferred terms when the profile adds none,
// as upstream does.
func (nodeAffinityScore) PreScore(c *cycle) bool {
	return len(c.t.Preferred) > 0 || c.u.Scheduler.Profile.AddedAffinity != nil && len(c.u.Scheduler.Profile.AddedAffinity.Preferred) > 0
}
func (nodeAffinityScore) Score(c *cycle, n int) int64 {
	return int64(c.fit[n].Preferred + c.fit[n].AddedPreferred)
}
func (nodeAffinityScore) Normalize(c *cycle, scores []int64) {
	defaultNormalize(scores, false)
}
