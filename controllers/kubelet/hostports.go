package kubelet

import "github.com/kivi-go/kivi/model"

// hostPortsInUse is the NodePorts part of the kubelet's admission
// (the scheduler's AdmissionCheck, nodeports.Fits): one of pod p's host
// ports is held on its node n by a pod the kubelet runs (Running or
// Terminating, as runningRequests counts them) or by the node's
// DaemonSet pods. A pod pinned with spec.nodeName next to a pod holding
// its port is rejected with reason NodePorts.
func hostPortsInUse(u *model.Universe, s *model.State, p, n int) bool {
	return u.HostPortsInUse(s, int(s.Pods[p].Template), n, p, runs)
}

// runs reports whether the kubelet runs pod q: admitted and not yet
// removed.
func runs(q *model.PodState) bool { return q.Phase == model.Running || q.Phase == model.Terminating }
