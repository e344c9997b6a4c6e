package manifest

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kivi-go/kivi/model"
)

// TestHPAMetrics: every metric source type is read with the target the
// controller reads and its value as a milli-value (Pods, Object,
// External), without warnings. A ContainerResource metric on one of two
// containers is unknown to the model, one on a container the pods lack is
// always invalid (upstream fails it at every sync); on the only container
// it is a Resource metric, its usage the pod's.
func TestHPAMetrics(t *testing.T) {
	data, err := os.ReadFile("testdata/fuzz/manifests/hpametrics.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := load(t, string(data))
	for _, w := range r.Warnings {
		t.Errorf("unexpected warning: %s", w)
	}
	want := []model.MetricDecl{
		{Resource: "cpu", Type: "Utilization", Target: 70},
		{Kind: "ContainerResource", Name: "web", Resource: "cpu", Type: "Utilization", Target: 60},
		{Kind: "ContainerResource", Name: "sidecar", Resource: "memory", Type: "AverageValue", Target: 48,
			Invalid: "container sidecar not found in the pods"},
		{Kind: "Pods", Name: "requests_per_second", Type: "AverageValue", Target: 1_000_000},
		{Kind: "Object", Name: "requests_per_second", Type: "Value", Target: 10_000_000},
		{Kind: "Object", Name: "requests_per_second", Type: "AverageValue", Target: 500},
		{Kind: "External", Name: "queue_messages_ready", Type: "AverageValue", Target: 30_000},
		{Kind: "External", Name: "s0-rabbitmq-orders", Type: "Value", Target: 1500},
	}
	if diff := cmp.Diff(want, r.Cluster.Deployments[0].HPA.Metrics); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}

	single := load(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {kind: Deployment, name: web}
  maxReplicas: 3
  metrics:
  - type: ContainerResource
    containerResource: {name: cpu, container: c, target: {type: Utilization, averageUtilization: 60}}
`)
	if diff := cmp.Diff([]model.MetricDecl{{Name: "c", Resource: "cpu", Type: "Utilization", Target: 60}},
		single.Cluster.Deployments[0].HPA.Metrics); diff != "" {
		t.Errorf("only container (-want +got):\n%s", diff)
	}
}
