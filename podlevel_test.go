package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestPodLevelResourcesPlacement: pods whose cpu is requested at pod
// level (spec.resources, PodLevelResources) take it on their node: three
// 600m pods do not fit two 1-CPU nodes, where the containers alone
// request nothing.
func TestPodLevelResourcesPlacement(t *testing.T) {
	deployment := func(podLevel string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
` + podLevel + `      containers: [{name: c}]
`
	}
	for _, c := range []struct {
		name, podLevel string
		want           checker.Verdict
	}{
		{"containers only", "", checker.Holds},
		{"pod-level request", "      resources: {requests: {cpu: 600m}}\n", checker.Violated},
		{"pod-level limit", "      resources: {limits: {cpu: 600m}}\n", checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := verifyManifests(t, deployment(c.podLevel), twoNodes("1"), "", false).Result("pod_always_schedulable")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("pod_always_schedulable %+v, want %v", r, c.want)
			}
			if c.want == checker.Violated && !strings.Contains(strings.Join(r.Trace.Lines(), "\n"), "Insufficient cpu") {
				t.Errorf("the counterexample does not end on Insufficient cpu:\n%s", strings.Join(r.Trace.Lines(), "\n"))
			}
		})
	}
}
