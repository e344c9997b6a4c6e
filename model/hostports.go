package model

import (
	"fmt"
	"net/netip"
)

// Host ports: kube-scheduler's NodePorts filter and the kubelet's
// admission of the same (pkg/scheduler/framework/plugins/nodeports,
// v1.36). A pod wants the host ports of its containers and of its
// sidecar init containers (upstream's GetHostPorts: ports with hostPort
// > 0; a hostNetwork pod's ports all are, the API server defaulting
// hostPort to containerPort); a node has in use the ports of its bound
// pods and of its DaemonSets' pods (Node.ReservedHostPorts). Two ports
// conflict when protocol and port are equal and either binds every
// address (hostIP "" or 0.0.0.0) or both bind the same one
// (HostPortInfo.CheckConflict). The relation is symmetric, so it is
// compiled once per pair of templates: the state holds nothing new, and
// the ports in use on a node are derived from the templates of its pods.

// HostPort is one host port a pod binds on its node.
type HostPort struct {
	// Protocol is TCP (the default, ""), UDP or SCTP.
	Protocol string `json:"protocol,omitempty"`
	// HostIP is the address bound; "" and 0.0.0.0 are every address.
	HostIP string `json:"hostIP,omitempty"`
	// Port is the host port, 1..65535.
	Port int32 `json:"port"`
}

// bindAll is upstream's DefaultBindAllHostIP.
const bindAll = "0.0.0.0"

// sanitized is p as HostPortInfo keys it: the protocol and address
// defaulted.
func (p HostPort) sanitized() HostPort {
	if p.Protocol == "" {
		p.Protocol = "TCP"
	}
	if p.HostIP == "" {
		p.HostIP = bindAll
	}
	return p
}

// Conflicts reports whether a pod wanting p cannot go where q is in use
// (HostPortInfo.CheckConflict after sanitize).
func (p HostPort) Conflicts(q HostPort) bool {
	p, q = p.sanitized(), q.sanitized()
	if p.Protocol != q.Protocol || p.Port != q.Port {
		return false
	}
	return p.HostIP == bindAll || q.HostIP == bindAll || p.HostIP == q.HostIP
}

// String renders p as protocol/[hostIP:]port.
func (p HostPort) String() string {
	p = p.sanitized()
	if p.HostIP == bindAll {
		return fmt.Sprintf("%s/%d", p.Protocol, p.Port)
	}
	return fmt.Sprintf("%s/%s:%d", p.Protocol, p.HostIP, p.Port)
}

// PortsConflict reports whether some port of want conflicts with some
// port of used.
func PortsConflict(want, used []HostPort) bool {
	for _, w := range want {
		for _, u := range used {
			if w.Conflicts(u) {
				return true
			}
		}
	}
	return false
}

// CheckHostPorts validates ports as the API server's validation would
// (port in range, a known protocol, hostIP an address); what names the
// field in the error.
func CheckHostPorts(what string, ports []HostPort) error {
	for i, p := range ports {
		if p.Port < 1 || p.Port > 65535 {
			return fmt.Errorf("%s[%d].port %d (accepted: 1..65535): %w", what, i, p.Port, ErrInvalid)
		}
		switch p.Protocol {
		case "", "TCP", "UDP", "SCTP":
		default:
			return fmt.Errorf("%s[%d].protocol %q (accepted: TCP, UDP, SCTP): %w", what, i, p.Protocol, ErrInvalid)
		}
		if p.HostIP != "" {
			if _, err := netip.ParseAddr(p.HostIP); err != nil {
				return fmt.Errorf("%s[%d].hostIP %q (accepted: an IPv4 or IPv6 address, or empty for every address): %w", what, i, p.HostIP, ErrInvalid)
			}
		}
	}
	return nil
}

// compileHostPorts validates the templates' and nodes' host ports and
// builds the pairwise conflict table; a universe without host ports
// keeps none.
func (u *Universe) compileHostPorts() error {
	any := false
	for i := range u.Templates {
		t := &u.Templates[i]
		if err := CheckHostPorts("hostPorts", t.HostPorts); err != nil {
			return fmt.Errorf("pod template %q: %w", t.Name, err)
		}
		any = any || len(t.HostPorts) > 0
	}
	for i := range u.Nodes {
		n := &u.Nodes[i]
		if err := CheckHostPorts("reservedHostPorts", n.ReservedHostPorts); err != nil {
			return fmt.Errorf("node %q: %w", n.Name, err)
		}
	}
	if !any {
		return nil
	}
	T := len(u.Templates)
	u.portConflicts = make([]bool, T*T)
	for a := range u.Templates {
		for b := range u.Templates {
			u.portConflicts[a*T+b] = PortsConflict(u.Templates[a].HostPorts, u.Templates[b].HostPorts)
		}
	}
	return nil
}

// HasHostPorts reports whether some template wants a host port: only
// then do the NodePorts filter and admission check anything.
func (u *Universe) HasHostPorts() bool { return u.portConflicts != nil }

// PortsConflict reports whether a pod of template a and one of template
// b cannot share a node for their host ports.
func (u *Universe) PortsConflict(a, b int) bool {
	return u.portConflicts != nil && u.portConflicts[a*len(u.Templates)+b]
}

// HostPortsInUse reports whether a pod of template t finds one of its
// host ports in use on node n of s: held by the node's DaemonSet pods
// (NodeFit.HostPortsReserved) or by a pod whose phase holds counts,
// other than slot skip (-1: none). The scheduler counts every bound pod
// that is not Failed (InSchedulerCache), the kubelet the pods it runs.
func (u *Universe) HostPortsInUse(s *State, t, n, skip int, holds func(*PodState) bool) bool {
	tmpl := &u.Templates[t]
	if len(tmpl.HostPorts) == 0 {
		return false
	}
	if tmpl.Fit[n].HostPortsReserved {
		return true
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if i != skip && int(p.Node) == n+1 && holds(p) && u.PortsConflict(t, int(p.Template)) {
			return true
		}
	}
	return false
}

// InSchedulerCache reports whether pod p is an assigned pod of
// kube-scheduler's cache, whose requests, spread and affinity counts and
// host ports the scheduler sees: bound and neither Free nor Failed (the
// scheduler's informer drops terminal pods), so Pending-bound, Running
// and Terminating pods.
func InSchedulerCache(p *PodState) bool { return heldNode(p) != 0 }
