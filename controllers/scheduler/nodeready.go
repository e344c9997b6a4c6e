package scheduler

import "github.com/kivi-go/kivi/model"

// nodeReady rejects nodes that are not Ready. In a real cluster the node
// lifecycle controller taints such a node node.kubernetes.io/not-ready (or
// unreachable) with effect NoSchedule, and TaintToleration rejects it; Kivi
// filters not-Ready nodes directly. It stands in for NodeUnschedulable,
// whose cordon flag the model does not have.
type nodeReady struct{}

func (nodeReady) Name() string { return "NodeReady" }

// reasonNotReady is TaintToleration's reason, naming the implied taint.
const reasonNotReady = "node(s) had untolerated taint(s) {node.kubernetes.io/not-ready}"

func (nodeReady) Filter(c *cycle, n int) Status {
	if c.s.Nodes[n].Status != model.Ready {
		return reject(UnschedulableAndUnresolvable, reasonNotReady)
	}
	return Status{}
}
