package nodelifecycle

import "github.com/kivi-go/kivi/model"

// NodeControllerComponent is the trace component of the node controller,
// the node-lifecycle-controller of kube-controller-manager.
const NodeControllerComponent = "node-lifecycle-controller"

// NodeController evicts the pods of nodes that are not Ready. It drains
// the node-controller queue in one step.
type NodeController struct{ model.ClusterWide }

// NewNodeController returns the node controller process.
func NewNodeController() *NodeController { return &NodeController{} }

// Name is Kivi's process name.
func (*NodeController) Name() string { return "NodeController" }

// Enabled: the node-controller queue has work, or (Kubernetes'
// lifecycle) the zone states do (zones.go).
func (*NodeController) Enabled(u *model.Universe, s *model.State) bool {
	return !s.Empty(model.NodeControllerQueue) || !u.Options.KiviLifecycle && zoneWork(u, s)
}

// Step drains the node-controller queue. The node's status is read when
// the item is processed: a node that is Ready again (a short failure) is
// left alone, as in Kivi. Under Kivi's lifecycle every pod of the node is
// evicted at once; under Kubernetes' the node is tainted and its pods wait
// out their tolerations (tolerationseconds.go), unless its zone's state
// holds the taint back (zones.go); then the zones' work follows: the
// master disruption mode's removal of every taint, or the taint of one
// node whose zone lets it be tainted again.
func (c *NodeController) Step(tx *model.Tx, s *model.State) {
	if !tx.U.Options.KiviLifecycle {
		c.stepKubernetes(tx, s)
		return
	}
	for {
		n, found, _ := nextNotReady(s)
		if !found {
			return
		}
		for p := range s.Pods {
			if !evictableFromNode(&s.Pods[p], n) {
				continue
			}
			evict(tx, s, p)
			if tx.Tracing() {
				tx.Log(NodeControllerComponent, "Evicting pod %s from node %s, which is not Ready", s.PodRef(p), tx.U.Nodes[n].Name)
			}
		}
	}
}

// nextNotReady takes the node controller's queue up to its next node
// that is still not Ready (found); broken: the queue held a value that
// is no node, an internal failure recorded in s.
func nextNotReady(s *model.State) (n int, found, broken bool) {
	for !s.Empty(model.NodeControllerQueue) {
		n, _ = s.Dequeue(model.NodeControllerQueue)
		if n >= len(s.Nodes) {
			s.Fail(model.FailInternal, n)
			return 0, false, true
		}
		if st := s.Nodes[n]; st.Status != model.Ready && !st.Deleted() {
			return n, true, false
		}
	}
	return 0, false, false
}

// evictableFromNode: the pod is bound to node n and not already being
// deleted. Kivi also re-marks Terminating pods (and counts them twice);
// a pod can only be deleted once.
func evictableFromNode(p *model.PodState, n int) bool {
	return int(p.Node) == n+1 && (p.Phase == model.Pending || p.Phase == model.Running)
}

// stepKubernetes is the step under Kubernetes' lifecycle. The zones are
// seen once, the queued nodes counted not Ready: handling a node (tainting
// it or queuing its taint) changes no zone's state.
func (*NodeController) stepKubernetes(tx *model.Tx, s *model.State) {
	u := tx.U
	var buf [smallZones]zoneCounts
	z := seeZones(u, s, !s.Empty(model.NodeControllerQueue), buf[:])
	for {
		n, found, broken := nextNotReady(s)
		if broken {
			return
		}
		if !found {
			break
		}
		if _, tainted := s.Nodes[n].Status.NodeDownTaint(); tainted || z.taintsAllowed(n) {
			taintNotReadyNode(tx, s, n)
		} else {
			holdTaint(tx, s, n, &z)
		}
		markPodsNotReady(tx, s, n)
	}
	if z.masterDisruption {
		enterMasterDisruption(tx, s, &z)
		return
	}
	taintQueuedNode(tx, s, &z)
}
