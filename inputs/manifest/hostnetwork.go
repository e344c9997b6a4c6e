package manifest

// A pod on the host's network listens on the node's own ports: the API
// server defaults every container port's hostPort to its containerPort
// (defaultHostNetworkPorts, pkg/apis/core/v1/defaults.go), and
// kube-scheduler's NodePorts filter then keeps two such pods off one
// node. Host ports are not modelled, so the model may place them
// together.

// warnHostNetworkPorts warns about a hostNetwork pod spec whose
// containers or init containers declare ports. A DaemonSet's pods are
// one per node: their ports collide with a workload's only, which is
// warned about there.
func (tc templateConv) warnHostNetworkPorts(spec PodSpec) {
	if !spec.HostNetwork || tc.o.Kind == "DaemonSet" {
		return
	}
	for _, c := range append(append([]Container(nil), spec.Containers...), spec.InitContainers...) {
		if len(c.Ports) > 0 {
			tc.warn("spec.hostNetwork", "ignored: on the host's network the containers' ports are host ports (the NodePorts filter), which are not modelled: pods the model places on one node may not fit there together")
			return
		}
	}
}
