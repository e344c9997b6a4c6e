package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestHPACountsCanaryPods: a stable Deployment whose selector (app: web)
// also selects its canary's pods (app: web, track: canary), with an HPA,
// as kube-controller-manager runs it: the HPA lists the canary's pod in
// its metrics, so a CPU rise of the canary's pod scales web up, to 4
// replicas on a node with room for 4 pods of 1 CPU, and a pod finds no
// node. With a selector that selects web's own pods only
// (track: stable), the canary's load does not move web, and every pod
// is placed.
func TestHPACountsCanaryPods(t *testing.T) {
	const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, track: stable}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: "1", memory: 128Mi}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-canary}
spec:
  replicas: 1
  selector: {matchLabels: {app: web, track: canary}}
  template:
    metadata: {labels: {app: web, track: canary}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: "1", memory: 128Mi}}}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 4
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 100}}
`
	const nodes = `apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
`
	const intents = `intents:
- name: pod_always_schedulable
events:
- kind: eventCpuChange
  deployment: web-canary
  when: afterStable
`
	for _, tc := range []struct {
		name, selector string
		want           checker.Verdict
	}{
		{"selector app=web", "{matchLabels: {app: web}}", checker.Violated},
		{"selector app=web,track=stable", "{matchLabels: {app: web, track: stable}}", checker.Holds},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := strings.Replace(manifests, "selector: {matchLabels: {app: web}}", "selector: "+tc.selector, 1)
			rep := verifyManifests(t, m, nodes, intents, false)
			r := rep.Result("pod_always_schedulable")
			if r == nil || r.Verdict != tc.want {
				t.Fatalf("pod_always_schedulable %+v, want %v", r, tc.want)
			}
			if tc.want == checker.Violated {
				trace := strings.Join(r.Trace.Lines(), "\n")
				for _, want := range []string{"CPU usage of pod web-canary-1", "Scaling deployment web from 2 to 4 replicas (the pods its selector selects include web-canary-1, which it does not control)"} {
					if !strings.Contains(trace, want) {
						t.Errorf("trace lacks %q:\n%s", want, trace)
					}
				}
			}
		})
	}
}
