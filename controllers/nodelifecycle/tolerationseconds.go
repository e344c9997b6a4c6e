package nodelifecycle

import "github.com/kivi-go/kivi/model"

// Kubernetes' lifecycle for a node that is not Ready (v1.36): the node
// lifecycle controller taints it node.kubernetes.io/unreachable:NoExecute
// (the kubelet stopped reporting) or node.kubernetes.io/not-ready:NoExecute
// (it reports the node not Ready), and the taint-eviction-controller
// evicts each pod of the node at once when it does not tolerate the taint,
// after the least tolerationSeconds of its tolerations when it tolerates
// it for a while (every pod does, for 300 s, through the
// DefaultTolerationSeconds admission plugin), and never when it tolerates
// it forever. A node that becomes Ready again loses the taint, and the
// scheduled evictions are cancelled.
//
// The model has no clock. The node controller, handling a node that is
// not Ready, taints it (model.NodeStatus keeps the taint until the node
// is Ready again), evicts the pods that do not tolerate the taint and
// queues for the taint manager the pods that tolerate it for a while; the
// taint manager's step for such a pod may come at any time afterwards and
// evicts the pod only if the node still carries the taint then. So a node
// that becomes Ready first cancels the eviction, and one that stays down
// evicts, in any order among the pods whatever their tolerationSeconds
// (an over-approximation: 60 s and 300 s tolerations are not ordered).
//
// Which of the two taints a node gets depends on how it fails, which the
// model's events do not say. It is unreachable (the node stopped
// reporting, as a node that crashed, failed or went down for maintenance
// does) unless the taint decides whether some pod of the node is evicted
// at once, or at all, or some template tolerates the two taints
// differently, so that the scheduler decides differently
// (model.Universe.NodeDownKeyMatters): then both are explored (a choice).
// The choice is the node's Ready condition (False: not-ready, Unknown:
// unreachable), made once while the node is down: its NoSchedule taint
// follows it at once, whatever the zone states (doNoScheduleTaintingPass),
// and a NoExecute taint the zone states held back gets the same key when
// it is placed.

// Indices into model.NodeDownTaints.
const (
	notReadyTaint    = 0
	unreachableTaint = 1
)

// taintNotReadyNode handles node n, not Ready, under Kubernetes'
// lifecycle: the taint, the pods evicted at once, and the pods queued for
// the taint manager. A node handled again keeps its taint; one whose
// taint was held back gets the key decided then.
func taintNotReadyNode(tx *model.Tx, s *model.State, n int) {
	u := tx.U
	k, ok := s.Nodes[n].Status.NodeDownTaint()
	if !ok {
		var decided bool
		if k, decided = s.Nodes[n].Status.NodeDownCondition(); !decided {
			k = chooseNodeDownKey(tx, s, n)
		}
		setLifecycleTaints(u, s, n, s.Nodes[n].Status.WithNodeDownTaint(k))
		if tx.Tracing() {
			tx.Log(NodeControllerComponent, "Node %s is not Ready: tainted %s:NoExecute", u.Nodes[n].Name, model.NodeDownTaints[k])
		}
	}
	// In owner order (model.NodePodsInOwnerOrder): the evictions at once
	// queue the owners and the pods' kubelet items in that order.
	// Upstream's taint manager evicts them concurrently, in no order.
	for _, p := range model.NodePodsInOwnerOrder(u, s, n) {
		pod := &s.Pods[p]
		if !evictableFromNode(pod, n) {
			continue
		}
		switch t := u.Templates[pod.Template].Fit[n].NodeDown[k]; t.Eviction {
		case model.EvictedAtOnce:
			evict(tx, s, p)
			if tx.Tracing() {
				tx.Log(TaintManagerComponent, "Evicting pod %s from node %s at once: its tolerations do not keep it on a node tainted %s",
					s.PodRef(p), u.Nodes[n].Name, model.NodeDownTaints[k])
			}
		case model.EvictedLater:
			s.Enqueue(model.TaintManagerQueue, p)
			if tx.Tracing() {
				tx.Log(TaintManagerComponent, "Pod %s tolerates the taint %s of node %s for %d s: its eviction is scheduled",
					s.PodRef(p), model.NodeDownTaints[k], u.Nodes[n].Name, t.Seconds)
			}
		}
	}
}

// chooseNodeDownKey decides node n's Ready condition, the key of its
// taints: unreachable, or either where it matters.
func chooseNodeDownKey(tx *model.Tx, s *model.State, n int) int {
	if (tx.U.NodeDownKeyMatters || taintDecides(tx.U, s, n)) && tx.Choose(2) == 1 {
		return notReadyTaint
	}
	return unreachableTaint
}

// setLifecycleTaints sets node n's status to st, which changes its
// node-down taints. Where the key of those taints changes what the
// scheduler decides, the change is a node update that moves the waiting
// pods (model.NodeUpdated) when the scheduler reads it differently: a
// taint gone or changed may let a pod in.
func setLifecycleTaints(u *model.Universe, s *model.State, n int, st model.NodeStatus) {
	was := s.Nodes[n].Status
	s.Nodes[n].Status = st
	if !u.NodeDownKeyMatters {
		return
	}
	k0, ne0, _ := was.LifecycleTaints()
	k1, ne1, _ := st.LifecycleTaints()
	if k0 != k1 || ne0 && !ne1 {
		model.NodeUpdated(u, s)
	}
}

