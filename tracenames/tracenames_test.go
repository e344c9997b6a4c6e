package tracenames

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

func web() *model.Universe {
	return &model.Universe{Deployments: []model.Deployment{{Name: "web"}}}
}

func pod(ph model.Phase, node uint16) model.PodState {
	return model.PodState{Phase: ph, Owner: 1, Node: node}
}

// TestNewPodInAFreedSlot: a slot whose Terminating pod is removed and
// refilled by a new pod of the same deployment within one step, or whose
// pod is replaced by one bound elsewhere, gets a new name; a pod that is
// scheduled, started and deleted keeps its name.
func TestNewPodInAFreedSlot(t *testing.T) {
	nm := New(web())
	steps := []struct {
		pod  model.PodState
		name string
	}{
		{pod(model.Pending, 0), "web-1"},
		{pod(model.Pending, 2), "web-1"},
		{pod(model.Running, 2), "web-1"},
		{pod(model.Terminating, 2), "web-1"},
		{pod(model.Pending, 0), "web-2"}, // removed and recreated in one step
		{pod(model.Pending, 1), "web-2"},
		{pod(model.Running, 3), "web-3"}, // a bound pod never moves
		{pod(model.Pending, 0), "web-4"}, // nor goes back to Pending
		{pod(model.Terminating, 0), "web-4"},
		{pod(model.Pending, 0), "web-5"}, // an unscheduled pod deleted and replaced
		{model.PodState{}, ""},
		{pod(model.Pending, 0), "web-6"},
	}
	for i, st := range steps {
		nm.Advance(&model.State{Pods: []model.PodState{st.pod}}, false)
		if got := nm.Name(0); got != st.name {
			t.Errorf("step %d: %q, want %q", i, got, st.name)
		}
	}
}

// TestResolveBeforeAndAfter: within one step that removes the pod of a
// slot and creates another in it, a line about the removed pod names the
// old pod and a line about the new one the new pod, whichever the slot
// holds when the line is rendered.
func TestResolveBeforeAndAfter(t *testing.T) {
	u := web()
	nm := New(u)
	old := pod(model.Terminating, 1)
	nm.Advance(&model.State{Pods: []model.PodState{old}}, false)

	next := &model.State{Pods: []model.PodState{pod(model.Pending, 0)}}
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	tx.Log("kubelet", "Deleted pod %s", model.PodRef{Slot: 0, Pod: old})
	tx.Log("replicaset-controller", "Created pod %v", next.PodRef(0))
	// A reference taken after the slot was cleared still means the pod
	// the step removed.
	tx.Log("kubelet", "Gone: %d %s", 7, model.PodRef{Slot: 0})
	lines := nm.Step(next, false, tx.Lines)
	want := []string{"[kubelet] Deleted pod web-1", "[replicaset-controller] Created pod web-2", "[kubelet] Gone: 7 web-1"}
	for i, l := range lines {
		if l.String() != want[i] || l.Pods != nil {
			t.Errorf("line %d: %q (%d refs left), want %q", i, l.String(), len(l.Pods), want[i])
		}
	}
}

// TestUnresolvedLine: a line printed without a trace shows the slot in a
// form that cannot pass for a pod name.
func TestUnresolvedLine(t *testing.T) {
	tx := model.NewTx(web())
	tx.Begin(nil, true)
	s := &model.State{Pods: []model.PodState{{}, pod(model.Running, 1)}}
	tx.Log("kubelet", "Started pod %s on node %s", s.PodRef(1), "a")
	if got := tx.Lines[0].String(); got != "[kubelet] Started pod pod#2 on node a" {
		t.Errorf("got %q", got)
	}
}

// TestRunningClusterNames: Start names the initial state's pods as the
// input does (a running cluster's dump); the pods after it get the
// model's names, skipping any the input's pods hold, and Advance (one
// step seen alone) keeps the model's names.
func TestRunningClusterNames(t *testing.T) {
	u := web()
	u.InitialPodNames = []string{"web-5d4f-a", "web-2"}
	s := &model.State{Pods: []model.PodState{pod(model.Running, 1), pod(model.Running, 2), {}}}
	nm := New(u)
	nm.Start(s)
	if nm.Name(0) != "web-5d4f-a" || nm.Name(1) != "web-2" {
		t.Fatalf("initial names %q, %q, want the input's", nm.Name(0), nm.Name(1))
	}
	next := &model.State{Pods: []model.PodState{pod(model.Running, 1), pod(model.Running, 2), pod(model.Pending, 0)}}
	nm.Advance(next, false)
	if nm.Name(0) != "web-5d4f-a" || nm.Name(2) != "web-1" {
		t.Errorf("after a creation: %q, %q, want web-5d4f-a and web-1", nm.Name(0), nm.Name(2))
	}
	after := &model.State{Pods: []model.PodState{pod(model.Running, 1), pod(model.Running, 2), pod(model.Pending, 0), {}}}
	after.Pods[3] = pod(model.Pending, 0)
	nm.Advance(after, false)
	if nm.Name(3) != "web-3" {
		t.Errorf("a second new pod is %q, want web-3 (web-2 is the input's)", nm.Name(3))
	}
	alone := New(u)
	alone.Advance(s, false)
	if alone.Name(0) != "web-1" {
		t.Errorf("one step seen alone: %q, want the model's name", alone.Name(0))
	}
}
