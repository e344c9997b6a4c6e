package intents

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

func cluster(t *testing.T, running int) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node())
	tmpl := b.AddTemplate(build.Template("app").Requests(8, 8))
	d := b.AddDeployment("app", tmpl, 3)
	b.WithHPA(d, b.AddHPA(2, 6, 50))
	for i := 0; i < running; i++ {
		b.RunPod(d, i%2)
	}
	b.Slots = 8
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u, s
}

func setRunning(s *model.State, n int) {
	for i := range s.Pods {
		if i < n {
			s.Pods[i] = model.PodState{Phase: model.Running, Node: 1, Owner: 1, CPU: 8, Memory: 8}
		} else {
			s.Pods[i] = model.PodState{}
		}
	}
}

// TestNamesAndErrors: user and internal names are accepted, anything else
// is an error naming the accepted intents; parameters are checked.
func TestNamesAndErrors(t *testing.T) {
	u, _ := cluster(t, 0)
	for _, name := range []string{"pod_always_schedulable", "no_feasible_node", "checkMinReplicas", "no_oscillation_eviction"} {
		if _, err := New(u, name, Params{"did": 1}, Options{}); err != nil && !strings.Contains(name, "feasible") && name != "pod_always_schedulable" {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := New(u, "loop", nil, Options{})
	if !errors.Is(err, ErrUnknownIntent) || !strings.Contains(err.Error(), "pod_balance_across_node") {
		t.Errorf("unknown intent: %v", err)
	}
	if _, err := New(u, "replica_num_always_meet_min", Params{"did": 2}, Options{}); !errors.Is(err, ErrBadParameter) {
		t.Errorf("did out of range: %v", err)
	}
	if _, err := New(u, "pod_always_schedulable", Params{"did": 1}, Options{}); !errors.Is(err, ErrBadParameter) {
		t.Errorf("parameter on a parameterless intent: %v", err)
	}
	if _, err := New(u, "replica_num_always_meet_exp", Params{"did": 1, "expReplicas": "half"}, Options{}); !errors.Is(err, ErrBadParameter) {
		t.Errorf("bad expReplicas: %v", err)
	}
}

// TestMinWatch follows Kivi's intents: reach the HPA minimum, then fail
// on dropping below it; ending before reaching it is stuck.
func TestMinWatch(t *testing.T) {
	u, s := cluster(t, 1)
	in, err := New(u, "replica_num_always_meet_min", Params{"did": 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mem := []byte{0}
	if msg := in.Watch.Observe(u, s, mem, nil); msg != "" || mem[0] != 0 {
		t.Fatalf("1 < min 2: %q stage %d", msg, mem[0])
	}
	if in.Watch.Stuck(u, s, mem) == "" {
		t.Fatal("stage 1 at the end is not reported stuck")
	}
	setRunning(s, 2)
	if msg := in.Watch.Observe(u, s, mem, nil); msg != "" || mem[0] != 1 {
		t.Fatalf("reached min: %q stage %d", msg, mem[0])
	}
	setRunning(s, 1)
	if msg := in.Watch.Observe(u, s, mem, nil); !strings.Contains(msg, "app has fewer replicas than its minimum (HPA minReplicas, or spec.replicas): 1, minimum 2") {
		t.Fatalf("drop below min not reported: %q", msg)
	}
}

// TestOscillationWatch follows Kivi's intents: max reached, then min or
// max−3.
func TestOscillationWatch(t *testing.T) {
	u, s := cluster(t, 6)
	in, _ := New(u, "no_oscillation_replica_num", Params{"did": 1}, Options{})
	mem := []byte{0}
	in.Watch.Observe(u, s, mem, nil)
	if mem[0] != 1 {
		t.Fatal("reaching the HPA maximum 6 did not arm the monitor")
	}
	setRunning(s, 4)
	if msg := in.Watch.Observe(u, s, mem, nil); msg != "" {
		t.Fatalf("6 → 4 is not an oscillation (needs ≤ 3 or the min): %q", msg)
	}
	setRunning(s, 3)
	if msg := in.Watch.Observe(u, s, mem, nil); msg == "" {
		t.Fatal("6 → 3 is an oscillation")
	}
}

// TestEvictionCounter follows Kivi's intents: three rounds of a deletion
// then a start.
func TestEvictionCounter(t *testing.T) {
	u, s := cluster(t, 2)
	in, _ := New(u, "no_oscillation_eviction", Params{"did": 1}, Options{EvictionCounter: true})
	if in.Kind != Monitor {
		t.Fatalf("kind %v", in.Kind)
	}
	mem := []byte{0}
	del, start := []model.Mark{model.MarkDeleted(0)}, []model.Mark{model.MarkStarted(0)}
	for round := 1; round <= 3; round++ {
		if msg := in.Watch.Observe(u, s, mem, del); msg != "" {
			t.Fatalf("round %d: a deletion alone failed: %q", round, msg)
		}
		msg := in.Watch.Observe(u, s, mem, start)
		if (msg != "") != (round == 3) {
			t.Fatalf("round %d: %q", round, msg)
		}
	}
	// The cycle form asks the engine for a loop with both marks.
	cyc, _ := New(u, "no_oscillation_eviction", Params{"did": 1}, Options{})
	if cyc.Kind != Cycle || !slices.Equal(cyc.Marks, []model.Mark{model.MarkEvicted(0), model.MarkStarted(0)}) {
		t.Fatalf("cycle intent: %+v", cyc)
	}
}

// TestExpected parses Kivi's expReplicas forms.
func TestExpected(t *testing.T) {
	for in, want := range map[any]Expected{
		"d[did].specReplicas-1": {Spec: true, Offset: -1}, "spec": {Spec: true}, "spec+2": {Spec: true, Offset: 2},
		"3": {Offset: 3}, 4: {Offset: 4}, int64(5): {Offset: 5}, nil: {},
	} {
		got, err := parseExpected(in)
		if err != nil || got != want {
			t.Errorf("%v: got %+v, %v; want %+v", in, got, err, want)
		}
	}
}

// TestBalanceWatch follows Kivi's intents.
func TestBalanceWatch(t *testing.T) {
	u, s := cluster(t, 3)
	in, _ := New(u, "pod_balance_across_node", Params{"did": 1, "maxSkew": 1}, Options{})
	mem := []byte{0}
	in.Watch.Observe(u, s, mem, nil)
	if mem[0] != 1 {
		t.Fatal("spec 3 reached but the monitor is not armed")
	}
	setRunning(s, 3) // all three on node 1: skew 3
	msg := in.Watch.Observe(u, s, mem, []model.Mark{model.MarkStarted(0)})
	if !strings.Contains(msg, "skew 3") {
		t.Fatalf("unbalanced start not reported: %q", msg)
	}
	// The message names the fullest and an emptiest Ready node, so that a
	// reader of a long counterexample sees where the skew is.
	want := fmt.Sprintf("(3 Running pods on %s, 0 on %s; at most 1 apart)", u.Nodes[0].Name, u.Nodes[1].Name)
	if !strings.Contains(msg, want) {
		t.Fatalf("the message %q does not name the nodes: want %q", msg, want)
	}
}

// TestBalanceWatchLeavesDeletedNodeOut: pod_balance_across_node judges
// the nodes the cluster lists: a deleted node, empty, is no node whose
// count the skew starts from.
func TestBalanceWatchLeavesDeletedNodeOut(t *testing.T) {
	u, s := cluster(t, 3)
	in, _ := New(u, "pod_balance_across_node", Params{"did": 1, "maxSkew": 1}, Options{})
	mem := []byte{0}
	in.Watch.Observe(u, s, mem, nil)
	// Two on the first node, one on the second: skew 1. The second node
	// is then deleted and its pod replaced on the first: three there,
	// on the only node left.
	s.Pods[1].Node = 1
	s.Nodes[1] = model.NodeState{Status: model.NodeDeleted}
	if msg := in.Watch.Observe(u, s, mem, []model.Mark{model.MarkStarted(0)}); msg != "" {
		t.Fatalf("a deleted node counts as an empty one: %q", msg)
	}
	s.Nodes[1] = model.NodeState{Status: model.Ready}
	if msg := in.Watch.Observe(u, s, mem, []model.Mark{model.MarkStarted(0)}); !strings.Contains(msg, "skew 3") {
		t.Fatalf("the same pods on two Ready nodes: %q, want skew 3", msg)
	}
}

// TestDeploymentByName: an intent names its deployment as the manifests
// do; Kivi's did stays accepted; giving both, or a name that does not
// exist, is a ParamError on that parameter.
func TestDeploymentByName(t *testing.T) {
	u, _ := cluster(t, 0)
	name := u.Deployments[0].Name
	in, err := New(u, "replica_num_always_meet_min", Params{"deployment": name}, Options{})
	if err != nil || in.Deployment != 0 {
		t.Fatalf("deployment %q: %+v, %v", name, in, err)
	}
	for _, tc := range []struct {
		p     Params
		param string
	}{
		{Params{"deployment": "nope"}, "deployment"},
		{Params{"deployment": name, "did": 1}, "did"},
		{Params{"deployment": 1}, "deployment"},
	} {
		_, err := New(u, "replica_num_always_meet_min", tc.p, Options{})
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != tc.param || !errors.Is(err, ErrBadParameter) {
			t.Errorf("%v: %v, want a ParamError on %s", tc.p, err, tc.param)
		}
	}
	if param, msg := Check(model.IntentDecl{Name: "pod_balance_across_node", Params: map[string]any{"maxSkew": -1}}, []string{"web"}, nil); param != "maxSkew" || msg == "" {
		t.Errorf("Check maxSkew -1: %q %q", param, msg)
	}
	// Kinds: job_completes names a Job, replica intents name none.
	kinds := []string{"", "Job"}
	for _, c := range []struct {
		name, deployment, param string
	}{
		{"job_completes", "batch", ""},
		{"job_completes", "web", "deployment"},
		{"replica_num_always_meet_min", "batch", "deployment"},
		{"rollout_completes", "batch", "deployment"},
		{"pod_balance_across_node", "batch", "deployment"},
		{"no_oscillation_eviction", "batch", ""},
	} {
		param, msg := Check(model.IntentDecl{Name: c.name, Params: map[string]any{"deployment": c.deployment}}, []string{"web", "batch"}, kinds)
		if param != c.param {
			t.Errorf("Check %s of %s: %q %q, want an error on %q", c.name, c.deployment, param, msg, c.param)
		}
	}
	if param, msg := Check(model.IntentDecl{Name: "job_completes"}, []string{"web", "batch"}, kinds); param != "" {
		t.Errorf("job_completes without a deployment: %q %q, want the first Job", param, msg)
	}
	if param, msg := Check(model.IntentDecl{Name: "pod_balance_across_node", Params: map[string]any{"deployment": "web"}}, []string{"web"}, nil); param != "" || msg != "" {
		t.Errorf("Check of a good intent: %q %q", param, msg)
	}
}
