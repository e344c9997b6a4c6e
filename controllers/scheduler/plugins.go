package scheduler

// filterPlugin is a Filter extension point: it judges one node for the
// cycle's pod. Filters read the cycle's precomputed data and allocate
// nothing.
type filterPlugin interface {
	Name() string
	Filter(c *cycle, n int) Status
}

// scorePlugin is a Score extension point with its NormalizeScore.
type scorePlugin interface {
	Name() string
	// Weight is the plugin's weight in the default profile.
	Weight() int64
	// PreScore prepares the cycle's data for scoring the feasible nodes; it
	// returns false when the plugin skips this pod (the framework's Skip
	// status: every node then gets 0 from it).
	PreScore(c *cycle) bool
	// Score is the raw score of feasible node n.
	Score(c *cycle, n int) int64
	// Normalize rescales the raw scores of c.feasible in place to 0..100.
	Normalize(c *cycle, scores []int64)
}

const (
	numFilters = 8
	numScores  = 6
	// spreadScore is PodTopologySpread's index among the scores: Explain
	// prints its domains only when it did not skip. interPodScore is
	// InterPodAffinity's.
	spreadScore   = 3
	interPodScore = 4
)

// profile is the scheduler profile: filters in the order Kubernetes' default
// profile runs them (pkg/scheduler/apis/config/v1/default_plugins.go,
// v1.36), then the weighted score plugins in the same order (upstream's
// ImageLocality, last, is not modelled: no node reports images). The order of filters only
// decides which reason a rejected node reports; the order of scores
// decides nothing, since totals are sums.
type profile struct {
	filters [numFilters]filterPlugin
	scores  [numScores]scorePlugin
	// standard: filters are exactly defaultProfile's, so cycle.filter may
	// call them directly (cycle.standardFilters).
	standard bool
}

// defaultProfile returns the profile. The plugins are empty structs, so the
// interface values cost no allocation.
func defaultProfile() profile {
	return profile{
		filters: [numFilters]filterPlugin{
			nodeReady{}, nodeName{}, taintTolerationFilter{}, nodeAffinityFilter{}, nodePortsFilter{},
			nodeResourcesFitFilter{}, podTopologySpreadFilter{}, interPodAffinityFilter{},
		},
		scores: [numScores]scorePlugin{
			taintTolerationScore{}, nodeAffinityScore{}, leastAllocatedScore{}, podTopologySpreadScore{},
			interPodAffinityScore{}, balancedAllocationScore{},
		},
		standard: true,
	}
}
