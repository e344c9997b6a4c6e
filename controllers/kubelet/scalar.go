package kubelet

import "github.com/kivi-go/kivi/model"

// outOfScalar is the admission's fit check of pod p's scalar requests
// (ephemeral-storage, huge pages, extended resources) on node n against
// the pods the kubelet runs there, in NodeResourcesFit's order; it
// returns the rejection reason ("OutOf" and the resource's name, as the
// kubelet writes every resource but cpu, memory and pods) or "". An
// extended resource the node's allocatable does not name is left out of
// the pod's requests first (removeMissingExtendedResources): such a pod
// is admitted and runs without it.
func outOfScalar(u *model.Universe, s *model.State, p, n int) string {
	t := int(s.Pods[p].Template)
	req, node := u.Templates[t].Scalar, &u.Nodes[n]
	if req == nil {
		return ""
	}
	var buf [8]int64
	used := buf[:0]
	if len(req) > len(buf) {
		used = make([]int64, 0, len(req))
	}
	used = append(used, node.ReservedScalar...)
	used = used[:len(req)]
	for i := range s.Pods {
		q := &s.Pods[i]
		if int(q.Node) == n+1 && (q.Phase == model.Running || q.Phase == model.Terminating) {
			u.AddScalar(used, int(q.Template))
		}
	}
	for k, r := range req {
		if r == 0 || model.IsExtendedResource(u.ScalarResources[k]) && (node.ScalarListed == nil || !node.ScalarListed[k]) {
			continue
		}
		if r > u.NodeScalar(n, k)-used[k] {
			return "OutOf" + u.ScalarResources[k]
		}
	}
	return ""
}
