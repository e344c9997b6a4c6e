package kubelet

import "github.com/kivi-go/kivi/model"

// queuesForTaintEviction: a started pod goes to the taint manager when
// the taint manager may act on it: under Kubernetes' lifecycle when its
// node carries a NoExecute taint that evicts it (the node's own taints,
// NodeFit.NoExecuteTaints), or the node controller has tainted its node
// not-ready or unreachable, or an operator has tainted it out-of-service;
// under Kivi's lifecycle whenever some node of the universe has taints,
// as Kivi's kubelet queues every started pod there. The taint manager then
// weighs the pod's tolerations (controllers/nodelifecycle,
// tolerationseconds.go), as upstream's taint-eviction-controller processes
// a pod bound to a node with NoExecute taints.
//
// Upstream's controller does nothing for a pod on a node without
// NoExecute taints, or whose taints the pod tolerates forever
// (processPodOnNode cancels any work and returns), and a taint placed
// later brings the node's pods back to it (handleNodeUpdate): in the
// model the node controller and the out-of-service taint queue or evict
// the pods they concern when they taint the node. An item queued for
// such a pod would be a step that changes nothing but the queue, at any
// later moment, whose pod no choice among pods could then take for a
// twin of an unqueued one (model/ties.go); leaving it out keeps the runs
// (docs/divergences.md, "Node lifecycle and taint manager").
func queuesForTaintEviction(u *model.Universe, s *model.State, pod *model.PodState) bool {
	if model.OnDeletedNode(s, pod) {
		// The taint manager forgot the node with its Node object.
		return false
	}
	n := int(pod.Node) - 1
	if u.HasTaints && (u.Options.KiviLifecycle || u.Templates[pod.Template].Fit[n].NoExecuteTaints.Evicted()) {
		return true
	}
	_, tainted := s.Nodes[n].Status.NodeDownTaint()
	return tainted || u.OutOfServiceByEvent(s, n)
}
