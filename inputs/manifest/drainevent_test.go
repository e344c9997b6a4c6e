package manifest_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/model"
)

// TestDrainEvents: an intents file's drain events, in both spellings,
// become the event declarations and, built, the model's drains.
func TestDrainEvents(t *testing.T) {
	m, n := workedExample(t)
	in := manifest.File{Name: "intents.yaml", Data: []byte(`intents:
- name: pod_always_schedulable
events:
- kind: drain
  when: afterStable
  nodes: [node-b, node-a]
  parallel: 2
  timeoutRetries: 3
  force: true
  uncordon: true
- {kind: drain, node: node-c, disableEviction: true}
- {name: drain, para: {node: node-a}}
`)}
	r, err := manifest.LoadStream([]manifest.File{m}, &n, &in, cliOptions())
	if err != nil {
		t.Fatal(err)
	}
	// The reader creates the Deployments first (createTargetDeployment).
	events := r.Cluster.Events[len(r.Cluster.Events)-3:]
	want := []model.EventDecl{
		{Kind: "drain", When: "afterStable", Nodes: []string{"node-b", "node-a"}, Parallel: 2, TimeoutRetries: 3, Force: true, Uncordon: true},
		{Kind: "drain", Node: "node-c", DisableEviction: true},
		{Kind: "drain", Node: "node-a"},
	}
	if d := cmp.Diff(want, events); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	u, _, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	node := func(name string) int {
		for i := range u.Nodes {
			if u.Nodes[i].Name == name {
				return i
			}
		}
		t.Fatalf("no node %s", name)
		return -1
	}
	got := slices.Clone(u.Events[len(u.Events)-3:])
	for i := range got {
		got[i].VarOffset, got[i].VarLen = 0, 0
	}
	wantEvents := []model.Event{
		{Kind: model.Drain, Slot: model.AfterStable, Nodes: []int{node("node-b"), node("node-a")}, Parallel: 2,
			Drain: model.DrainOptions{TimeoutRetries: 3, Force: true, Uncordon: true}},
		{Kind: model.Drain, Nodes: []int{node("node-c")}, Parallel: 1, Drain: model.DrainOptions{DisableEviction: true}},
		{Kind: model.Drain, Nodes: []int{node("node-a")}, Parallel: 1},
	}
	if d := cmp.Diff(wantEvents, got); d != "" {
		t.Errorf("built events (-want +got):\n%s", d)
	}
}
