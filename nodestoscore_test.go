package kivi_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestNodesToScoreAssumption: above 100 nodes kube-scheduler scores only
// some of the feasible nodes (percentageOfNodesToScore), which the model
// does not explore; the report says so as an assumption, unless the
// input's KubeSchedulerConfiguration makes it score every node.
func TestNodesToScoreAssumption(t *testing.T) {
	nodes := func(n int) string {
		var b strings.Builder
		b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
		for i := range n {
			fmt.Fprintf(&b, "- {apiVersion: v1, kind: Node, metadata: {name: n%d}, status: {allocatable: {cpu: \"2\", memory: 4Gi}}}\n", i)
		}
		return b.String()
	}
	const web = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}
`
	const every = "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 100\n"
	const half = "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: [{schedulerName: default-scheduler, percentageOfNodesToScore: 50}]\n"
	for _, c := range []struct {
		name      string
		nodes     int
		config    string
		assumed   bool
		mentioned string
	}{
		{"100 nodes", 100, "", false, ""},
		{"101 nodes", 101, "", true, "with 101 nodes it scores only the first 100 feasible nodes it finds (percentageOfNodesToScore: its default)"},
		{"300 nodes", 300, "", true, "with 300 nodes it scores only the first 144 feasible nodes"},
		{"300 nodes, every node scored", 300, every, false, ""},
		{"300 nodes, half of them", 300, half, true, "the first 150 feasible nodes it finds (percentageOfNodesToScore: 50)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, web+c.config, nodes(c.nodes), "", false)
			text := strings.Join(rep.Assumptions, "\n")
			if got := strings.Contains(text, "kube-scheduler"); got != c.assumed || !strings.Contains(text, c.mentioned) {
				t.Errorf("assumptions %q; want the scheduler's (%v) saying %q", rep.Assumptions, c.assumed, c.mentioned)
			}
		})
	}
}
