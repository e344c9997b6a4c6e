package model

// replacementSlots sizes the pod slots for Kubernetes' pod lifecycle: a
// ReplicaSet replaces a deleted or evicted pod at once, while the kubelet
// is still removing it, and a pod the kubelet rejects at admission stays
// Failed until the pod garbage collector removes it. Each of the active
// pods sized by the other rules may then have one pod next to it that is
// on its way out, so the slots double. A pod deleted on a node that is
// not Ready stays Terminating until the node is Ready again
// (KeepsTerminatingPod): where two nodes may be down at once, its
// replacement may be deleted on the second one while it stays, so each
// active pod may have two, and the slots triple. More pods on their way
// out at once (a replacement evicted again before the first pod is
// removed) reach the pod-slot bound and end the run Unknown, never
// silently. Under Kivi's lifecycle (Options.KiviLifecycle) a replacement
// waits for the removal, and active pods suffice.
func replacementSlots(u *Universe, active int) int {
	switch {
	case u.Options.KiviLifecycle:
		return active
	case nodesDownAtOnce(u) > 1:
		return 3 * active
	}
	return 2 * active
}

// nodesDownAtOnce bounds how many nodes the events of u may take down at
// once: one per nodeFailure, a maintenance's parallel nodes, every node
// for a kernelPanic.
func nodesDownAtOnce(u *Universe) int {
	n := 0
	for i := range u.Events {
		switch e := &u.Events[i]; e.Kind {
		case NodeFailure:
			n++
		case Maintenance:
			n += max(e.Parallel, 1)
		case KernelPanic:
			n += len(u.Nodes)
		}
	}
	return n
}
