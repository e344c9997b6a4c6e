package descheduler

import "github.com/kivi-go/kivi/model"

// fitsNode is the descheduler's NodeFit (pkg/descheduler/node/node.go) for
// pod ps on node n: nodeSelector and required node affinity
// match, the NoSchedule and NoExecute taints are tolerated, no required
// anti-affinity term of the pod matches a pod on the node
// (antiAffinityOnNode), the requests fit in what the node's pods leave
// free, with a pod slot to spare, and the node is not unschedulable
// (cordoned by a drain or in the input), whatever the pod tolerates, as
// upstream's IsNodeUnschedulable check; the memory-pressure taint a node
// under pressure carries counts as its NoSchedule taints do. Only the resources the pod
// requests are compared (fitsRequest lists the pod's request names): a pod
// without a memory request fits a node whose memory is overcommitted. The
// scalar resources (ephemeral-storage, huge pages, extended resources)
// count like cpu and memory, a node without one having none of it.
// Topology spread is not part of NodeFit upstream either.
func (c *cycle) fitsNode(ps *model.PodState, n int) bool {
	t := &c.u.Templates[ps.Template]
	f := t.Fit[n]
	if !f.Affinity || f.NoSchedule || f.NoExecute || c.unschedulable(n) || c.u.MemoryPressureRejects(c.s, n, t) || c.antiAffinityOnNode(ps, n, -1) {
		return false
	}
	alloc, used := c.u.Allocatable(n), c.u.Requested(c.s, n)
	if !((t.CPU == 0 || t.CPU <= alloc.CPU-used.CPU) && (t.Memory == 0 || t.Memory <= alloc.Memory-used.Memory) && used.Pods < alloc.Pods) {
		return false
	}
	if t.Scalar == nil {
		return true
	}
	c.scalarUsed = c.u.ScalarRequested(c.s, n, c.scalarUsed)
	k, _ := c.u.InsufficientScalar(int(ps.Template), n, c.scalarUsed)
	return k < 0
}

// fitsAnyOtherNode is PodFitsAnyOtherNode: the pod fits on one of nodes
// other than its own.
func (c *cycle) fitsAnyOtherNode(pod int, nodes []int) bool {
	ps := &c.s.Pods[pod]
	own := ps.NodeOf()
	for _, n := range nodes {
		if n != own && c.fitsNode(ps, n) {
			return true
		}
	}
	return false
}
