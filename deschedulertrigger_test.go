package kivi_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestDeschedulerCycleAfterPodReady: a running cluster's four web pods
// all run on node a, under RemoveDuplicates and a budget of minAvailable
// 3. Each cycle may evict one pod; its replacement starts on b but is
// Ready only once its readiness probe passes, and a cycle that runs
// before that is refused the next eviction. The real descheduler's next
// periodic cycle, after the probe, evicts again, so the pods end two per
// node; a model whose cycles only a pod's start or removal requests
// stops at three and one (pod_balance_across_node with maxSkew 1 would be
// a false alarm). A budget of minAvailable 4 refuses every eviction.
func TestDeschedulerCycleAfterPodReady(t *testing.T) {
	for _, c := range []struct {
		name         string
		minAvailable int
		want         checker.Verdict
	}{
		{"budget allows one at a time", 3, checker.Holds},
		{"budget allows none", 4, checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			dump := webDump(4, "500m", `- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: {name: web, namespace: default}
  spec: {minAvailable: `+strconv.Itoa(c.minAvailable)+`, selector: {matchLabels: {app: web}}}
- apiVersion: descheduler/v1alpha2
  kind: DeschedulerPolicy
  profiles:
  - name: default
    plugins:
      balance: {enabled: [RemoveDuplicates]}
`, webPod("web-6c8-1", "a", "500m"), webPod("web-6c8-2", "a", "500m"), webPod("web-6c8-3", "a", "500m"), webPod("web-6c8-4", "a", "500m"))
			dump = strings.Replace(dump, "spec: {containers: [{name: web,", "spec: {containers: [{name: web, readinessProbe: {httpGet: {path: /healthz, port: 8080}},", 1)
			rep := verifyLoaded(t, kivi.LoadClusterDump, dump, "intents:\n- name: pod_balance_across_node\n  params: {deployment: web, maxSkew: 1}\n")
			if r := rep.Result("pod_balance_across_node"); r == nil || r.Verdict != c.want {
				t.Fatalf("pod_balance_across_node: %+v, want %v", r, c.want)
			}
		})
	}
}
