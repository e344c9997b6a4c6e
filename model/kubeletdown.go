package model

// The kubelet of a node that is not Ready confirms nothing: the pods it
// would start or remove wait for the node to be Ready again
// (SetNodeStatus queues them anew).

// KeepsTerminatingPod reports whether a Terminating pod p stays until
// its node is Ready again: a StatefulSet pod bound to a node that is not
// Ready. Its kubelet cannot confirm the deletion, and the pod object
// keeps its identity, so the StatefulSet cannot replace it (at most one
// pod per ordinal). Any other Terminating pod is removed at once: its
// ReplicaSet replaced it when it began terminating, so when the object
// goes changes nothing a controller reads but the down node's requests
// (docs/divergences.md, "StatefulSet controller").
func KeepsTerminatingPod(s *State, p *PodState) bool {
	return p.Ordinal != 0 && p.Phase == Terminating && p.Node != 0 && s.Nodes[p.Node-1].Status.Health() != Ready
}

// WaitsForNode reports whether a bound Pending pod p waits for its node
// to be Ready again before it starts: under Kubernetes' lifecycle, a pod
// bound to a node whose kubelet is down (not Ready) does not start; the
// taint manager may evict it meanwhile. Under Kivi's lifecycle it starts
// at once, as in Kivi.
func WaitsForNode(u *Universe, s *State, p *PodState) bool {
	return !u.Options.KiviLifecycle && p.Phase == Pending && p.Node != 0 && s.Nodes[p.Node-1].Status.Health() != Ready
}

// requeueKeptPods hands back to the kubelet the pods of node n, which is
// Ready again, that its kubelet left waiting: Terminating StatefulSet
// pods (KeepsTerminatingPod) and bound Pending pods (WaitsForNode).
func requeueKeptPods(u *Universe, s *State, n int) {
	if u.Options.KiviLifecycle && !u.HasStatefulSets || s.Nodes[n].Status.Health() != Ready {
		return
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if int(p.Node) != n+1 {
			continue
		}
		if p.Ordinal != 0 && p.Phase == Terminating || !u.Options.KiviLifecycle && p.Phase == Pending {
			s.Enqueue(KubeletQueue, i)
		}
	}
}
