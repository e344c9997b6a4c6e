package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// memoryPressureManifests: node a has 1Gi allocatable; cache (256Mi
// request), api (640Mi) and batch (BestEffort) run there, every one of
// them held to node a. batch's working set grows by up to 128Mi and cache
// leaks up to 64Mi: neither alone takes the pods past the allocatable,
// both together do, and then batch is the pod furthest above its request.
const memoryPressureManifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: cache}
spec:
  replicas: 1
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec:
      nodeSelector: {kubernetes.io/hostname: a}
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: 256Mi}CACHE_LIMITS}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      nodeSelector: {kubernetes.io/hostname: a}
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: API_MEMORY}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: batch}
spec:
  replicas: 1
  selector: {matchLabels: {app: batch}}
  template:
    metadata: {labels: {app: batch}}
    spec:
      nodeSelector: {kubernetes.io/hostname: a}
      containers: [{name: c BATCH_RESOURCES}]
`

const memoryPressureNodes = `apiVersion: v1
kind: Node
metadata: {name: a, labels: {kubernetes.io/hostname: a}}
status: {allocatable: {cpu: "4", memory: 1Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: b, labels: {kubernetes.io/hostname: b}}
status: {allocatable: {cpu: "4", memory: 1Gi, pods: "110"}}
`

const memoryPressureIntents = `intents:
- name: pod_always_schedulable
events:
- {kind: eventMemoryChange, deployment: batch, maxDelta: 128Mi}
- {kind: eventMemoryChange, deployment: cache, maxDelta: 67108864}
`

// TestMemoryPressureEvictsBestEffortNeighbour: a leak in cache's pod, with
// batch's own growth, takes node a under memory pressure; the kubelet
// evicts batch, the BestEffort pod furthest above its request, and batch's
// replacement finds node a tainted node.kubernetes.io/memory-pressure:
// pod_always_schedulable is violated. With limits equal to the requests
// (Guaranteed pods, batch given 128Mi), a leak OOM-kills the leaking
// container instead, the node never comes under pressure, and the intent
// holds.
func TestMemoryPressureEvictsBestEffortNeighbour(t *testing.T) {
	for _, c := range []struct {
		name                        string
		cacheLimits, api, batchRess string
		want                        checker.Verdict
	}{
		{"best-effort neighbour", "", "640Mi", "", checker.Violated},
		{"requests cover the usage", ", limits: {memory: 256Mi}", "576Mi",
			", resources: {requests: {memory: 128Mi}, limits: {memory: 128Mi}}", checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := strings.NewReplacer("CACHE_LIMITS", c.cacheLimits, "API_MEMORY", c.api, "BATCH_RESOURCES", c.batchRess).Replace(memoryPressureManifests)
			rep := verifyManifests(t, m, memoryPressureNodes, memoryPressureIntents, false)
			r := rep.Result("pod_always_schedulable")
			if r == nil {
				t.Fatal("no result for pod_always_schedulable")
			}
			if r.Verdict != c.want {
				t.Fatalf("pod_always_schedulable %v, want %v (%s)", r.Verdict, c.want, r.Explanation)
			}
			if c.want != checker.Violated {
				return
			}
			var text strings.Builder
			for _, st := range r.Trace.Steps {
				for _, l := range st.Lines {
					text.WriteString(l.String() + "\n")
				}
			}
			for _, want := range []string{"Evicted pod batch-", "has condition MemoryPressure", "node.kubernetes.io/memory-pressure"} {
				if !strings.Contains(text.String(), want) {
					t.Errorf("the counterexample does not say %q:\n%s", want, text.String())
				}
			}
			if strings.Contains(text.String(), "Evicted pod cache-") {
				t.Errorf("the counterexample evicts cache, the smaller excess:\n%s", text.String())
			}
		})
	}
}
