package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestNodeNotReadyInDump: a running cluster's node b is NotReady and runs
// one of web's two pods. With its Ready condition False the node lifecycle
// controller taints it node.kubernetes.io/not-ready:NoExecute, and the
// pod, which tolerates that taint for the default 300 s, is evicted: web
// drops below its spec (replica_num_always_meet_exp). A pod that
// tolerates both node-down taints for ever stays. The condition is kept:
// with Unknown the node gets the unreachable taint only, so a pod that
// tolerates unreachable for ever stays and one that tolerates only
// not-ready for ever is evicted; a condition of another value leaves the
// key open (both explored). A node whose dump lists the taint already is
// handled as one tainted by the input (its pods are queued for the taint
// manager), with the same outcome.
func TestNodeNotReadyInDump(t *testing.T) {
	nodes := func(taints, condition string) string {
		return `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: a}, status: {allocatable: {cpu: "4", memory: 8Gi}}}
- {apiVersion: v1, kind: Node, metadata: {name: b}, spec: {taints: [` + taints + `]}, status: {allocatable: {cpu: "4", memory: 8Gi}, conditions: [{type: Ready, status: "` + condition + `"}]}}
`
	}
	const forever = `, tolerations: [{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}, {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}]`
	const unreachableForever = `, tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}]`
	const notReadyForever = `, tolerations: [{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}]`
	for _, c := range []struct {
		name, tolerations, taints, condition string
		want                                 checker.Verdict
	}{
		{"default tolerations", "", "", "False", checker.Violated},
		{"default tolerations, unreachable", "", "", "Unknown", checker.Violated},
		{"tolerates the node-down taints for ever", forever, "", "False", checker.Holds},
		{"the dump lists the taint", "", "{key: node.kubernetes.io/not-ready, effect: NoExecute}", "False", checker.Violated},
		{"unreachable, tolerated for ever", unreachableForever, "", "Unknown", checker.Holds},
		{"not ready, only unreachable tolerated", unreachableForever, "", "False", checker.Violated},
		{"unreachable, only not-ready tolerated", notReadyForever, "", "Unknown", checker.Violated},
		{"not ready, tolerated for ever", notReadyForever, "", "False", checker.Holds},
		{"another condition value: both keys", unreachableForever, "", "Maybe", checker.Violated},
		{"another condition value: both keys tolerated", forever, "", "Maybe", checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			dump := webDump(2, "1", "", webPod("web-6c8-1", "a", "1"), webPod("web-6c8-2", "b", "1"))
			if c.tolerations != "" {
				dump = strings.ReplaceAll(dump, "resources: {requests: {cpu: \"1\", memory: 256Mi}}}]", "resources: {requests: {cpu: \"1\", memory: 256Mi}}}]"+c.tolerations)
			}
			rep := verifyLoadedOn(t, kivi.LoadClusterDump, dump, nodes(c.taints, c.condition), "intents:\n- name: replica_num_always_meet_exp\n  params: {deployment: web, expReplicas: spec}\n")
			if r := rep.Result("replica_num_always_meet_exp"); r == nil || r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_exp: %+v, want %v", r, c.want)
			}
		})
	}
}
