package scheduler

// nodeAffinityFilter rejects nodes that fail the pod's nodeSelector or all
// of its required node-affinity terms (nodeaffinity/node_affinity.go). The
// relation is static and precomputed in NodeFit.Affinity.
type nodeAffinityFilter struct{}

func (nodeAffinityFilter) Name() string { return "NodeAffinity" }

const reasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector"

func (nodeAffinityFilter) Filter(c *cycle, n int) Status {
	if !c.fit[n].Affinity {
		return reject(UnschedulableAndUnresolvable, reasonNodeAffinity)
	}
	return Status{}
}

// nodeAffinityScore prefers nodes matching the preferred terms: raw = the
// summed weight of the matching terms, normalised to the best node.
type nodeAffinityScore struct{}

func (nodeAffinityScore) Name() string  { return "NodeAffinity" }
func (nodeAffinityScore) Weight() int64 { return 2 }

// PreScore skips pods without preferred terms, as upstream does.
func (nodeAffinityScore) PreScore(c *cycle) bool { return len(c.t.Preferred) > 0 }
func (nodeAffinityScore) Score(c *cycle, n int) int64 {
	return int64(c.fit[n].Preferred)
}
func (nodeAffinityScore) Normalize(c *cycle, scores []int64) {
	defaultNormalize(scores, false)
}
