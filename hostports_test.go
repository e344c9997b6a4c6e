package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// threeNodes is a NodeList of three nodes of cpu cores and 8Gi each.
func threeNodes(cpu string) string {
	return twoNodes(cpu) + `- {apiVersion: v1, kind: Node, metadata: {name: c}, status: {allocatable: {cpu: "` + cpu + `", memory: 8Gi}}}
`
}

// TestHostPortRollout: a Deployment of three replicas with hostPort 80 on
// three nodes, one pod per node, rolled out to a new version. With
// maxSurge 1 and maxUnavailable 0 the surge pod needs a node whose port 80
// is free, and none is (the NodePorts filter): it stays Pending, which
// pod_always_schedulable reports (the run that stops there is judged by
// that violation, not again by rollout_completes). With maxSurge 0 and
// maxUnavailable 1 an old pod goes first and frees its node's port: the
// new pod waits for it and the rollout finishes. A DaemonSet on the
// host's network holding port 80 on every node keeps even the first
// version's pods off the nodes.
func TestHostPortRollout(t *testing.T) {
	ingress := func(version, strategy string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ingress}
spec:
  replicas: 3
  strategy: {type: RollingUpdate, rollingUpdate: ` + strategy + `}
  selector: {matchLabels: {app: ingress}}
  template:
    metadata: {labels: {app: ingress, version: ` + version + `}}
    spec:
      containers:
      - name: nginx
        resources: {requests: {cpu: 100m, memory: 64Mi}}
        ports: [{containerPort: 8080, hostPort: 80}]
`
	}
	const daemonSet = `---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: proxy}
spec:
  selector: {matchLabels: {app: proxy}}
  template:
    metadata: {labels: {app: proxy}}
    spec:
      hostNetwork: true
      containers: [{name: p, ports: [{containerPort: 80}]}]
`
	const intents = `intents:
- name: rollout_completes
  params: {deployment: ingress}
- name: pod_always_schedulable
events:
- {kind: applyDeployment, manifest: v2.yaml, when: afterStable}
`
	const surge, noSurge = "{maxSurge: 1, maxUnavailable: 0}", "{maxSurge: 0, maxUnavailable: 1}"
	const noPort = "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports"
	for _, c := range []struct {
		name, strategy, daemonSet string
		schedulable               checker.Verdict
		// stuck is the pod the scheduler cannot place ("": none).
		stuck string
	}{
		{"maxSurge 1", surge, "", checker.Violated, "ingress-4"},
		{"maxUnavailable 1", noSurge, "", checker.Holds, ""},
		{"a DaemonSet holds the port", noSurge, daemonSet, checker.Violated, "ingress-1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyInput(t, input{manifests: ingress("v1", c.strategy) + c.daemonSet, nodes: threeNodes("4"), intents: intents,
				files: map[string]string{"v2.yaml": ingress("v2", c.strategy)}, opts: kivi.Options{Checker: checker.Options{CollectAll: true}}})
			r := rep.Result("pod_always_schedulable")
			if r == nil || r.Verdict != c.schedulable {
				t.Fatalf("pod_always_schedulable: %+v, want %v", r, c.schedulable)
			}
			if c.stuck != "" {
				lines := strings.Join(r.Trace.Lines(), "\n")
				if want := "Pod " + c.stuck + " cannot be scheduled: " + noPort; !strings.Contains(lines, want) {
					t.Errorf("trace without %q:\n%s", want, lines)
				}
			}
			if r := rep.Result("rollout_completes"); r == nil || r.Verdict != checker.Holds {
				t.Errorf("rollout_completes: %+v, want holds (a run that stops on an unschedulable pod is judged by pod_always_schedulable)", r)
			}
		})
	}
}
