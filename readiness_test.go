package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestReadinessBlocksDrain: an operator drains two nodes one after the
// other with kubectl drain --timeout (one 5 s retry) under a
// PodDisruptionBudget of minAvailable 1 over two replicas. The first
// drain evicts one pod; its replacement starts on the third node. A
// replacement without a readiness probe is Ready at once and the second
// drain goes through; with a readinessProbe it is Running but not Ready
// for a while, the budget counts one healthy pod and allows no
// disruption, and the second drain's timeout may come first: kubectl
// drain fails (not a valid end). Without readiness in the model the
// replacement counted as healthy the moment it ran, so the failure was
// missed (a false "holds").
func TestReadinessBlocksDrain(t *testing.T) {
	manifests := func(probe string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}
      containers:
      - name: web
        resources: {requests: {cpu: 500m}}
` + probe + `---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
`
	}
	nodes := `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: a}, status: {allocatable: {cpu: "1", memory: 8Gi}}}
- {apiVersion: v1, kind: Node, metadata: {name: b}, status: {allocatable: {cpu: "1", memory: 8Gi}}}
- {apiVersion: v1, kind: Node, metadata: {name: c}, status: {allocatable: {cpu: "1", memory: 8Gi}}}
`
	intents := `intents:
- name: pod_always_schedulable
events:
- {kind: drain, when: afterStable, nodes: [a, b], timeoutRetries: 1}
`
	const probe = "        readinessProbe: {httpGet: {path: /healthz, port: 8080}}\n"
	for _, c := range []struct {
		name, probe  string
		readyAtStart bool
		want         checker.Verdict
	}{
		{"no probe", "", false, checker.Holds},
		{"readinessProbe", probe, false, checker.Violated},
		// Assuming the probe passes at once hides the window: the report
		// says so.
		{"readinessProbe, ready at start", probe, true, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyInput(t, input{manifests: manifests(c.probe), nodes: nodes, intents: intents,
				opts: kivi.Options{ReadyAtStart: c.readyAtStart, Checker: checker.Options{CollectAll: true}}})
			r := rep.Result("valid_end_state")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("valid_end_state %+v, want %v", r, c.want)
			}
			if assumed := strings.Contains(strings.Join(rep.Assumptions, "\n"), "--ready-at-start"); assumed != c.readyAtStart {
				t.Errorf("assumptions %q", rep.Assumptions)
			}
			if c.want != checker.Violated {
				return
			}
			trace := strings.Join(r.Trace.Lines(), "\n")
			for _, want := range []string{"not Ready until its readiness probe succeeds", "disruption budget web needs 1 healthy pods and has 1 currently"} {
				if !strings.Contains(trace, want) {
					t.Errorf("the counterexample does not show %q:\n%s", want, trace)
				}
			}
		})
	}
}
