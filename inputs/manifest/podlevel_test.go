package manifest

import (
	"strings"
	"testing"
)

// TestPodLevelResources: with PodLevelResources (on by default since
// v1.34) the pod-level cpu and memory requests replace the containers'
// aggregate (resource.PodRequests), defaulted as the API server does
// (defaultPodRequests: from the aggregate when a container requests the
// resource, else from the pod-level limit); the overhead comes on top;
// quotas charge the pod-level limits and skip the per-container "must
// specify" constraints; the scheduler scores the pod-level requests.
func TestPodLevelResources(t *testing.T) {
	for _, c := range []struct {
		name, spec                   string
		cpu, mem, nzCPU, limCPU      int64
		missingLimits, missingCPUReq bool
	}{
		{"containers only", `      containers:
      - {name: a, resources: {requests: {cpu: 100m}}}
      - {name: b}
`, 100, 0, 200, 0, true, true},
		{"pod-level requests", `      resources: {requests: {cpu: 600m, memory: 256Mi}}
      containers:
      - {name: a, resources: {requests: {cpu: 100m}}}
      - {name: b}
`, 600, 256, 600, 0, false, false},
		{"pod-level limits only", `      resources: {limits: {cpu: "1", memory: 1Gi}}
      containers:
      - {name: a}
`, 1000, 1024, 1000, 1000, false, false},
		{"pod-level limit with container requests", `      resources: {limits: {cpu: "1"}}
      containers:
      - {name: a, resources: {requests: {cpu: 300m}}}
`, 300, 0, 300, 1000, false, false},
		{"with overhead", `      resources: {requests: {cpu: 500m}}
      overhead: {cpu: 250m}
      containers:
      - {name: a}
`, 750, 0, 750, 0, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			td := load(t, webDeployment(c.spec)).Cluster.Templates[0]
			if td.CPU != c.cpu || td.Memory != c.mem {
				t.Errorf("requests cpu %d memory %d, want %d %d", td.CPU, td.Memory, c.cpu, c.mem)
			}
			if nz := td.NonZeroCPU; nz != c.nzCPU {
				t.Errorf("scored cpu %d, want %d", nz, c.nzCPU)
			}
			if td.LimitCPU != c.limCPU {
				t.Errorf("limit cpu %d, want %d", td.LimitCPU, c.limCPU)
			}
			if got := len(td.QuotaMissing[2]) > 0; got != c.missingLimits {
				t.Errorf("missing limits.cpu %v, want %v", td.QuotaMissing[2], c.missingLimits)
			}
			if got := len(td.QuotaMissing[0]) > 0; got != c.missingCPUReq {
				t.Errorf("missing requests.cpu %v, want %v", td.QuotaMissing[0], c.missingCPUReq)
			}
		})
	}
	for _, c := range []struct{ spec, want string }{
		{`      resources: {requests: {cpu: 100m}}
      containers:
      - {name: a, resources: {requests: {cpu: 300m}}}
`, `spec.template.spec.resources.requests.cpu: "100m" is below the containers' aggregate cpu request of 300m`},
		{`      resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}
      containers:
      - {name: a}
`, `spec.template.spec.resources.requests.memory: "2Gi" is above the pod-level memory limit of 1024Mi`},
	} {
		_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + webDeployment(c.spec))}}, nil, nil, testOptions())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
