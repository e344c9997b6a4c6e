package kivi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestHintSymmetryOff: a descheduler namespace eviction limit makes
// RemoveDuplicates' node walk order matter, which switches node symmetry
// off; a run a budget ends then says so among the reasons its search is
// large. Without the limit, symmetry stays on and no such hint is given.
func TestHintSymmetryOff(t *testing.T) {
	var nodes strings.Builder
	nodes.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := range 8 {
		fmt.Fprintf(&nodes, "- {apiVersion: v1, kind: Node, metadata: {name: n%d}, status: {allocatable: {cpu: \"4\", memory: 8Gi}}}\n", i)
	}
	policy := func(limit string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 6
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: 500m}}}]
---
apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
` + limit + `profiles:
- name: p
  pluginConfig: [{name: RemoveDuplicates}]
  plugins: {balance: {enabled: [RemoveDuplicates]}}
`
	}
	for _, c := range []struct {
		limit string
		want  bool
	}{{"maxNoOfPodsToEvictPerNamespace: 2\n", true}, {"", false}} {
		rep := verifyInput(t, input{manifests: policy(c.limit), nodes: nodes.String(),
			opts: kivi.Options{ProbeStates: -1, NoQuickPass: true, NoDepthFirst: true, Checker: checker.Options{MaxStates: 40}}})
		got := strings.Contains(strings.Join(rep.Hints, "\n"), "node symmetry is off (profile \"p\" runs RemoveDuplicates")
		if got != c.want {
			t.Errorf("limit %q: hints %q, want the symmetry hint: %v", c.limit, rep.Hints, c.want)
		}
	}
}

// TestHintMaintenanceParallel: a run a budget ends names a maintenance
// that takes several nodes down at once among the reasons its search is
// large; one node at a time gives no such hint.
func TestHintMaintenanceParallel(t *testing.T) {
	var nodes strings.Builder
	nodes.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := range 6 {
		fmt.Fprintf(&nodes, "- {apiVersion: v1, kind: Node, metadata: {name: n%d}, status: {allocatable: {cpu: \"4\", memory: 8Gi}}}\n", i)
	}
	const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: 500m}}}]
`
	for _, c := range []struct {
		parallel int
		want     bool
	}{{3, true}, {1, false}} {
		intents := fmt.Sprintf("intents: [{name: pod_always_schedulable}]\nevents: [{kind: maintenance, parallel: %d, when: afterStable}]\n", c.parallel)
		rep := verifyInput(t, input{manifests: manifests, nodes: nodes.String(), intents: intents,
			opts: kivi.Options{ProbeStates: -1, NoQuickPass: true, NoDepthFirst: true, Checker: checker.Options{MaxStates: 40}}})
		got := strings.Contains(strings.Join(rep.Hints, "\n"), "a maintenance takes up to 3 of the 6 nodes down at once")
		if got != c.want {
			t.Errorf("parallel %d: hints %q, want the maintenance hint: %v", c.parallel, rep.Hints, c.want)
		}
	}
}

// TestHintLongMaintenance: a run a budget ends on a cluster of many nodes
// names a one-at-a-time maintenance, whose runs are twice as many steps
// long as the nodes, among the reasons its search is large; on a few
// nodes it does not.
func TestHintLongMaintenance(t *testing.T) {
	const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: 500m}}}]
`
	for _, c := range []struct {
		nodes int
		want  bool
	}{{20, true}, {6, false}} {
		var nodes strings.Builder
		nodes.WriteString("apiVersion: v1\nkind: List\nitems:\n")
		for i := range c.nodes {
			fmt.Fprintf(&nodes, "- {apiVersion: v1, kind: Node, metadata: {name: n%d}, status: {allocatable: {cpu: \"4\", memory: 8Gi}}}\n", i)
		}
		intents := "intents: [{name: pod_always_schedulable}]\nevents: [{kind: maintenance, order: any, when: afterStable}]\n"
		rep := verifyInput(t, input{manifests: manifests, nodes: nodes.String(), intents: intents,
			opts: kivi.Options{ProbeStates: -1, NoQuickPass: true, NoDepthFirst: true, Checker: checker.Options{MaxStates: 40}}})
		hint := fmt.Sprintf("a maintenance takes each of the %d nodes down and back in turn, so one run of it is at least %d steps long", c.nodes, 2*c.nodes)
		if got := strings.Contains(strings.Join(rep.Hints, "\n"), hint); got != c.want {
			t.Errorf("%d nodes: hints %q, want the maintenance hint: %v", c.nodes, rep.Hints, c.want)
		}
	}
}
