package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestRolloutCompletes: a release applied under a ResourceQuota of two
// pods to a workload of two replicas. A Deployment's RollingUpdate
// (maxSurge 1, maxUnavailable 0) needs a third pod first, which the quota
// refuses: the rollout never finishes. A StatefulSet's RollingUpdate
// deletes a pod before it creates its replacement, so it finishes; with a
// partition of 1 only db-1 is updated, which is what rollout status waits
// for. Without the quota both finish.
func TestRolloutCompletes(t *testing.T) {
	workload := func(kind, version, extra string) string {
		return `apiVersion: apps/v1
kind: ` + kind + `
metadata: {name: app, namespace: shop}
spec:
  replicas: 2
` + extra + `  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app, version: ` + version + `}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
`
	}
	const quota = `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec:
  hard: {pods: "2"}
---
`
	const intents = `intents:
- name: rollout_completes
  params: {deployment: app}
events:
- {kind: applyDeployment, manifest: v2.yaml, when: afterStable}
`
	for _, c := range []struct {
		name, kind, extra, quota string
		want                     checker.Verdict
	}{
		{"Deployment", "Deployment", "", "", checker.Holds},
		{"Deployment under the quota", "Deployment", "", quota, checker.Violated},
		{"StatefulSet under the quota", "StatefulSet", "  serviceName: app\n", quota, checker.Holds},
		{"StatefulSet with a partition", "StatefulSet", "  serviceName: app\n  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1}}\n", quota, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyInput(t, input{manifests: c.quota + workload(c.kind, "v1", c.extra), nodes: twoNodes("4"), intents: intents,
				files: map[string]string{"v2.yaml": workload(c.kind, "v2", c.extra)}, opts: kivi.Options{Checker: checker.Options{CollectAll: true}}})
			r := rep.Result("rollout_completes")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("rollout_completes: %+v, want %v", r, c.want)
			}
			if c.want == checker.Violated && !strings.Contains(r.Explanation, "rollout stopped: 0 of 2 updated replicas running, 2 old replicas left") {
				t.Errorf("explanation %q", r.Explanation)
			}
		})
	}
}
