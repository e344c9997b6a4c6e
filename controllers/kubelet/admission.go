package kubelet

import "github.com/kivi-go/kivi/model"

// admit is the kubelet's admission of a bound Pending pod: the eviction
// manager's (pressure.go) and then pkg/kubelet/lifecycle/predicate.go's
// (v1.36): the pod's kubernetes.io/os label against the node's OS
// (model.NodeFit.OSLabelMismatch), its spec.os.name against it
// (OSFieldMismatch), then the scheduler's
// AdmissionCheck (NodeResourcesFit against the pods the kubelet already
// runs, scalar resources included (scalar.go), required node affinity and nodeSelector, NodeName,
// NodePorts (hostports.go)) and the
// TaintToleration check restricted to NoExecute taints. It returns the
// reason of the first failure in that order, upstream's pod status
// reason, or "" when the pod is admitted. A critical pod's resource
// failures go to the kubelet's CriticalPodAdmissionHandler: with other
// failures it drops them (the pod is rejected for the first other one);
// with none, preempt is true, and the handler preempts pods the kubelet
// runs to admit it (preemption.go). Pods bound by the scheduler
// pass (it checked all of this against at least as many pods); pods
// pinned by spec.nodeName bypass the scheduler and are the ones rejected.
// Under Kivi's lifecycle (model.Options.KiviLifecycle) every pod is
// admitted.
func admit(u *model.Universe, s *model.State, p int) (reason string, preempt bool) {
	if u.Options.KiviLifecycle {
		return "", false
	}
	pod := &s.Pods[p]
	n := int(pod.Node) - 1
	t := &u.Templates[pod.Template]
	if rejectedUnderPressure(s, n, t) {
		return evictedReason, false
	}
	// The OS checks come before the resources, so a critical pod is
	// rejected without preemption (checks preemption cannot help).
	if t.Fit[n].OSLabelMismatch {
		return model.PodOSSelectorReason, false
	}
	if t.Fit[n].OSFieldMismatch {
		return model.PodOSNotSupportedReason, false
	}
	resource := outOfResources(u, s, p, n)
	if resource != "" && !t.KubeletCritical() {
		return resource, false
	}
	if reason := failedPredicate(u, s, p, n); reason != "" {
		return reason, false
	}
	return "", resource != ""
}

// outOfResources is NodeResourcesFit's part of the admission of pod p
// on node n: the reason of its first insufficient resource, or "".
func outOfResources(u *model.Universe, s *model.State, p, n int) string {
	t := &u.Templates[s.Pods[p].Template]
	node := &u.Nodes[n]
	used := runningRequests(u, s, n)
	switch {
	case used.Pods+1 > node.MaxPods:
		return "OutOfpods"
	case t.CPU > 0 && t.CPU > node.CPU-used.CPU:
		return "OutOfcpu"
	case t.Memory > 0 && t.Memory > node.Memory-used.Memory:
		return "OutOfmemory"
	}
	return outOfScalar(u, s, p, n)
}

// failedPredicate is the rest of the admission of pod p on node n, in
// upstream's order: the reason of its first failure, or "".
func failedPredicate(u *model.Universe, s *model.State, p, n int) string {
	fit := &u.Templates[s.Pods[p].Template].Fit[n]
	switch {
	case !fit.Affinity:
		return "NodeAffinity"
	case !fit.NodeName:
		return "NodeName"
	case hostPortsInUse(u, s, p, n):
		return "NodePorts"
	case fit.NoExecute:
		return "TaintToleration"
	}
	return ""
}

// runningRequests sums what the kubelet of node n already runs: its
// reservation and the requests of the pods it has admitted and not yet
// removed (Running and Terminating). Bound Pending pods are not admitted
// yet: the kubelet admits its pods one at a time.
func runningRequests(u *model.Universe, s *model.State, n int) model.Resources {
	node := &u.Nodes[n]
	r := model.Resources{CPU: node.ReservedCPU, Memory: node.ReservedMemory, Pods: node.ReservedPods}
	for i := range s.Pods {
		p := &s.Pods[i]
		if int(p.Node) != n+1 || p.Phase != model.Running && p.Phase != model.Terminating {
			continue
		}
		t := &u.Templates[p.Template]
		r.CPU += t.CPU
		r.Memory += t.Memory
		r.Pods++
	}
	return r
}

// reject fails pod p at admission: it goes Failed (holding nothing, no
// longer active) and its ReplicaSet is woken to replace it, as upstream's
// updatePod enqueues the set on the status change. The pod stays until
// the pod garbage collector removes it (controllers/podgc).
func reject(tx *model.Tx, s *model.State, p int, reason string, w *wakeups) {
	u := tx.U
	pod := &s.Pods[p]
	pod.Phase = model.Failed
	pod.WasRunning = false
	d := int(pod.Owner) - 1
	if d >= 0 {
		tx.Mark(model.MarkRejected(d))
		w.deployment(d)
	}
	if tx.Tracing() {
		tx.Log(Component, "Rejected pod %s on node %s at admission: %s; the pod is Failed", s.PodRef(p), nodeName(u, pod.Node), reason)
	}
}
