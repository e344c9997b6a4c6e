package model

// The node lifecycle controller taints a node whose Ready condition is not
// True: node.kubernetes.io/not-ready with effect NoSchedule
// (TaintNodesByCondition) and NoExecute (taint-based eviction). The model's
// NodeStatus says whether a node is Ready; the scheduler judges a node
// that is not (NotReady or Unhealthy) as carrying these two taints, so
// that a pod tolerating both may be placed there, as upstream. The model
// does not tell a node that reports NotReady from one that stopped
// reporting (upstream's node.kubernetes.io/unreachable), so both carry
// the not-ready taints.
const NotReadyTaintKey = "node.kubernetes.io/not-ready"

// NotReadyTaints returns the taints the node lifecycle controller puts on
// a node that is not Ready.
func NotReadyTaints() []Taint {
	return []Taint{{Key: NotReadyTaintKey, Effect: NoSchedule}, {Key: NotReadyTaintKey, Effect: NoExecute}}
}

// toleratesNotReady reports whether tolerations tolerate every not-ready
// taint (TaintToleration's filter rejects a node with an untolerated
// NoSchedule or NoExecute taint, and these are both).
func toleratesNotReady(tolerations []Toleration) bool {
	for _, taint := range NotReadyTaints() {
		ok := false
		for _, tol := range tolerations {
			if tol.Tolerates(taint) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
