package kivi_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kivi-go/kivi"
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

// TestOSNodesNotInterchangeable: a pod that names its OS, by the
// kubernetes.io/os label or by spec.os.name, and that the scheduler may
// place on a node of another OS (no nodeSelector), is rejected there by
// the kubelet (PodOSSelectorNodeLabelDoesNotMatch, PodOSNotSupported), and
// its ReplicaSet creates it again: a loop. Nodes that differ only in their
// OS are not interchangeable for that pod, so the symmetry reduction finds
// the loop as the full search does (it once took the two nodes for one
// and could not replay the loop's trace). Where every node runs the pod's
// OS there is no loop. The inputs are kivi init's test's
// (cmd/kivi/testdata/osreject).
func TestOSNodesNotInterchangeable(t *testing.T) {
	dir := filepath.Join("cmd", "kivi", "testdata", "osreject")
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for _, c := range []struct {
		deployment, nodes string
		want              checker.Verdict
	}{
		{"deployment-label.yaml", "nodes-mixed.yaml", checker.Violated},
		{"deployment-os.yaml", "nodes-mixed.yaml", checker.Violated},
		{"deployment-os.yaml", "nodes-windows.yaml", checker.Holds},
	} {
		for _, noSymmetry := range []bool{false, true} {
			rep := verifyInput(t, input{manifests: read(c.deployment), nodes: read(c.nodes), intents: read("intents.yaml"),
				opts: kivi.Options{Checker: checker.Options{NoSymmetry: noSymmetry}}})
			r := rep.Result("no_oscillation_rejection")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("%s on %s, symmetry off %v: no_oscillation_rejection %+v, want %v", c.deployment, c.nodes, noSymmetry, r, c.want)
			}
		}
	}
}
