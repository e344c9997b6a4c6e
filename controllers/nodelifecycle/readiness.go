package nodelifecycle

import "github.com/kivi-go/kivi/model"

// markPodsNotReady is the node lifecycle controller's MarkPodsNotReady for
// node n, which is not Ready: upstream's monitorNodeHealth sets the Ready
// condition of every pod on it to False in the same pass that taints the
// node (node_lifecycle_controller.go), so the model does it in the step
// that processes the node, after the taint's evictions. Only universes
// whose templates delay readiness track it (model.HasReadiness).
func markPodsNotReady(tx *model.Tx, s *model.State, n int) {
	if k := model.MarkPodsNotReady(tx.U, s, n); k > 0 && tx.Tracing() {
		pods := "pods"
		if k == 1 {
			pods = "pod"
		}
		tx.Log(NodeControllerComponent, "Marking the %d %s on node %s not Ready (MarkPodsNotReady)", k, pods, tx.U.Nodes[n].Name)
	}
}
