package scheduler

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// run steps the scheduler once with tracing and returns the trace lines.
func run(u *model.Universe, s *model.State) []string {
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	New().Step(tx, s)
	var out []string
	for _, l := range tx.Lines {
		out = append(out, l.String())
	}
	return out
}

// TestStepSkipsPodsNotWaiting follows Kivi's controller models: a queued pod
// that is Running, Terminating or already bound is dropped without a
// cycle, a trace line or an HPA wake-up.
func TestStepSkipsPodsNotWaiting(t *testing.T) {
	b := build.New()
	b.AddNodes(2, build.Node())
	d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(8, 8)), 3)
	b.WithHPA(d, b.AddHPA(1, 5, 80))
	b.RunPod(d, 0).PendingPod(d, 1).PendingPod(d, -1)
	u, s := b.MustBuild()
	s.Pods[2].Phase = model.Terminating
	for p := range 3 {
		s.Enqueue(model.SchedulerQueue, p)
	}
	if !(Scheduler{}).Enabled(u, s) {
		t.Fatal("not enabled with a non-empty queue")
	}
	if lines := run(u, s); len(lines) != 0 {
		t.Errorf("trace %v, want none", lines)
	}
	if !s.Empty(model.SchedulerQueue) || !s.Empty(model.HPAQueue) || !s.Empty(model.KubeletQueue) {
		t.Errorf("queues after the drain: %v", s.Queues)
	}
	if (Scheduler{}).Enabled(u, s) {
		t.Error("enabled with an empty queue")
	}
}

// TestStepBindsAndWakes checks the effects of a successful cycle
// (Kivi's controller models, docs/model.md wiring): the pod is bound and stays
// Pending, goes to the kubelet queue, and its owner to the HPA queue only
// when the universe has an HPA.
func TestStepBindsAndWakes(t *testing.T) {
	for _, hasHPA := range []bool{false, true} {
		t.Run(fmt.Sprint("hpa=", hasHPA), func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node().CPU(8))
			b.AddNodes(1, build.Node())
			other := b.AddDeployment("other", b.AddTemplate(build.Template("other")), 0)
			d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(8, 8)), 1)
			if hasHPA {
				b.WithHPA(d, b.AddHPA(1, 5, 80))
			}
			_ = other
			b.PendingPod(d, -1)
			u, s := b.MustBuild()
			s.Enqueue(model.SchedulerQueue, 0)
			lines := run(u, s)
			if want := "[[kube-scheduler] Scheduled pod pod#1 on node 2]"; fmt.Sprint(lines) != want {
				t.Errorf("trace %v, want %s", lines, want)
			}
			p := s.Pods[0]
			if p.Phase != model.Pending || p.Node != 2 {
				t.Errorf("pod %+v, want Pending on node 2", p)
			}
			if fmt.Sprint(s.Queues[model.KubeletQueue]) != "[0]" {
				t.Errorf("kubelet queue %v, want [0]", s.Queues[model.KubeletQueue])
			}
			wantHPA := "[]"
			if hasHPA {
				wantHPA = fmt.Sprintf("[%d]", d)
			}
			if fmt.Sprint(s.Queues[model.HPAQueue]) != wantHPA {
				t.Errorf("hpa queue %v, want %s", s.Queues[model.HPAQueue], wantHPA)
			}
		})
	}
}

// TestStepBranchesOnTies: with model.BranchOnTies the step chooses among
// the equal top-score nodes in index order, one successor each
// (spec README policy 3); with LowestIndex it takes the first (§1.5).
func TestStepBranchesOnTies(t *testing.T) {
	build := func(tb model.TieBreak) (*model.Universe, *model.State) {
		b := build.New()
		b.AddNodes(3, build.Node())
		d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(8, 8)), 1)
		b.RunPod(d, 0).PendingPod(d, -1)
		b.U.Options.TieBreak = tb
		u, s := b.MustBuild()
		s.Enqueue(model.SchedulerQueue, 1)
		return u, s
	}
	u, s0 := build(model.BranchOnTies)
	tx := model.NewTx(u)
	var got []string
	var script []int
	for {
		s := s0.Clone()
		tx.Begin(script, true)
		New().Step(tx, s)
		got = append(got, fmt.Sprint(s.Pods[1].Node, tx.Choices()))
		if !tx.Advance() {
			break
		}
		script = append(script[:0], tx.Choices()...)
	}
	// Node 1 already runs a sibling: the system default hostname
	// constraint and LeastAllocated push the pod to nodes 2 and 3, tied.
	if fmt.Sprint(got) != "[2 [0] 3 [1]]" {
		t.Errorf("successors %v, want [2 [0] 3 [1]]", got)
	}
	u, s := build(model.LowestIndex)
	run(u, s)
	if s.Pods[1].Node != 2 {
		t.Errorf("LowestIndex placed on node %d, want 2", s.Pods[1].Node)
	}
}

// TestStepDrainStopsAtFailure: the first pod without a feasible node fails
// the state and the drain ends; later pods stay queued.
func TestStepDrainStopsAtFailure(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(8))
	d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(16, 8)), 2)
	b.PendingPod(d, -1).PendingPod(d, -1)
	u, s := b.MustBuild()
	s.Enqueue(model.SchedulerQueue, 0)
	s.Enqueue(model.SchedulerQueue, 1)
	lines := run(u, s)
	if fmt.Sprint(lines) != "[[kube-scheduler] Pod pod#1 cannot be scheduled: 0/1 nodes are available: 1 Insufficient cpu]" {
		t.Errorf("trace %v", lines)
	}
	if s.Failed != model.FailNoFeasibleNode || s.FailedArg != 0 {
		t.Errorf("failure %d (%d)", s.Failed, s.FailedArg)
	}
	if fmt.Sprint(s.Queues[model.SchedulerQueue]) != "[1]" {
		t.Errorf("scheduler queue %v, want [1]", s.Queues[model.SchedulerQueue])
	}
}

// TestRequestedMatchesModel: the cycle's one-pass node requests equal
// model.Universe.Requested on every node.
func TestRequestedMatchesModel(t *testing.T) {
	u, s := benchCluster(6, 12)
	s.Pods[0].Phase = model.Terminating
	var c cycle
	c.reset(u, s, len(s.Pods)-1)
	for n := range u.Nodes {
		if got, want := c.requested[n], u.Requested(s, n); got != want {
			t.Errorf("node %d: %+v, want %+v", n+1, got, want)
		}
	}
}
