package scheduler

import (
	"fmt"
	"strings"
	"testing"
)

// portsSpec is upstream's newPod(host, "PROTOCOL/hostIP/port"...): one
// container with those host ports (containerPort equal to hostPort, as
// the API server wants one).
func portsSpec(infos ...string) string {
	var ports []string
	for _, info := range infos {
		f := strings.Split(info, "/")
		ports = append(ports, fmt.Sprintf("{containerPort: %s, hostPort: %s, hostIP: %q, protocol: %s}", f[2], f[2], f[1], f[0]))
	}
	return "      containers: [{name: c, ports: [" + strings.Join(ports, ", ") + "]}]\n"
}

// initPortSpec is upstream's InitContainerPort(sidecar, TCP 8001 → 8001)
// next to a container without ports.
func initPortSpec(sidecar bool) string {
	restart := ""
	if sidecar {
		restart = ", restartPolicy: Always"
	}
	return "      containers: [{name: c}]\n      initContainers: [{name: i" + restart +
		", ports: [{containerPort: 8001, hostPort: 8001, protocol: TCP}]}]\n"
}

// TestNodePorts transcribes TestNodePorts (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/nodeports/node_ports_test.go): the pod
// and the pod already on the node read from manifests, the Filter's
// status (a pod PreFilter skips passes).
func TestNodePorts(t *testing.T) {
	conflict := reject(Unschedulable, k8sReasonNodePorts)
	for _, tc := range []struct {
		name          string
		pod, existing string // existing "": no pod on the node
		want          Status
	}{
		{name: "skip filter", pod: "      containers: [{name: c}]\n"},
		{name: "other port", pod: portsSpec("UDP/127.0.0.1/8080"), existing: portsSpec("UDP/127.0.0.1/9090")},
		{name: "same udp port", pod: portsSpec("UDP/127.0.0.1/8080"), existing: portsSpec("UDP/127.0.0.1/8080"), want: conflict},
		{name: "same tcp port", pod: portsSpec("TCP/127.0.0.1/8080"), existing: portsSpec("TCP/127.0.0.1/8080"), want: conflict},
		{name: "different host ip", pod: portsSpec("TCP/127.0.0.1/8080"), existing: portsSpec("TCP/127.0.0.2/8080")},
		{name: "different protocol", pod: portsSpec("UDP/127.0.0.1/8080"), existing: portsSpec("TCP/127.0.0.1/8080")},
		{name: "second udp port conflict", pod: portsSpec("UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"), existing: portsSpec("UDP/127.0.0.1/8080"), want: conflict},
		{name: "first tcp port conflict", pod: portsSpec("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
			existing: portsSpec("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"), want: conflict},
		{name: "first tcp port conflict due to 0.0.0.0 hostIP", pod: portsSpec("TCP/0.0.0.0/8001"), existing: portsSpec("TCP/127.0.0.1/8001"), want: conflict},
		{name: "TCP hostPort conflict due to 0.0.0.0 hostIP", pod: portsSpec("TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
			existing: portsSpec("TCP/127.0.0.1/8001"), want: conflict},
		{name: "second tcp port conflict to 0.0.0.0 hostIP", pod: portsSpec("TCP/127.0.0.1/8001"), existing: portsSpec("TCP/0.0.0.0/8001"), want: conflict},
		{name: "second different protocol", pod: portsSpec("UDP/127.0.0.1/8001"), existing: portsSpec("TCP/0.0.0.0/8001")},
		{name: "UDP hostPort conflict due to 0.0.0.0 hostIP", pod: portsSpec("UDP/127.0.0.1/8001"),
			existing: portsSpec("TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"), want: conflict},
		{name: "non-sidecar initContainer using hostPort", pod: initPortSpec(false), existing: portsSpec("TCP/0.0.0.0/8001")},
		{name: "TCP hostPort conflict from sidecar initContainer", pod: initPortSpec(true), existing: portsSpec("TCP/0.0.0.0/8001"), want: conflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pods := []kManifestPod{{spec: tc.pod, node: -1}}
			if tc.existing != "" {
				pods = append(pods, kManifestPod{spec: tc.existing, node: 0})
			}
			u, s, p := buildManifestPods(t, []kLabelledNode{{name: "m1"}}, pods, "")
			if got := filterEach(u, s, p, nodePortsFilter{})[0]; got != tc.want {
				t.Errorf("status %s, want %s", fmtStatus(got), fmtStatus(tc.want))
			}
		})
	}
}
