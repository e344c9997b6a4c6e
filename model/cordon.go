package model

// A cordoned node (`kubectl cordon`, the first step of `kubectl drain`)
// has spec.unschedulable set. The scheduler's NodeUnschedulable filter
// then rejects every pod that does not tolerate the taint the node
// lifecycle controller puts on such a node
// (node.kubernetes.io/unschedulable:NoSchedule, TaintNodesByCondition),
// and TaintToleration, and a spread constraint with nodeTaintsPolicy
// Honor, judge the node by that taint. A node read as cordoned from a
// manifest carries the taint statically (inputs/manifest); the drain
// event cordons and uncordons nodes while the model runs, which is
// NodeState.Cordoned.
const TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"

// UnschedulableTaint is the taint of a cordoned node.
func UnschedulableTaint() Taint {
	return Taint{Key: TaintNodeUnschedulable, Effect: NoSchedule}
}

// toleratesUnschedulable reports whether tolerations tolerate the taint
// of a cordoned node (upstream's NodeUnschedulable asks exactly that).
func toleratesUnschedulable(tolerations []Toleration) bool {
	taint := UnschedulableTaint()
	for _, tol := range tolerations {
		if tol.Tolerates(taint) {
			return true
		}
	}
	return false
}

// cordonedBit is the bit of a node's encoded byte that says it is
// cordoned. A NodeStatus uses bits 0-1 (health) and 6-7 (the not-ready
// and unreachable taints), so a node that is not cordoned encodes as its
// status alone, as it did before nodes could be cordoned.
const cordonedBit = 0x20

// Byte is the node's dynamic state as one byte: its status, and the
// cordoned bit. It is what the state encoding writes; the scheduler's
// decision memo and the symmetry reduction's node signatures read it
// too, so that two nodes that differ only in their cordon are never
// taken for equal.
func (n NodeState) Byte() byte {
	b := byte(n.Status)
	if n.Cordoned {
		b |= cordonedBit
	}
	if n.MemoryPressure {
		b |= memoryPressureBit
	}
	if n.Reclaiming {
		b |= reclaimingBit
	}
	return b
}

// nodeStateOf is the inverse of NodeState.Byte.
func nodeStateOf(b byte) NodeState {
	return NodeState{Status: NodeStatus(b &^ (cordonedBit | memoryPressureBit | reclaimingBit)), Cordoned: b&cordonedBit != 0,
		MemoryPressure: b&memoryPressureBit != 0, Reclaiming: b&reclaimingBit != 0}
}

// Unschedulable reports whether the scheduler's NodeUnschedulable filter
// rejects a pod of template t on node n in s: the node is cordoned and
// the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule.
func (u *Universe) Unschedulable(s *State, n int, t *PodTemplate) bool {
	return s.Nodes[n].Cordoned && !t.ToleratesUnschedulable
}
