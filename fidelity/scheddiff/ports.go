package scheddiff

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// Ports are a pod's container ports as written in its spec: on the API
// side upstream's defaulting (SetDefaults_Pod: a hostNetwork pod's
// hostPort defaults to its containerPort) and GetHostPorts read them; on
// the model side the manifest reader's rule (hostPorts) does. Snapshots
// draw few ports, two addresses and two protocols, so that pods collide
// often and sometimes only on one address or one protocol.
type Ports struct {
	// HostNetwork: the pod is on its node's network.
	HostNetwork bool
	List        []Port
}

// Port is one container port.
type Port struct {
	ContainerPort, HostPort int32
	Protocol, HostIP        string
	// Init: the port is an init container's; Sidecar: that init container
	// has restartPolicy Always.
	Init, Sidecar bool
}

// genPorts draws a pod's ports: none in most draws.
func genPorts(t *rapid.T, label string) Ports {
	var ps Ports
	if !oneIn(t, 3, label) {
		return ps
	}
	ps.HostNetwork = oneIn(t, 4, label+"HostNetwork")
	for range rapid.IntRange(1, 2).Draw(t, label+"Count") {
		p := Port{ContainerPort: rapid.SampledFrom([]int32{80, 81, 53}).Draw(t, label+"ContainerPort"),
			Protocol: rapid.SampledFrom([]string{"", "TCP", "UDP"}).Draw(t, label+"Protocol"),
			HostIP:   rapid.SampledFrom([]string{"10.0.0.1", "", "10.0.0.2", "0.0.0.0"}).Draw(t, label+"HostIP")}
		switch rapid.IntRange(0, 3).Draw(t, label+"HostPort") {
		case 1, 2:
			p.HostPort = p.ContainerPort
		case 3:
			if !ps.HostNetwork {
				// The API server refuses a hostPort other than the
				// containerPort on the host's network.
				p.HostPort = rapid.SampledFrom([]int32{80, 81}).Draw(t, label+"OtherHostPort")
			}
		}
		switch rapid.IntRange(0, 4).Draw(t, label+"Container") {
		case 0:
			p.Init = true
		case 1:
			p.Init, p.Sidecar = true, true
		}
		ps.List = append(ps.List, p)
	}
	return ps
}

// applyTo writes the ports into p's spec, each in a container of its
// own that requests nothing, then upstream's defaulting of the pod's
// ports.
func (ps Ports) applyTo(p *v1.Pod) {
	if len(ps.List) == 0 {
		return
	}
	p.Spec.HostNetwork = ps.HostNetwork
	always := v1.ContainerRestartPolicyAlways
	for i, port := range ps.List {
		// Explicit zero requests: a container without any would be
		// scored as upstream's non-zero default requests.
		c := apiContainer(fmt.Sprintf("port%d", i+1), Requests{ExplicitZero: true})
		c.Ports = []v1.ContainerPort{{ContainerPort: port.ContainerPort, HostPort: port.HostPort,
			Protocol: v1.Protocol(port.Protocol), HostIP: port.HostIP}}
		switch {
		case port.Sidecar:
			c.RestartPolicy = &always
			p.Spec.InitContainers = append(p.Spec.InitContainers, c)
		case port.Init:
			p.Spec.InitContainers = append(p.Spec.InitContainers, c)
		default:
			p.Spec.Containers = append(p.Spec.Containers, c)
		}
	}
	// SetDefaults_Pod defaults more than ports: only the ports are taken.
	d := p.DeepCopy()
	apiv1.SetDefaults_Pod(d)
	for i := range p.Spec.Containers {
		for j := range p.Spec.Containers[i].Ports {
			p.Spec.Containers[i].Ports[j].HostPort = d.Spec.Containers[i].Ports[j].HostPort
		}
	}
	for i := range p.Spec.InitContainers {
		for j := range p.Spec.InitContainers[i].Ports {
			p.Spec.InitContainers[i].Ports[j].HostPort = d.Spec.InitContainers[i].Ports[j].HostPort
		}
	}
}

// hostPorts is what the model's template gets: the manifest reader's
// rule (inputs/manifest, hostnetwork.go) over the ports as written.
func (ps Ports) hostPorts() []model.HostPort {
	var out []model.HostPort
	for _, init := range []bool{true, false} {
		for _, p := range ps.List {
			if p.Init != init || p.Init && !p.Sidecar {
				continue
			}
			port := p.HostPort
			if ps.HostNetwork {
				port = p.ContainerPort
			}
			if port > 0 {
				out = append(out, model.HostPort{Protocol: p.Protocol, HostIP: p.HostIP, Port: port})
			}
		}
	}
	return out
}

// templatePorts are a model template's host ports as API container
// ports, for a pod translated from a model state (StateToAPI).
func templatePorts(t *model.PodTemplate) []v1.ContainerPort {
	var out []v1.ContainerPort
	for _, hp := range t.HostPorts {
		out = append(out, v1.ContainerPort{ContainerPort: hp.Port, HostPort: hp.Port, Protocol: v1.Protocol(hp.Protocol), HostIP: hp.HostIP})
	}
	return out
}

func (ps Ports) String() string {
	if len(ps.List) == 0 {
		return ""
	}
	s := " ports"
	if ps.HostNetwork {
		s += " hostNetwork"
	}
	for _, p := range ps.List {
		kind := ""
		switch {
		case p.Sidecar:
			kind = " sidecar"
		case p.Init:
			kind = " init"
		}
		s += fmt.Sprintf(" [%d→%d %q %q%s]", p.ContainerPort, p.HostPort, p.Protocol, p.HostIP, kind)
	}
	return s
}

// onAddress reports whether some host port binds one address only.
func (ps Ports) onAddress() bool {
	for _, p := range ps.hostPorts() {
		if p.HostIP != "" && p.HostIP != "0.0.0.0" {
			return true
		}
	}
	return false
}
