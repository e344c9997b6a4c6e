package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestDaemonSetOverheadLeavesNoRoom: two 1.5-CPU replicas fit on two
// 2-CPU workers, until a DaemonSet takes 600m on each: then the second
// replica finds no node. The DaemonSet is read as node reservations.
func TestDaemonSetOverheadLeavesNoRoom(t *testing.T) {
	const web = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 1500m, memory: 1Gi}}}]}
`
	const agent = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: monitoring}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: c, resources: {limits: {cpu: 600m, memory: 256Mi}}}]}
`
	verdict := func(manifests string) (checker.Verdict, []string) {
		r := verifyManifests(t, manifests, twoNodes("2"), "", false).Result("pod_always_schedulable")
		if r == nil {
			t.Fatal("no pod_always_schedulable result")
		}
		if r.Trace == nil {
			return r.Verdict, nil
		}
		return r.Verdict, r.Trace.Lines()
	}
	if v, _ := verdict(web); v != checker.Holds {
		t.Fatalf("without the DaemonSet: %v, want holds", v)
	}
	v, lines := verdict(web + "---\n" + agent)
	if v != checker.Violated || len(lines) == 0 || !strings.Contains(lines[len(lines)-1], "2 Insufficient cpu") {
		t.Fatalf("with the DaemonSet: %v, trace ending %q; want violated with 2 Insufficient cpu", v, lines)
	}
}
