package scheduler

// nodeName rejects every node but the one the template names
// (nodename/node_name.go). Pods with a nodeName are bound by the deployment
// controller and rarely reach the scheduler, but a pod that does is held to
// its node.
type nodeName struct{}

func (nodeName) Name() string { return "NodeName" }

const reasonNodeName = "node(s) didn't match the requested node name"

func (nodeName) Filter(c *cycle, n int) Status {
	if !c.fit[n].NodeName {
		return reject(UnschedulableAndUnresolvable, reasonNodeName)
	}
	return Status{}
}
