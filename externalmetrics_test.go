package kivi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestExternalMetricBeyondCapacity: a queue worker scaled by an External
// metric (KEDA's shape: an averageValue per pod of a queue's length),
// whose value the model does not know, on one node with room for four
// pods. With maxReplicas 6 the queue can grow until the HPA asks for more
// pods than the node holds: pod_always_schedulable is violated, and the
// trace says the External metric drove the scale-up. With maxReplicas 4
// every count the HPA can reach fits, whatever the queue does, and the
// cluster can still come to rest (valid_end_state holds: the sync that
// would change nothing is no step).
func TestExternalMetricBeyondCapacity(t *testing.T) {
	const nodes = `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: worker-1}, status: {allocatable: {cpu: 800m, memory: 2Gi}}}
`
	manifests := func(maxReplicas string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: worker}
spec:
  replicas: 1
  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec:
      containers: [{name: worker, resources: {requests: {cpu: 200m, memory: 64Mi}}}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: worker}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: worker}
  minReplicas: 1
  maxReplicas: ` + maxReplicas + `
  metrics:
  - type: External
    external:
      metric:
        name: queue_length
        selector: {matchLabels: {queue: orders}}
      target: {type: AverageValue, averageValue: "30"}
`
	}
	const intents = "intents:\n- name: pod_always_schedulable\n"
	for _, tc := range []struct {
		max  string
		want checker.Verdict
	}{{"6", checker.Violated}, {"4", checker.Holds}} {
		t.Run("maxReplicas "+tc.max, func(t *testing.T) {
			c, warns, err := kivi.LoadManifests([]kivi.InputFile{{Name: "manifests.yaml", Data: []byte(manifests(tc.max))}},
				&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
			if err != nil {
				t.Fatal(err)
			}
			if len(warns) > 0 {
				t.Errorf("warnings %v", warns)
			}
			rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true}})
			if err != nil {
				t.Fatal(err)
			}
			if r := rep.Result("pod_always_schedulable"); r == nil || r.Verdict != tc.want {
				t.Fatalf("pod_always_schedulable %+v, want %v", r, tc.want)
			}
			if r := rep.Result("valid_end_state"); r == nil || r.Verdict != checker.Holds {
				t.Errorf("valid_end_state %+v, want holds", r)
			}
			var text strings.Builder
			rep.WriteFailures(&text)
			if got := strings.Contains(text.String(), "external metric queue_length, recommendation"); got != (tc.want == checker.Violated) {
				t.Errorf("the trace names the External metric: %v\n%s", got, text.String())
			}
		})
	}
}
