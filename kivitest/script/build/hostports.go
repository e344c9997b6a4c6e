package build

import "github.com/kivi-go/kivi/model"

// HostPorts adds host ports the template's pods bind (the NodePorts
// filter).
func (b *TemplateBuilder) HostPorts(ports ...model.HostPort) *TemplateBuilder {
	b.t.HostPorts = append(b.t.HostPorts, ports...)
	return b
}

// ReservedHostPorts adds host ports the node's untracked pods (a
// DaemonSet's) hold.
func (b *NodeBuilder) ReservedHostPorts(ports ...model.HostPort) *NodeBuilder {
	b.n.ReservedHostPorts = append(b.n.ReservedHostPorts, ports...)
	return b
}
