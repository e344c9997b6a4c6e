package manifest

import (
	"strings"
	"testing"
)

// TestMissingMetricRequest: the HPA's replica calculator reads the
// requests of the containers and sidecars (as the API server defaults
// them), or the pod-level request; a pod without one cannot be measured
// against a Utilization target, and an HPA reading it is warned about.
func TestMissingMetricRequest(t *testing.T) {
	for _, c := range []struct {
		name, spec string
		cpu, mem   string
	}{
		{"every container", "      containers:\n      - {name: a, resources: {requests: {cpu: 100m, memory: 64Mi}}}\n", "", ""},
		{"a container without requests", "      containers:\n      - {name: a, resources: {requests: {cpu: 100m}}}\n      - {name: b}\n",
			"missing request for cpu in container b", "missing request for memory in container a"},
		{"limits default the requests", "      containers:\n      - {name: a, resources: {limits: {cpu: 100m, memory: 64Mi}}}\n", "", ""},
		{"a sidecar", "      initContainers:\n      - {name: s, restartPolicy: Always}\n      containers:\n      - {name: a, resources: {requests: {cpu: 100m, memory: 64Mi}}}\n",
			"missing request for cpu in container s", "missing request for memory in container s"},
		{"an init container", "      initContainers:\n      - {name: i}\n      containers:\n      - {name: a, resources: {requests: {cpu: 100m, memory: 64Mi}}}\n", "", ""},
		{"pod level", "      resources: {limits: {cpu: 200m}}\n      containers:\n      - {name: a}\n", "", "missing pod-level request for memory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			td := load(t, webDeployment(c.spec)).Cluster.Templates[0]
			if got := td.MissingMetricRequest; got[0] != c.cpu || got[1] != c.mem {
				t.Errorf("missing metric requests %q, want [%q %q]", got, c.cpu, c.mem)
			}
		})
	}
	hpa := `
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
  - type: Resource
    resource: {name: memory, target: {type: AverageValue, averageValue: 100Mi}}
`
	r := load(t, webDeployment("      containers:\n      - {name: a}\n")+hpa)
	var warned []string
	for _, w := range r.Warnings {
		if strings.Contains(w.Msg, "Utilization metric cannot be computed") {
			warned = append(warned, w.String())
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "spec.metrics: the cpu Utilization metric cannot be computed for the pods of Deployment web (missing request for cpu in container a)") {
		t.Errorf("warnings %q, want one about the cpu metric", warned)
	}
}
