package kivi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestHintMaintenance: a run a budget ends names a maintenance among the
// reasons its search is large when it takes several nodes down at once,
// or one at a time over many nodes, whose runs are twice as many steps
// long as the nodes; one node at a time over a few nodes gives no such
// hint.
func TestHintMaintenance(t *testing.T) {
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
	const (
		parallelHint = "a maintenance takes up to 3 of the 6 nodes down at once"
		longHint     = "a maintenance takes each of the 20 nodes down and back in turn, so one run of it is at least 40 steps long"
	)
	for _, c := range []struct {
		nodes, parallel int
		hint            string
		want            bool
	}{{6, 3, parallelHint, true}, {6, 1, parallelHint, false}, {20, 1, longHint, true}, {6, 1, "takes each of the", false}} {
		var nodes strings.Builder
		nodes.WriteString("apiVersion: v1\nkind: List\nitems:\n")
		for i := range c.nodes {
			fmt.Fprintf(&nodes, "- {apiVersion: v1, kind: Node, metadata: {name: n%d}, status: {allocatable: {cpu: \"4\", memory: 8Gi}}}\n", i)
		}
		intents := fmt.Sprintf("intents: [{name: pod_always_schedulable}]\nevents: [{kind: maintenance, parallel: %d, order: any, when: afterStable}]\n", c.parallel)
		rep := verifyInput(t, input{manifests: manifests, nodes: nodes.String(), intents: intents,
			opts: kivi.Options{ProbeStates: -1, NoQuickPass: true, NoDepthFirst: true, Checker: checker.Options{MaxStates: 40}}})
		if got := strings.Contains(strings.Join(rep.Hints, "\n"), c.hint); got != c.want {
			t.Errorf("%d nodes, parallel %d: hints %q, want %q: %v", c.nodes, c.parallel, rep.Hints, c.hint, c.want)
		}
	}
}

// TestHintIndexedJob: a run a budget ends names an Indexed Job that runs
// several of its completion indexes at a time; one run two at a time, or
// all at once, gives no such hint.
func TestHintIndexedJob(t *testing.T) {
	job := func(completions, parallelism int) string {
		return fmt.Sprintf(`apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  completionMode: Indexed
  completions: %d
  parallelism: %d
  backoffLimitPerIndex: 1
  template:
    spec:
      restartPolicy: Never
      containers: [{name: shard, resources: {requests: {cpu: "1"}}}]
`, completions, parallelism)
	}
	const hint = "Indexed Job train runs 20 completion indexes 4 at a time, and which unfinished index runs where"
	const intents = "intents: [{name: job_completes, params: {deployment: train}}]\nevents: [{kind: nodeFailure, node: n0, when: afterStable}]\n"
	for _, c := range []struct {
		completions, parallelism int
		want                     bool
	}{{20, 4, true}, {20, 2, false}, {4, 4, false}} {
		rep := verifyInput(t, input{manifests: job(c.completions, c.parallelism), nodes: fourCPUNodes("16Gi"), intents: strings.ReplaceAll(intents, "n0", "a"),
			opts: kivi.Options{ProbeStates: -1, NoQuickPass: true, NoDepthFirst: true, Checker: checker.Options{MaxStates: 40}}})
		hints := strings.Join(rep.Hints, "\n")
		if got := strings.Contains(hints, "Indexed Job train runs"); got != c.want {
			t.Errorf("completions %d, parallelism %d: hints %q, want an Indexed Job hint: %v", c.completions, c.parallelism, rep.Hints, c.want)
		}
		if c.want && !strings.Contains(hints, hint) {
			t.Errorf("hints %q, want %q", rep.Hints, hint)
		}
	}
}
