package manifest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestHostPorts: a workload's host ports are its containers' and sidecar
// init containers' ports with a hostPort (a regular init container's are
// not), every port of a hostNetwork pod with its hostPort defaulted to its
// containerPort; protocol and hostIP as written.
func TestHostPorts(t *testing.T) {
	for _, c := range []struct {
		name, spec string
		want       []model.HostPort
	}{
		{"container ports", "      containers: [{name: a, ports: [{containerPort: 80, name: http, protocol: TCP}]}]\n", nil},
		{"hostPort", "      containers: [{name: a, ports: [{containerPort: 8080, hostPort: 80}]}]\n",
			[]model.HostPort{{Port: 80}}},
		{"protocol and hostIP", "      containers: [{name: a, ports: [{containerPort: 53, hostPort: 53, protocol: UDP, hostIP: 10.0.0.1}]}]\n",
			[]model.HostPort{{Protocol: "UDP", HostIP: "10.0.0.1", Port: 53}}},
		{"hostNetwork without ports", "      hostNetwork: true\n      containers: [{name: a}]\n", nil},
		{"hostNetwork with ports", "      hostNetwork: true\n      containers: [{name: a}, {name: b, ports: [{containerPort: 9100}, {containerPort: 443, hostPort: 443}]}]\n",
			[]model.HostPort{{Port: 9100}, {Port: 443}}},
		{"init containers", "      initContainers: [{name: i, ports: [{containerPort: 70, hostPort: 70}]}, {name: s, restartPolicy: Always, ports: [{containerPort: 71, hostPort: 71}]}]\n      containers: [{name: a}]\n",
			[]model.HostPort{{Port: 71}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := load(t, webDeployment(c.spec))
			for _, w := range r.Warnings {
				if strings.Contains(w.Msg, "port") || strings.Contains(w.Msg, "host") {
					t.Errorf("warning %s", w)
				}
			}
			if got := r.Cluster.Templates[0].HostPorts; !slices.Equal(got, c.want) {
				t.Errorf("host ports %v, want %v", got, c.want)
			}
		})
	}
}

// TestBadHostPorts: the API server's validation of a port.
func TestBadHostPorts(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"      containers: [{name: a, ports: [{containerPort: 80, hostPort: 70000}]}]\n", "containers[0].ports[0].hostPort: 70000 (accepted: 0..65535"},
		{"      containers: [{name: a, ports: [{containerPort: 0, hostPort: 80}]}]\n", "containers[0].ports[0].containerPort: 0 (accepted: 1..65535)"},
		{"      containers: [{name: a, ports: [{containerPort: 80, hostPort: 80, protocol: HTTP}]}]\n", `containers[0].ports[0].protocol: "HTTP" (accepted: TCP, UDP, SCTP)`},
		{"      containers: [{name: a, ports: [{containerPort: 80, hostPort: 80, hostIP: localhost}]}]\n", `containers[0].ports[0].hostIP: "localhost" (accepted: an IPv4 or IPv6 address`},
		{"      hostNetwork: true\n      containers: [{name: a, ports: [{containerPort: 80, hostPort: 81}]}]\n", "containers[0].ports[0].hostPort: 81 (accepted: the containerPort 80, or 0"},
	} {
		_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + webDeployment(c.spec))}}, nil, nil, testOptions())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

// TestDaemonSetHostPorts: a DaemonSet's pod holds its host ports on every
// node it runs on (model.NodeType.ReservedHostPorts); a second DaemonSet
// wanting one of them stays Pending there and reserves nothing.
func TestDaemonSetHostPorts(t *testing.T) {
	daemonSet := func(name, ports string) string {
		return fmt.Sprintf(`---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: %[1]s}
spec:
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
      hostNetwork: true
      containers: [{name: e, resources: {requests: {cpu: 100m}}, ports: [%[2]s]}]
`, name, ports)
	}
	r := load(t, webDeployment("      containers: [{name: a}]\n")+daemonSet("exporter", "{containerPort: 9100}")+
		daemonSet("dns", "{containerPort: 53, protocol: UDP}")+daemonSet("other-exporter", "{containerPort: 9100, hostIP: 10.0.0.1}"))
	nt := r.Cluster.NodeTypes[0]
	if want := []model.HostPort{{Port: 9100}, {Protocol: "UDP", Port: 53}}; !slices.Equal(nt.ReservedHostPorts, want) {
		t.Errorf("reserved host ports %v, want %v", nt.ReservedHostPorts, want)
	}
	if nt.ReservedCPU != 200 {
		t.Errorf("reserved cpu %d, want 200 (two DaemonSets' pods)", nt.ReservedCPU)
	}
	wantWarnings(t, r.Warnings, "other-exporter", []string{"DaemonSet other-exporter: its pod (cpu 100m, memory 0Mi, host ports [TCP/10.0.0.1:9100]) does not fit in what is left on node n1"})
}
