package scheduler

import "github.com/kivi-go/kivi/model"

// nodePortsFilter is NodePorts (pkg/scheduler/framework/plugins/nodeports,
// v1.36): it rejects a node where one of the pod's host ports is in use,
// by a pod bound to the node (Pending, Running or Terminating: the
// scheduler cache's NodeInfo.UsedPorts) or by the node's DaemonSet pods
// (model.NodeFit.HostPortsReserved). PreFilter skips a pod without host
// ports, which then passes every node. The rejection is Unschedulable:
// preemption may free the port. Which ports conflict is static
// (model.Universe.PortsConflict); the cycle marks the nodes whose pods
// hold a conflicting port in one pass over the pods (countPorts).
type nodePortsFilter struct{}

func (nodePortsFilter) Name() string { return "NodePorts" }

// reasonNodePorts is upstream's ErrReason.
const reasonNodePorts = "node(s) didn't have free ports for the requested pod ports"

func (nodePortsFilter) Filter(c *cycle, n int) Status {
	if len(c.t.HostPorts) == 0 {
		return Status{}
	}
	if c.fit[n].HostPortsReserved || c.portsTaken[n] {
		return reject(Unschedulable, reasonNodePorts)
	}
	return Status{}
}

// countPorts marks the nodes holding a port that conflicts with one of
// the cycle's pod (portsTaken); only for a pod with host ports.
func (c *cycle) countPorts() {
	c.portsTaken = resize(c.portsTaken, len(c.u.Nodes))
	if len(c.t.HostPorts) == 0 {
		return
	}
	t := int(c.p.Template)
	for i := range c.s.Pods {
		q := &c.s.Pods[i]
		if i != c.pod && model.InSchedulerCache(q) && c.u.PortsConflict(t, int(q.Template)) {
			c.portsTaken[q.Node-1] = true
		}
	}
}
