package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestHPAMissingContainerRequest: kube-controller-manager's HPA cannot
// compute a Utilization metric when a container or a sidecar of the pods
// does not request the resource (calculateRequests: "missing request for
// cpu in container …"), and does not scale on it. The pods use their
// requests, 100 % against a 50 % target, so an HPA that can read them
// scales 2 → 4 and the spec rises above the running replicas.
func TestHPAMissingContainerRequest(t *testing.T) {
	deployment := func(containers string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
` + containers + `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 4
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`
	}
	const web = "      - {name: web, resources: {requests: {cpu: 500m, memory: 256Mi}}}\n"
	const intents = `intents:
- name: replica_num_always_meet_exp
  params: {deployment: web, expReplicas: spec}
`
	for _, c := range []struct {
		name, containers string
		want             checker.Verdict
	}{
		{"every container requests cpu", "      containers:\n" + web + "      - {name: log, resources: {requests: {cpu: 50m}}}\n", checker.Violated},
		{"a container requests none", "      containers:\n" + web + "      - {name: log}\n", checker.Holds},
		{"a container requests memory only", "      containers:\n" + web + "      - {name: log, resources: {requests: {memory: 64Mi}}}\n", checker.Holds},
		{"a cpu limit is the request", "      containers:\n" + web + "      - {name: log, resources: {limits: {cpu: 50m}}}\n", checker.Violated},
		{"a sidecar requests none", "      initContainers:\n      - {name: proxy, restartPolicy: Always}\n      containers:\n" + web, checker.Holds},
		{"an init container is not read", "      initContainers:\n      - {name: migrate}\n      containers:\n" + web, checker.Violated},
		{"pod-level request", "      resources: {requests: {cpu: \"1\"}}\n      containers:\n" + web + "      - {name: log}\n", checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := verifyManifests(t, deployment(c.containers), twoNodes("4"), intents, true).Result("replica_num_always_meet_exp")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_exp %+v, want %v", r, c.want)
			}
		})
	}
}

// TestHPALoadAssumption: the pods use their requests, 100 % of them, so
// an HPA whose target is outside its tolerance of 100 % rescales with no
// load event, and the report says the verdicts rest on that load; at a
// target of 95 % (within the 10 % tolerance) it does not, nor at 150 %
// with the replicas at minReplicas already.
func TestHPALoadAssumption(t *testing.T) {
	manifests := func(target string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: 500m, memory: 256Mi}}}]
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
    resource: {name: memory, target: {type: Utilization, averageUtilization: ` + target + `}}
`
	}
	for _, c := range []struct {
		target string
		want   bool
	}{{"70", true}, {"95", false}, {"150", false}} {
		rep := verifyManifests(t, manifests(c.target), twoNodes("4"), "", false)
		got := strings.Contains(strings.Join(rep.Assumptions, "\n"), "the HPA of web (memory "+c.target+" %) rescales from its first sync")
		if got != c.want {
			t.Errorf("target %s %%: assumptions %q, want the load stated: %v", c.target, rep.Assumptions, c.want)
		}
	}
}

// TestHPALoadAssumptionOutsideModel: a ContainerResource metric on one of
// two containers reads the environment, not the requests, so the load
// assumption names only the Resource metric; two HPAs the load moves are
// named in one sentence, each with its metrics.
func TestHPALoadAssumptionOutsideModel(t *testing.T) {
	const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - {name: api, resources: {requests: {cpu: 500m, memory: 256Mi}}}
      - {name: envoy, resources: {requests: {cpu: 100m, memory: 64Mi}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 2
  maxReplicas: 4
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 75}}
  - type: Resource
    resource: {name: memory, target: {type: Utilization, averageUtilization: 80}}
  - type: ContainerResource
    containerResource: {name: cpu, container: api, target: {type: Utilization, averageUtilization: 50}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: worker}
spec:
  replicas: 1
  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec:
      containers: [{name: worker, resources: {requests: {cpu: 500m}}}]
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: worker}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: worker}
  minReplicas: 1
  maxReplicas: 3
  targetCPUUtilizationPercentage: 60
`
	rep := verifyInput(t, input{manifests: manifests, nodes: twoNodes("8"), opts: kivi.Options{Checker: checker.Options{MaxStates: 2000}}})
	got := strings.Join(rep.Assumptions, "\n")
	want := "so the HPAs of api (cpu 75 %, memory 80 %) and worker (cpu 60 %) rescale from their first sync"
	if !strings.Contains(got, want) {
		t.Errorf("assumptions %q, want %q", got, want)
	}
}
