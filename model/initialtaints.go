package model

// queueInitialTaintEvictions queues for the taint manager every pod that
// runs at the start on a node whose own NoExecute taints it does not
// tolerate, or tolerates only for tolerationSeconds
// (NodeFit.NoExecuteTaints). Upstream's taint-eviction-controller, as it
// starts, sees every node with NoExecute taints (its node informer's adds:
// handleNodeUpdate) and processes every pod bound to it
// (processPodOnNode), as it does when a taint is added at run time: an
// untolerated taint deletes the pod at once, a toleration for a while
// schedules the deletion. The model's pods start Running in the input
// (a case file's nodes[].pods, `kubectl get pods` of a running cluster)
// without a kubelet start, which is where the taint manager otherwise
// learns of a pod (controllers/kubelet), so they are queued here; the
// taint manager's step for each decides as for any other
// (controllers/nodelifecycle).
func queueInitialTaintEvictions(u *Universe, s *State) {
	if !u.HasTaints {
		return
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == Running && p.Node != 0 && u.Templates[p.Template].Fit[p.Node-1].NoExecuteTaints.Evicted() {
			s.Enqueue(TaintManagerQueue, i)
		}
	}
}

// queueNodesNotReady queues for the node lifecycle controller, under
// Kubernetes' lifecycle, every node the input gives not Ready (a Node
// whose Ready condition is not True) and without a not-ready or
// unreachable NoExecute taint of its own. Upstream's controller lists
// every node as it starts and, once a node has been not Ready for its
// grace period, taints it (or its zone's state holds the taint back), so
// that the taint-eviction-controller evicts the pods that do not tolerate
// the taint; the model's node controller step does the same for a node
// in its queue, as for a node that fails during the run. A node whose
// input carries such a taint is left as it is: its pods are queued for
// the taint manager already (queueInitialTaintEvictions). Under Kivi's
// lifecycle the node controller handles only the nodes an event reports.
func queueNodesNotReady(u *Universe, s *State) {
	if u.Options.KiviLifecycle {
		return
	}
	for n := range s.Nodes {
		if st := s.Nodes[n]; st.Status == Ready || st.Deleted() || hasNodeDownTaint(u.Nodes[n].Taints) {
			continue
		}
		s.Enqueue(NodeControllerQueue, n)
	}
}

// hasNodeDownTaint reports whether taints hold a not-ready or unreachable
// taint with the effect NoExecute.
func hasNodeDownTaint(taints []Taint) bool {
	for _, t := range taints {
		if t.Effect == NoExecute && (t.Key == TaintNodeNotReady || t.Key == TaintNodeUnreachable) {
			return true
		}
	}
	return false
}
