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
