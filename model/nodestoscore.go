package model

// kube-scheduler does not score every feasible node of a large cluster:
// it stops filtering once it has found numFeasibleNodesToFind of them
// (pkg/scheduler/schedule_one.go, v1.36), starting where the previous
// cycle stopped, and binds the pod to the best of those. Below 100 nodes
// it finds them all; above, it finds max(100, nodes·p/100) where p is
// the KubeSchedulerConfiguration's percentageOfNodesToScore, by default
// 50 − nodes/125 but at least 5. The model scores every feasible node and
// binds to one of the best of all, so with more nodes than that its runs
// are those in which the nodes scored include a best one
// (SchedulerScoresEveryNode, reported as an assumption).

// SchedulerDecl is what the input says of kube-scheduler's configuration
// beyond its plugins (which are the defaults).
type SchedulerDecl struct {
	// PercentageOfNodesToScore is the KubeSchedulerConfiguration's value
	// for the default-scheduler profile (its own, else the global one);
	// 0 is kube-scheduler's adaptive default.
	PercentageOfNodesToScore int
	// Profile is the default-scheduler profile's scoring configuration.
	Profile SchedulerProfile
	// OmittedNodes counts the nodes of the cluster the model leaves out
	// (no modelled pod can use them, as a tainted control plane), which
	// kube-scheduler still lists.
	OmittedNodes int
}

// Thresholds of numFeasibleNodesToFind.
const (
	minFeasibleNodesToFind           = 100
	minFeasibleNodesPercentageToFind = 5
)

// NodesToFind is kube-scheduler's numFeasibleNodesToFind: how many
// feasible nodes a scheduling cycle looks for among nodes, given
// percentageOfNodesToScore (0: adaptive).
func NodesToFind(percentage, nodes int) int {
	if nodes < minFeasibleNodesToFind {
		return nodes
	}
	if percentage == 0 {
		percentage = max(50-nodes/125, minFeasibleNodesPercentageToFind)
	}
	return max(nodes*percentage/100, minFeasibleNodesToFind)
}

// SchedulerScoresEveryNode reports whether kube-scheduler scores every
// feasible node of u's cluster; when it does not, it also returns how
// many nodes it looks for and how many it lists.
func (u *Universe) SchedulerScoresEveryNode() (every bool, toFind, listed int) {
	listed = len(u.Nodes) + u.Scheduler.OmittedNodes
	toFind = NodesToFind(u.Scheduler.PercentageOfNodesToScore, listed)
	return toFind >= listed, toFind, listed
}