// taintDecides: some pod of node n would be evicted under one of the two
// taints differently than under the other: at once under one only, or
// ever under one only (a pod tolerating not-ready forever and
// unreachable for 300 s stays on a node that reports NotReady and goes
// from one that stopped reporting). Two tolerations for a while are one
// class, the model having no clock.
func taintDecides(u *model.Universe, s *model.State, n int) bool {
	for p := range s.Pods {
		pod := &s.Pods[p]
		if !evictableFromNode(pod, n) {
			continue
		}
		fit := &u.Templates[pod.Template].Fit[n]
		if fit.NodeDown[notReadyTaint].Eviction != fit.NodeDown[unreachableTaint].Eviction {
			return true
		}
	}
	return false
}

// processPod is the taint manager's step under Kubernetes' lifecycle: it
// takes any item of its queue (the evictions it stands for are timed by
// tolerationSeconds and the moments the pods were queued, which the model
// does not keep, so no order among them is excluded) and checks the pod
// against its node's NoExecute taints: the node's own, and the not-ready
// or unreachable taint while the node carries it.
func processPod(tx *model.Tx, s *model.State) {
	u := tx.U
	q := s.Queues[model.TaintManagerQueue]
	if len(q) == 0 {
		return
	}
	i := tx.Choose(len(q))
	p := int(q[i])
	s.Queues[model.TaintManagerQueue] = append(q[:i], q[i+1:]...)
	if p >= len(s.Pods) {
		s.Fail(model.FailInternal, p)
		return
	}
	pod := &s.Pods[p]
	if pod.Node == 0 || pod.Phase != model.Pending && pod.Phase != model.Running {
		return
	}
	n := int(pod.Node) - 1
	if model.OnDeletedNode(s, pod) {
		// The node is gone, its taints with it, but the eviction
		// scheduled before (model.DeleteNodeObject kept only those)
		// still fires: nothing cancelled it.
		evict(tx, s, p)
		if tx.Tracing() {
			tx.Log(TaintManagerComponent, "Evicting pod %s: its eviction was scheduled before node %s was deleted",
				s.PodRef(p), u.Nodes[n].Name)
		}
		return
	}
	fit := &u.Templates[pod.Template].Fit[n]
	if u.OutOfServiceByEvent(s, n) {
		outOfServiceEviction(tx, s, p, n)
		return
	}
	if k, ok := s.Nodes[n].Status.NodeDownTaint(); ok {
		t := fit.NodeDown[k]
		if !t.Evicted() {
			return
		}
		evict(tx, s, p)
		if tx.Tracing() {
			if t.Eviction == model.EvictedLater {
				tx.Log(TaintManagerComponent, "Evicting pod %s from node %s: it tolerated the taint %s for %d s and the node is still not Ready",
					s.PodRef(p), u.Nodes[n].Name, model.NodeDownTaints[k], t.Seconds)
			} else {
				tx.Log(TaintManagerComponent, "Evicting pod %s from node %s at once: its tolerations do not keep it on a node tainted %s",
					s.PodRef(p), u.Nodes[n].Name, model.NodeDownTaints[k])
			}
		}
		return
	}
	if pod.Phase != model.Running || !fit.NoExecuteTaints.Evicted() {
		return
	}
	evict(tx, s, p)
	if tx.Tracing() {
		if fit.NoExecuteTaints.Eviction == model.EvictedLater {
			tx.Log(TaintManagerComponent, "Evicting pod %s: it tolerated the NoExecute taints of node %s for %d s",
				s.PodRef(p), u.Nodes[n].Name, fit.NoExecuteTaints.Seconds)
		} else {
			tx.Log(TaintManagerComponent, "Evicting pod %s: it does not tolerate the NoExecute taint of node %s",
				s.PodRef(p), u.Nodes[n].Name)
		}
	}
}

// outOfServiceEviction judges pod p against the NoExecute taints of node
// n, which an operator has tainted out-of-service (model/nodeloss.go):
// the node's own, its not-ready or unreachable taint if it carries one,
// and node.kubernetes.io/out-of-service.
func outOfServiceEviction(tx *model.Tx, s *model.State, p, n int) {
	u := tx.U
	t := u.OutOfServiceEviction(s, int(s.Pods[p].Template), n)
	if !t.Evicted() {
		return
	}
	evict(tx, s, p)
	if tx.Tracing() {
		if t.Eviction == model.EvictedLater {
			tx.Log(TaintManagerComponent, "Evicting pod %s from node %s: it tolerated the taint %s for %d s and the node is still out of service",
				s.PodRef(p), u.Nodes[n].Name, model.TaintNodeOutOfService, t.Seconds)
		} else {
			tx.Log(TaintManagerComponent, "Evicting pod %s from node %s at once: it does not tolerate the taint %s",
				s.PodRef(p), u.Nodes[n].Name, model.TaintNodeOutOfService)
		}
	}
}
