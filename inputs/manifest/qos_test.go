package manifest

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestOverheadLeavesQoSClass: a pod's QoS class (v1qos.GetPodQOS) reads
// its containers' cpu and memory requests and limits, not the pod
// overhead its RuntimeClass adds; a pod whose containers name neither is
// BestEffort with an overhead too: the kubelet rejects it under memory
// pressure (eviction managerImpl.Admit). Its requests still include the overhead.
func TestOverheadLeavesQoSClass(t *testing.T) {
	for _, c := range []struct {
		name, spec string
		bestEffort bool
		cpu        int64
	}{
		{"no resources", "      containers: [{name: a}]\n", true, 0},
		{"overhead only", "      overhead: {cpu: 100m, memory: 64Mi}\n      containers: [{name: a}]\n", true, 100},
		{"overhead and a request", "      overhead: {cpu: 100m, memory: 64Mi}\n      containers: [{name: a, resources: {requests: {memory: 1Mi}}}]\n", false, 100},
		{"zero limits and overhead", "      overhead: {cpu: 100m, memory: 64Mi}\n      containers: [{name: a, resources: {limits: {cpu: \"0\", memory: \"0\"}}}]\n", true, 100},
		{"a limit", "      containers: [{name: a, resources: {limits: {cpu: 200m}}}]\n", false, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, _, err := load(t, webDeployment(c.spec)).Cluster.Build()
			if err != nil {
				t.Fatal(err)
			}
			tp := &u.Templates[0]
			if tp.CPU != c.cpu {
				t.Errorf("cpu request %dm, want %dm", tp.CPU, c.cpu)
			}
			if got := tp.BestEffort(); got != c.bestEffort {
				t.Errorf("BestEffort %v, want %v", got, c.bestEffort)
			}
		})
	}
}

// TestQoSClass: the kubelet's preemption for a critical pod ranks pods by
// QoS class (v1qos.ComputePodQOS): Guaranteed when every container and
// init container limits cpu and memory and the containers request what
// they limit, or the pod-level resources do; and it counts a pod with
// pod-level resources by its pod-level requests only, those the API
// server defaults (defaultPodRequests) included.
func TestQoSClass(t *testing.T) {
	const (
		equal   = "{requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}"
		limited = "{limits: {cpu: 100m, memory: 64Mi}}"
	)
	for _, c := range []struct {
		name, spec string
		qos        model.QoSClass
		podLevel   [2]bool
	}{
		{"best effort", "      containers: [{name: a}]\n", model.BestEffortQoS, [2]bool{}},
		{"requests only", "      containers: [{name: a, resources: {requests: {cpu: 100m}}}]\n", model.BurstableQoS, [2]bool{}},
		{"requests equal limits", "      containers: [{name: a, resources: " + equal + "}]\n", model.GuaranteedQoS, [2]bool{}},
		{"requests from limits", "      containers: [{name: a, resources: " + limited + "}]\n", model.GuaranteedQoS, [2]bool{}},
		{"a container without limits", "      containers: [{name: a, resources: " + equal + "}, {name: b}]\n", model.BurstableQoS, [2]bool{}},
		{"an init container without limits", "      initContainers: [{name: i}]\n      containers: [{name: a, resources: " + equal + "}]\n", model.BurstableQoS, [2]bool{}},
		{"a request below the limit", "      containers: [{name: a, resources: {requests: {cpu: 50m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}}]\n", model.BurstableQoS, [2]bool{}},
		{"memory limit only", "      containers: [{name: a, resources: {limits: {memory: 64Mi}}}]\n", model.BurstableQoS, [2]bool{}},
		{"with an overhead", "      overhead: {cpu: 100m, memory: 64Mi}\n      containers: [{name: a, resources: " + equal + "}]\n", model.GuaranteedQoS, [2]bool{}},
		{"pod-level limits", "      resources: {limits: {cpu: 200m, memory: 128Mi}}\n      containers: [{name: a}]\n", model.GuaranteedQoS, [2]bool{true, true}},
		{"pod-level limits with an overhead", "      overhead: {cpu: 100m, memory: 64Mi}\n      resources: {limits: {cpu: 200m, memory: 128Mi}}\n      containers: [{name: a}]\n", model.GuaranteedQoS, [2]bool{true, true}},
		{"pod-level requests below limits", "      resources: {requests: {cpu: 100m}, limits: {cpu: 200m, memory: 128Mi}}\n      containers: [{name: a}]\n", model.BurstableQoS, [2]bool{true, true}},
		{"pod-level memory limit, containers' cpu", "      resources: {limits: {memory: 128Mi}}\n      containers: [{name: a, resources: {requests: {cpu: 100m}}}]\n", model.BurstableQoS, [2]bool{true, true}},
		{"pod-level memory limit only", "      resources: {limits: {memory: 128Mi}}\n      containers: [{name: a}]\n", model.BurstableQoS, [2]bool{false, true}},
		{"pod-level cpu request only", "      resources: {requests: {cpu: 100m}}\n      containers: [{name: a, resources: {requests: {memory: 64Mi}}}]\n", model.BurstableQoS, [2]bool{true, false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, _, err := load(t, webDeployment(c.spec)).Cluster.Build()
			if err != nil {
				t.Fatal(err)
			}
			tp := &u.Templates[0]
			if got := tp.QoS(); got != c.qos {
				t.Errorf("QoS class %d, want %d", got, c.qos)
			}
			if tp.PodLevel != c.podLevel {
				t.Errorf("pod-level requests %v, want %v", tp.PodLevel, c.podLevel)
			}
		})
	}
}
