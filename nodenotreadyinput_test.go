package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestNodeNotReadyInDump: a running cluster's node b is NotReady (its
// Ready condition False) and runs one of web's two pods. The node
// lifecycle controller taints it node.kubernetes.io/not-ready:NoExecute,
// and the pod, which tolerates that taint for the default 300 s, is
// evicted: web drops below its spec (replica_num_always_meet_exp). A pod
// that tolerates the not-ready and unreachable taints for ever stays (the
// input's Ready condition, False or Unknown, is not kept: both taints are
// explored where they differ); a node whose dump lists the
// taint already is handled as one tainted by the input (its pods are
// queued for the taint manager), with the same outcome.
func TestNodeNotReadyInDump(t *testing.T) {
	nodes := func(taints string) string {
		return `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: a}, status: {allocatable: {cpu: "4", memory: 8Gi}}}
- {apiVersion: v1, kind: Node, metadata: {name: b}, spec: {taints: [` + taints + `]}, status: {allocatable: {cpu: "4", memory: 8Gi}, conditions: [{type: Ready, status: "False"}]}}
`
	}
	const forever = `, tolerations: [{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}, {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}]`
	for _, c := range []struct {
		name, tolerations, taints string
		want                      checker.Verdict
	}{
		{"default tolerations", "", "", checker.Violated},
		{"tolerates the node-down taints for ever", forever, "", checker.Holds},
		{"the dump lists the taint", "", "{key: node.kubernetes.io/not-ready, effect: NoExecute}", checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			dump := webDump(2, "1", "", webPod("web-6c8-1", "a", "1"), webPod("web-6c8-2", "b", "1"))
			if c.tolerations != "" {
				dump = strings.ReplaceAll(dump, "resources: {requests: {cpu: \"1\", memory: 256Mi}}}]", "resources: {requests: {cpu: \"1\", memory: 256Mi}}}]"+c.tolerations)
			}
			rep := verifyLoadedOn(t, kivi.LoadClusterDump, dump, nodes(c.taints), "intents:\n- name: replica_num_always_meet_exp\n  params: {deployment: web, expReplicas: spec}\n")
			if r := rep.Result("replica_num_always_meet_exp"); r == nil || r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_exp: %+v, want %v", r, c.want)
			}
		})
	}
}
