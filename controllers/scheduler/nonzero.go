package scheduler

import "github.com/kivi-go/kivi/model"

// LeastAllocated scores with kube-scheduler's non-zero requests
// (NonZeroRequested): a container that leaves its cpu or memory request
// out counts as requesting 100m or 200Mi, for the incoming pod and for
// every pod on the node; an explicit 0 stays 0. The manifest reader
// records them in model.PodTemplate.NonZeroCPU/NonZeroMemory, which are
// never below the requests as written (a default only adds), so the
// scored request is the larger of the two. Kivi's inputs leave them 0 and
// score their requests as written. NodeResourcesFit's filter and
// BalancedAllocation read the requests as written, as upstream.

// scoredRequests returns the requests LeastAllocated scores template t with.
func scoredRequests(t *model.PodTemplate) (cpu, mem int64) {
	return max(t.NonZeroCPU, t.CPU), max(t.NonZeroMemory, t.Memory)
}

// scored returns the per-node requests LeastAllocated reads: the
// reservation plus the non-zero requests of every pod bound to the node;
// the requests as written when no template has non-zero defaults.
func (c *cycle) scored() []model.Resources {
	if c.plan != nil && !c.plan.nonZero {
		return c.requested
	}
	return c.scoredReq
}
