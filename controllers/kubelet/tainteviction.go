package kubelet

import "github.com/kivi-go/kivi/model"

// queuesForTaintEviction: a started pod goes to the taint manager when
// its node has taints, or when the node controller has tainted its node
// not-ready or unreachable (Kubernetes' lifecycle): the taint manager
// then weighs the pod's tolerations of that taint (controllers/
// nodelifecycle, tolerationseconds.go), as upstream's
// taint-eviction-controller processes every pod bound to a tainted node.
// Only pods pinned by nodeName reach a node after the node controller
// tainted it, or an operator tainted it out-of-service.
func queuesForTaintEviction(u *model.Universe, s *model.State, pod *model.PodState) bool {
	if u.HasTaints {
		return true
	}
	_, tainted := s.Nodes[pod.Node-1].Status.NodeDownTaint()
	return tainted || u.OutOfServiceByEvent(s, int(pod.Node)-1)
}
