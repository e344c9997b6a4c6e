package scheduler

import "github.com/kivi-go/kivi/model"

// nodeReady rejects nodes that are not Ready unless the pod tolerates the
// taints the node lifecycle controller puts on them, which is how
// TaintToleration judges such a node upstream: node.kubernetes.io/not-ready
// or node.kubernetes.io/unreachable by the node's Ready condition (False
// or Unknown), NoSchedule, and NoExecute unless the zone states hold it
// back (model.NodeStatus.LifecycleTaints); Kivi filters not-Ready nodes
// whatever the pod tolerates. It also stands in for
// NodeUnschedulable, which runs first upstream: a cordoned node
// (model.NodeState.Cordoned) rejects a pod that does not tolerate
// node.kubernetes.io/unschedulable:NoSchedule. A node cordoned in a
// manifest carries that taint statically, which TaintToleration judges.
// It judges the memory-pressure taint of a node under memory pressure
// too, as TaintToleration does upstream, and the out-of-service taint of
// a node an operator tainted while the model runs.
type nodeReady struct{}

func (nodeReady) Name() string { return "NodeReady" }

// reasonNodeDown is TaintToleration's reason, naming the implied taint
// (model.NodeDownTaints): not-ready, then unreachable.
var reasonNodeDown = [2]string{
	"node(s) had untolerated taint(s) {" + model.TaintNodeNotReady + "}",
	"node(s) had untolerated taint(s) {" + model.TaintNodeUnreachable + "}",
}

// reasonMemoryPressure is TaintToleration's reason for the taint of a
// node under memory pressure (model.NodeState.MemoryPressure), naming it.
const reasonMemoryPressure = "node(s) had untolerated taint(s) {node.kubernetes.io/memory-pressure}"

// reasonOutOfService is TaintToleration's reason for the taint an
// operator puts on a node lost for good (model/nodeloss.go).
const reasonOutOfService = "node(s) had untolerated taint(s) {node.kubernetes.io/out-of-service}"

// reasonUnschedulable is NodeUnschedulable's reason (ErrReasonUnschedulable).
const reasonUnschedulable = "node(s) were unschedulable"

func (nodeReady) Filter(c *cycle, n int) Status {
	if c.u.Unschedulable(c.s, n, c.t) {
		return reject(UnschedulableAndUnresolvable, reasonUnschedulable)
	}
	if st := c.s.Nodes[n].Status; !c.t.NodeDownTolerance.Tolerate(st) {
		k, _, _ := st.LifecycleTaints()
		return reject(UnschedulableAndUnresolvable, reasonNodeDown[k])
	}
	if !c.t.ToleratesOutOfService && c.u.OutOfServiceByEvent(c.s, n) {
		return reject(UnschedulableAndUnresolvable, reasonOutOfService)
	}
	if c.u.MemoryPressureRejects(c.s, n, c.t) {
		return reject(UnschedulableAndUnresolvable, reasonMemoryPressure)
	}
	return Status{}
}
