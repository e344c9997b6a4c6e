package manifest

import (
	"strings"
	"testing"
)

// TestActiveDeadlineQuotaScopes: a Job whose pod template sets
// activeDeadlineSeconds has its pods in the Terminating scope, so a
// Terminating quota of no pods refuses them and a NotTerminating one does
// not; without the field, the other way round.
func TestActiveDeadlineQuotaScopes(t *testing.T) {
	const quotas = `apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "20"}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: deadlined, namespace: jobs}
spec:
  hard: {pods: "0"}
  scopes: [Terminating]
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: open-ended, namespace: jobs}
spec:
  hard: {pods: "0"}
  scopeSelector:
    matchExpressions: [{scopeName: NotTerminating, operator: Exists}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch, namespace: jobs}
spec:
  template:
    spec:
      restartPolicy: Never
`
	for deadline, want := range map[string]string{"      activeDeadlineSeconds: 300\n": "deadlined", "": "open-ended"} {
		data := quotas + deadline + "      containers: [{name: work, resources: {requests: {cpu: 100m, memory: 64Mi}}}]\n"
		r, err := LoadStream([]File{{Name: "job.yaml", Data: []byte(data)}}, nil, nil, testOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got := len(r.Cluster.ResourceQuotas); got != 2 {
			t.Fatalf("%d quotas kept, want 2", got)
		}
		u, s, err := r.Cluster.Build()
		if err != nil {
			t.Fatal(err)
		}
		msg, refused := u.QuotaRefusal(s, 0)
		if !refused || !strings.HasPrefix(msg, "exceeded quota: "+want+",") {
			t.Errorf("activeDeadlineSeconds %q: refusal %q, want one by %s", strings.TrimSpace(deadline), msg, want)
		}
	}
}
