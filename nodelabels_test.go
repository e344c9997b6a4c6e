package kivi_test

import (
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestKubeletNodeLabels: every kubelet labels its Node with its OS and
// architecture, so a chart's nodeSelector kubernetes.io/os: linux finds
// the nodes of a cluster written without them; a Node that says another
// OS keeps it.
func TestKubeletNodeLabels(t *testing.T) {
	deployment := func(selector string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {` + selector + `}
      containers: [{name: web, resources: {requests: {cpu: 100m}}}]
`
	}
	nodes := func(labels string) string {
		return `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: a` + labels + `}, status: {allocatable: {cpu: "1", memory: 1Gi}}}
- {apiVersion: v1, kind: Node, metadata: {name: b` + labels + `}, status: {allocatable: {cpu: "1", memory: 1Gi}}}
`
	}
	for _, c := range []struct {
		name, selector, labels string
		want                   checker.Verdict
	}{
		{"os", "kubernetes.io/os: linux", "", checker.Holds},
		{"arch", "kubernetes.io/arch: amd64", "", checker.Holds},
		{"beta os", "beta.kubernetes.io/os: linux", "", checker.Holds},
		{"another arch", "kubernetes.io/arch: arm64", "", checker.Violated},
		{"the node's own os", "kubernetes.io/os: linux", ", labels: {kubernetes.io/os: windows}", checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := verifyManifests(t, deployment(c.selector), nodes(c.labels), "", false).Result("pod_always_schedulable")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("pod_always_schedulable %+v, want %v", r, c.want)
			}
		})
	}
}
