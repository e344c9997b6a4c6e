package kubelet

import (
	"testing"

	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
)

// TestDecide: controllers.md §4.2 — start bound Pending pods, remove
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
// MarkStarted and feeds the taint manager (with taints) and the
// descheduler trigger; a removal marks MarkDeleted and feeds the
// deployment and HPA queues.
func TestMarksAndWiring(t *testing.T) {
	b := modeltest.New()
	b.AddNodes(1, modeltest.Node().Taint("k", "v", model.NoSchedule))
	app := b.AddTemplate(modeltest.Template("app").Requests(1, 1))
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
	if tx.Marks != model.MarkStarted(1) {
		t.Errorf("marks after start = %b, want %b", tx.Marks, model.MarkStarted(1))
	}
	if s.Pods[0].Phase != model.Running || !s.DeschedulerPending || len(s.Queues[model.TaintManagerQueue]) != 1 {
		t.Errorf("start: %s", model.Describe(u, s))
	}
	s.DeschedulerPending = false
	s.Enqueue(model.KubeletQueue, 1)
	tx.Begin(nil, false)
	New().Step(tx, s)
	if tx.Marks != model.MarkDeleted(1) {
		t.Errorf("marks after delete = %b, want %b", tx.Marks, model.MarkDeleted(1))
	}
	if s.Pods[1] != (model.PodState{}) || !s.DeschedulerPending ||
		len(s.Queues[model.DeploymentQueue]) != 1 || len(s.Queues[model.HPAQueue]) != 1 {
		t.Errorf("delete: %s", model.Describe(u, s))
	}
}
