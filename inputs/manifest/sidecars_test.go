package manifest

import "testing"

// TestInitContainersAfterSidecars: resource.PodRequests runs a regular
// init container alongside the sidecars declared before it, so the
// init floor is its request plus theirs (and a sidecar's is the sum of
// the sidecars up to it); the non-zero scoring requests likewise.
func TestInitContainersAfterSidecars(t *testing.T) {
	r := load(t, webDeployment(`      initContainers:
      - {name: side, restartPolicy: Always, resources: {requests: {cpu: 10m, memory: 512Mi}}}
      - {name: init, resources: {requests: {cpu: 250m, memory: 512Mi}}}
      - {name: late, restartPolicy: Always, resources: {requests: {memory: 8Mi}}}
      containers:
      - {name: a, resources: {requests: {cpu: 0, memory: 32Mi}}}
`))
	td := r.Cluster.Templates[0]
	// cpu max(0+10, 250+10); memory max(32+512+8, 512+512).
	if td.CPU != 260 || td.Memory != 1024 {
		t.Errorf("requests: cpu %d memory %d, want 260 1024", td.CPU, td.Memory)
	}
	// Non-zero: late's missing cpu is 100m, so the sum is 110m; init with
	// side is 260m.
	if td.NonZeroCPU != 260 || td.NonZeroMemory != 1024 {
		t.Errorf("non-zero requests: cpu %d memory %d, want 260 1024", td.NonZeroCPU, td.NonZeroMemory)
	}
}
