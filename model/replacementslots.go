package model

// replacementSlots sizes the pod slots for Kubernetes' pod lifecycle: a
// ReplicaSet replaces a deleted or evicted pod at once, while the kubelet
// is still removing it, and a pod the kubelet rejects at admission stays
// Failed until the pod garbage collector removes it. Each of the active
// pods sized by the other rules may then have one pod next to it that is
// on its way out, so the slots double. Where an event may take a node
// down, a pod deleted there stays Terminating until the node is Ready
// again (KeepsTerminatingPod), and its kubelet removes it only after the
// node's return, when the next node may already be down: each active pod
// may have one more, so the slots triple. More pods on their way out at
// once (a replacement evicted again before the first pod is removed)
// reach the pod-slot bound and end the run Unknown, never silently.
// Under Kivi's lifecycle (Options.KiviLifecycle) a replacement waits for
// the removal, and active pods suffice.
func replacementSlots(u *Universe, active int) int {
	switch {
	case u.Options.KiviLifecycle:
		return active
	case TakesNodesDown(u):
		return 3 * active
	}
	return 2 * active
}
