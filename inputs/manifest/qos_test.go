package manifest

import "testing"

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
