package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestCriticalAgentPreemptsOnFullNode: a node agent pinned to node a by
// spec.nodeName with priorityClassName system-node-critical is started
// (kubectl scale to one replica) once the two web replicas fill the
// node. The scheduler never sees it; the kubelet's critical pod
// admission handler preempts a web pod to admit it, and web falls below
// its replicas. With a smaller agent the node holds all three pods.
func TestCriticalAgentPreemptsOnFullNode(t *testing.T) {
	const nodes = `apiVersion: v1
kind: Node
metadata: {name: a}
status: {allocatable: {cpu: "1", memory: 4Gi}}
`
	const web = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 400m, memory: 256Mi}}}]}
`
	agent := func(cpu string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: node-agent}
spec:
  replicas: 0
  selector: {matchLabels: {app: node-agent}}
  template:
    metadata: {labels: {app: node-agent}}
    spec:
      nodeName: a
      priorityClassName: system-node-critical
      containers: [{name: c, resources: {requests: {cpu: ` + cpu + `, memory: 64Mi}}}]
`
	}
	const intents = `intents:
- name: replica_num_always_meet_exp
  params: {deployment: web, expReplicas: spec}
events:
- kind: scaleDeployment
  deployment: node-agent
  replicas: 1
  when: afterStable
`
	verdict := func(manifests string) (checker.Verdict, []string) {
		r := verifyManifests(t, manifests, nodes, intents, false).Result("replica_num_always_meet_exp")
		if r == nil {
			t.Fatal("no replica_num_always_meet_exp result")
		}
		if r.Trace == nil {
			return r.Verdict, nil
		}
		return r.Verdict, r.Trace.Lines()
	}
	if v, lines := verdict(web + "---\n" + agent("100m")); v != checker.Holds {
		t.Fatalf("with a 100m agent: %v, want holds\n%s", v, strings.Join(lines, "\n"))
	}
	v, lines := verdict(web + "---\n" + agent("500m"))
	trace := strings.Join(lines, "\n")
	if v != checker.Violated || !strings.Contains(trace, "to admit critical pod") || !strings.Contains(trace, "(Preempting)") {
		t.Fatalf("with a 500m agent: %v, want violated after a preemption\n%s", v, trace)
	}
	t.Log(trace)
}
