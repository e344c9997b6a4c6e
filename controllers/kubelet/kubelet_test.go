package kubelet

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestDecide: Kivi's controller models — start bound Pending pods, remove
// Terminating ones, ignore the rest.
func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		pod  model.PodState
		want action
	}{
		{"free slot", model.PodState{}, ignore},
		{"bound pending starts", model.PodState{Phase: model.Pending, Node: 1}, startPod},
		{"unbound pending is ignored", model.PodState{Phase: model.Pending}, ignore},
		{"running is ignored", model.PodState{Phase: model.Running, Node: 2}, ignore},
		{"terminating bound is removed", model.PodState{Phase: model.Terminating, Node: 1}, removePod},
		{"terminating unbound is removed", model.PodState{Phase: model.Terminating}, removePod},
	}
	for _, tc := range tests {
		if got := decide(&tc.pod); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestMarksAndWiring: docs/model.md "Marks" and "Wiring" — a start marks
// MarkStarted and feeds the taint manager (on a node with a NoExecute
// taint the pod tolerates for a while) and the descheduler trigger; a
// removal marks MarkDeleted and feeds the deployment and HPA queues.
func TestMarksAndWiring(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().Taint("k", "v", model.NoExecute))
	seconds := int64(60)
	app := b.AddTemplate(build.Template("app").Requests(1, 1).
		TolerationWith(model.Toleration{Key: "k", Value: "v", Effect: model.NoExecute, TolerationSeconds: &seconds}))
	b.AddDeployment("a", app, 1)
	web := b.AddDeployment("b", app, 1)
	b.WithHPA(web, b.AddHPA(1, 3, 50))
	b.U.Descheduler = &model.Descheduler{}
	b.PendingPod(web, 0)
	b.RunPod(web, 0)
	u, s := b.MustBuild()
	s.Pods[1].Phase, s.Pods[1].WasRunning = model.Terminating, true
	s.Enqueue(model.KubeletQueue, 0)
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	New().Step(tx, s)
	if !slices.Equal(tx.Marks, []model.Mark{model.MarkStarted(1)}) {
		t.Errorf("marks after start = %v, want %v", tx.Marks, model.MarkStarted(1))
	}
	if s.Pods[0].Phase != model.Running || !s.DeschedulerPending || len(s.Queues[model.TaintManagerQueue]) != 1 {
		t.Errorf("start: %s", model.Describe(u, s))
	}
	s.DeschedulerPending = false
	s.Enqueue(model.KubeletQueue, 1)
	tx.Begin(nil, false)
	New().Step(tx, s)
	if !slices.Equal(tx.Marks, []model.Mark{model.MarkDeleted(1)}) {
		t.Errorf("marks after delete = %v, want %v", tx.Marks, model.MarkDeleted(1))
	}
	if s.Pods[1] != (model.PodState{}) || !s.DeschedulerPending ||
		len(s.Queues[model.DeploymentQueue]) != 1 || len(s.Queues[model.HPAQueue]) != 1 {
		t.Errorf("delete: %s", model.Describe(u, s))
	}
}

// TestBarePodRequestsDeschedulerCycle: a pod no controller owns marks
// nothing and wakes no controller, but its start and its removal change
// its node's utilisation, which a descheduler cycle reads, so each
// requests a cycle.
func TestBarePodRequestsDeschedulerCycle(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node())
	app := b.AddTemplate(build.Template("app").Requests(1, 1))
	d := b.AddDeployment("a", app, 1)
	b.U.Descheduler = &model.Descheduler{}
	b.PendingPod(d, 0)
	u, s := b.MustBuild()
	s.Pods[0].Owner = 0
	s.Enqueue(model.KubeletQueue, 0)
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	New().Step(tx, s)
	if s.Pods[0].Phase != model.Running || !s.DeschedulerPending || len(tx.Marks) != 0 {
		t.Errorf("start: marks %v, %s", tx.Marks, model.Describe(u, s))
	}
	s.DeschedulerPending = false
	s.Pods[0].Phase, s.Pods[0].WasRunning = model.Terminating, true
	s.Enqueue(model.KubeletQueue, 0)
	tx.Begin(nil, false)
	New().Step(tx, s)
	if s.Pods[0] != (model.PodState{}) || !s.DeschedulerPending || len(s.Queues[model.DeploymentQueue]) != 0 {
		t.Errorf("removal: %s", model.Describe(u, s))
	}
}

// TestWakeupOrder: the deployment and HPA queues get the drained pods'
// deployments in the order of their first appearance in the kubelet
// queue (wakeups.go), and reordering one deployment's pods in the queue
// gives the same state.
func TestWakeupOrder(t *testing.T) {
	build := func(queue []int) (*model.Universe, *model.State) {
		b := build.New()
		b.AddNodes(1, build.Node())
		app := b.AddTemplate(build.Template("app").Requests(1, 1))
		a := b.AddDeployment("a", app, 2)
		c := b.AddDeployment("c", app, 2)
		b.WithHPA(a, b.AddHPA(1, 3, 50))
		b.RunPod(a, 0) // slot 0: a, removed
		b.RunPod(c, 0) // slot 1: c, removed
		b.RunPod(a, 0) // slot 2: a, removed
		b.RunPod(c, 0) // slot 3: c, removed
		u, s := b.MustBuild()
		for i := range 4 {
			s.Pods[i].Phase, s.Pods[i].WasRunning = model.Terminating, true
		}
		for _, p := range queue {
			s.Enqueue(model.KubeletQueue, p)
		}
		return u, s
	}
	drain := func(queue []int) (*model.Universe, *model.State) {
		u, s := build(queue)
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		New().Step(tx, s)
		return u, s
	}
	for _, tc := range []struct {
		queue []int
		want  []uint16 // deployment queue
	}{
		{[]int{0, 1, 2, 3}, []uint16{0, 1}},
		{[]int{1, 0, 2, 3}, []uint16{1, 0}},
		{[]int{1, 3, 0, 2}, []uint16{1, 0}},
		{[]int{3, 2, 0, 1}, []uint16{1, 0}},
	} {
		u, s := drain(tc.queue)
		if got := s.Queues[model.DeploymentQueue]; !slices.Equal(got, tc.want) {
			t.Errorf("queue %v: deployment queue %v, want %v\n%s", tc.queue, got, tc.want, model.Describe(u, s))
		}
	}
	// Same owners' first appearances (c, a), different orders within owners.
	u, first := drain([]int{1, 0, 2, 3})
	for _, q := range [][]int{{3, 2, 0, 1}, {1, 2, 3, 0}, {3, 0, 1, 2}} {
		_, s := drain(q)
		if model.Describe(u, first) != model.Describe(u, s) {
			t.Errorf("queue %v drains to\n%s\nwant\n%s", q, model.Describe(u, s), model.Describe(u, first))
		}
	}
}
