package kivi_test

import (
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestHPAUtilisationOfRunningContainers: the HPA divides a Utilization
// metric by the requests of the running containers and sidecars
// (calculateRequests), not by the scheduler's request, which also holds
// the largest regular init container and the RuntimeClass overhead; and
// the pods, at rest, use what their running containers request. Two pods
// of one 500m container at a 100 % target: one pod using 300m more reads
// (500+800)/1000 = 130 %, beyond the 10 % tolerance, and the HPA scales
// up, with a 2-CPU init container or a 1500m overhead as without. Read
// against the scheduler's request, the same load is (2000+2300)/4000 =
// 107.5 %, within the tolerance. With pod-level requests the calculator
// reads the pod's request, overhead included: (2000+2300)/4000 again.
func TestHPAUtilisationOfRunningContainers(t *testing.T) {
	manifests := func(spec, extra string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
` + spec + `      containers: [{name: web, resources: {requests: {cpu: 500m, memory: 256Mi}}}]
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
` + extra
	}
	const overhead = `---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 1500m, memory: 64Mi}}
`
	const intents = `intents:
- name: replica_num_always_meet_exp
  params: {deployment: web, expReplicas: spec}
events:
- {kind: eventCpuChange, deployment: web, maxDelta: 300, when: afterStable}
`
	for _, c := range []struct {
		name, spec, extra string
		want              checker.Verdict
	}{
		{"containers only", "", "", checker.Violated},
		{"a big init container", "      initContainers: [{name: migrate, resources: {requests: {cpu: \"2\"}}}]\n", "", checker.Violated},
		{"a RuntimeClass overhead", "      runtimeClassName: kata\n", overhead, checker.Violated},
		{"pod-level requests and overhead", "      runtimeClassName: kata\n      resources: {requests: {cpu: 500m}}\n", overhead, checker.Holds},
		{"a sidecar counted", "      initContainers: [{name: proxy, restartPolicy: Always, resources: {requests: {cpu: 1500m}}}]\n", "", checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := verifyManifests(t, manifests(c.spec, c.extra), twoNodes("8"), intents, true).Result("replica_num_always_meet_exp")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_exp %+v, want %v", r, c.want)
			}
		})
	}
}
