package manifest

import (
	"fmt"
	"net/netip"

	"github.com/kivi-go/kivi/model"
)

// A pod's host ports (the NodePorts filter, model/hostports.go) are the
// ports with a hostPort of its containers and of its sidecar init
// containers (restartPolicy Always): upstream's GetHostPorts, which the
// scheduler and the kubelet's admission both read; a regular init
// container's host ports are bound only while it runs, and both ignore
// them. On the host's network every port is a host port: the API server
// defaults each port's hostPort to its containerPort
// (defaultHostNetworkPorts, pkg/apis/core/v1/defaults.go) and refuses a
// different one.

// hostPorts reads the host ports the pod binds, validating every port as
// the API server does.
func (tc templateConv) hostPorts(spec PodSpec) ([]model.HostPort, error) {
	var out []model.HostPort
	for _, list := range []struct {
		field      string
		containers []Container
		init       bool
	}{{"spec.initContainers", spec.InitContainers, true}, {"spec.containers", spec.Containers, false}} {
		for i, c := range list.containers {
			for j, p := range c.Ports {
				field := fmt.Sprintf("%s[%d].ports[%d]", list.field, i, j)
				hp, err := tc.hostPort(field, p, spec.HostNetwork)
				if err != nil {
					return nil, err
				}
				if hp.Port == 0 || list.init && c.RestartPolicy != "Always" {
					continue
				}
				out = append(out, hp)
			}
		}
	}
	return out, nil
}

// hostPort validates one container port and returns the host port it
// binds (Port 0: none).
func (tc templateConv) hostPort(field string, p ContainerPort, hostNetwork bool) (model.HostPort, error) {
	if p.ContainerPort < 1 || p.ContainerPort > 65535 {
		return model.HostPort{}, tc.errorf(field+".containerPort", "%d (accepted: 1..65535)", p.ContainerPort)
	}
	if p.HostPort < 0 || p.HostPort > 65535 {
		return model.HostPort{}, tc.errorf(field+".hostPort", "%d (accepted: 0..65535, 0 for none)", p.HostPort)
	}
	hp := model.HostPort{Protocol: p.Protocol, HostIP: p.HostIP, Port: p.HostPort}
	if hostNetwork {
		if p.HostPort != 0 && p.HostPort != p.ContainerPort {
			return hp, tc.errorf(field+".hostPort", "%d (accepted: the containerPort %d, or 0: with spec.hostNetwork the host port is the container port)", p.HostPort, p.ContainerPort)
		}
		hp.Port = p.ContainerPort
	}
	switch p.Protocol {
	case "", "TCP", "UDP", "SCTP":
	default:
		return hp, tc.errorf(field+".protocol", "%q (accepted: TCP, UDP, SCTP)", p.Protocol)
	}
	if p.HostIP != "" {
		if _, err := netip.ParseAddr(p.HostIP); err != nil {
			return hp, tc.errorf(field+".hostIP", "%q (accepted: an IPv4 or IPv6 address, or none for every address)", p.HostIP)
		}
	}
	return hp, nil
}
