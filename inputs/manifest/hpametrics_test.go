package manifest

import (
	"os"
	"strings"
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
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
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

// TestScaleTargetAPIVersion: an HPA's scaleTargetRef.apiVersion as the
// API server v1.36 validates it on creation (a group is required, but
// for a ReplicationController) and as the HPA controller follows it (by
// group and kind: any version of apps reaches the Deployment; another
// group holds no Deployment, FailedGetScale).
func TestScaleTargetAPIVersion(t *testing.T) {
	for _, tc := range []struct {
		apiVersion string
		// hpa: the Deployment is autoscaled; warn, err: the text of a
		// warning or of the input error.
		hpa       bool
		warn, err string
	}{
		{apiVersion: "apps/v1", hpa: true},
		{apiVersion: "apps/v1beta2", hpa: true},
		{apiVersion: "extensions/v1beta1", warn: `spec.scaleTargetRef.apiVersion: ignored: the HPA controller finds no Deployment in API group extensions: Kubernetes stopped serving it in v1.16, so it never scales "web" (FailedGetScale; accepted: apps/v1)`},
		{apiVersion: "", err: `spec.scaleTargetRef.apiVersion: "": the API server refuses a scaleTargetRef whose apiVersion names no API group (accepted: apps/v1 for a Deployment or StatefulSet)`},
		{apiVersion: "v1", err: `spec.scaleTargetRef.apiVersion: "v1": the API server refuses`},
		{apiVersion: "apps/v1/x", err: `spec.scaleTargetRef.apiVersion: "apps/v1/x" is not an apiVersion (accepted: GROUP/VERSION, as apps/v1)`},
	} {
		t.Run(tc.apiVersion, func(t *testing.T) {
			hpa := `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: "` + tc.apiVersion + `", kind: Deployment, name: web}
  maxReplicas: 4
`
			r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + webDeployment("      containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n") + "---\n" + hpa)}}, nil, nil, testOptions())
			if wantInputError(t, err, tc.err, strings.Contains) {
				return
			}
			if got := r.Cluster.Deployments[0].HPA != nil; got != tc.hpa {
				t.Errorf("autoscaled %v, want %v", got, tc.hpa)
			}
			if all := strings.Join(warningTexts(r), "\n"); !strings.Contains(all, tc.warn) {
				t.Errorf("warnings %q, want %q", all, tc.warn)
			}
		})
	}
}
