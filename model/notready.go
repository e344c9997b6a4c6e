package model

// The node lifecycle controller taints a node whose Ready condition is not
// True with effect NoSchedule (doNoScheduleTaintingPass, whatever the zone
// states) and NoExecute (taint-based eviction, which the zone states may
// hold back): node.kubernetes.io/not-ready when the condition is False
// (the kubelet reports the node not Ready), node.kubernetes.io/unreachable
// when it is Unknown (the kubelet stopped reporting). The scheduler judges
// these taints as TaintToleration does. What the model knows of the
// condition is what the node controller decided when it handled the node
// (NodeStatus.NodeDownCondition); a node it has not handled yet, and every
// node under Kivi's lifecycle, is read as carrying both not-ready taints,
// as a node whose kubelet reported it not Ready.
const NotReadyTaintKey = TaintNodeNotReady

// NotReadyTaints returns the taints a node that is not Ready and not yet
// handled by the node controller is read as carrying: not-ready NoSchedule
// and NoExecute.
func NotReadyTaints() []Taint {
	return []Taint{{Key: NotReadyTaintKey, Effect: NoSchedule}, {Key: NotReadyTaintKey, Effect: NoExecute}}
}

// NodeDownTolerance is what a template's tolerations (as admitted)
// tolerate of one of NodeDownTaints: its NoSchedule and its NoExecute
// taint, as TaintToleration's filter matches them (tolerationSeconds
// aside).
type NodeDownTolerance struct{ NoSchedule, NoExecute bool }

// NodeDownTolerances are a template's NodeDownTolerance for each of
// NodeDownTaints.
type NodeDownTolerances [2]NodeDownTolerance

// nodeDownTolerances compiles NodeDownTolerances.
func nodeDownTolerances(tolerations []Toleration) NodeDownTolerances {
	var out NodeDownTolerances
	for i, key := range NodeDownTaints {
		out[i] = NodeDownTolerance{
			NoSchedule: toleratesTaint(tolerations, Taint{Key: key, Effect: NoSchedule}),
			NoExecute:  toleratesTaint(tolerations, Taint{Key: key, Effect: NoExecute}),
		}
	}
	return out
}

func toleratesTaint(tolerations []Toleration, taint Taint) bool {
	for _, tol := range tolerations {
		if tol.Tolerates(taint) {
			return true
		}
	}
	return false
}

// LifecycleTaints returns the node lifecycle controller's taints a node of
// status st carries, as the scheduler reads them: the index into
// NodeDownTaints of the key of its NoSchedule taint, and whether it
// carries the NoExecute taint of that key too; ok is false for a Ready
// node. A node the controller tainted carries both taints of its
// condition; one whose NoExecute taint the zone states hold back
// (TaintQueued) only the NoSchedule one (unreachable when the controller
// left the condition undecided, which it does only where no template
// tolerates the two keys differently); one it has not handled yet both
// not-ready taints (NotReadyTaints).
func (st NodeStatus) LifecycleTaints() (k int, noExecute, ok bool) {
	if st.Health() == Ready {
		return 0, false, false
	}
	if k, tainted := st.NodeDownTaint(); tainted {
		return k, true, true
	}
	if st.TaintIsQueued() {
		if k, decided := st.NodeDownCondition(); decided {
			return k, false, true
		}
		return 1, false, true
	}
	return 0, true, true
}

// Tolerate reports whether a pod with these tolerances tolerates the node
// lifecycle controller's taints on a node of status st
// (LifecycleTaints); true on a Ready node.
func (tols *NodeDownTolerances) Tolerate(st NodeStatus) bool {
	k, noExecute, ok := st.LifecycleTaints()
	if !ok {
		return true
	}
	tol := tols[k]
	return tol.NoSchedule && (!noExecute || tol.NoExecute)
}

// nodeDownTaintsDiffer reports whether some template tolerates the
// not-ready and the unreachable taints differently (either effect): only
// then does the key of a node's lifecycle taints change what the
// scheduler decides.
func (u *Universe) nodeDownTaintsDiffer() bool {
	for i := range u.Templates {
		tol := &u.Templates[i].NodeDownTolerance
		if tol[0] != tol[1] {
			return true
		}
	}
	return false
}
