package scheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// decisionCluster is two identical nodes and a template without spread
// constraints nor requests, so that only the system default spreading
// tells the nodes apart: deployment web has a Running pod (slot 1) on node
// 1 and a waiting one (slot 2); deployment other a waiting one (slot 3).
// Pods of template twin are no siblings of web's. With taint, node 2 is
// tainted NoSchedule.
func decisionCluster(taint bool) (*model.Universe, *model.State) {
	b := build.New()
	b.AddNodes(1, build.Node())
	n2 := build.Node()
	if taint {
		n2.Taint("dedicated", "x", model.NoSchedule)
	}
	b.AddNodes(1, n2)
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Label("app", "web")), 2)
	other := b.AddDeployment("other", 0, 1)
	b.AddTemplate(build.Template("twin").Label("app", "web"))
	b.RunPod(web, 0).PendingPod(web, -1).PendingPod(other, -1)
	return b.MustBuild()
}

// placements steps s0 once per combination of choices with tx (Begin,
// then Restart after each Advance, as the System does) and returns the
// node each run bound pod to (index, -1 when none).
func placements(sch Scheduler, tx *model.Tx, s0 *model.State, pod int) []int {
	tx.Begin(nil, false)
	var out []int
	for {
		s := s0.Clone()
		sch.Step(tx, s)
		out = append(out, s.Pods[pod].NodeOf())
		if !tx.Advance() {
			return out
		}
		tx.Restart(false)
	}
}

// TestStepForgetsAcrossSteps: the scheduler remembers a cycle's top nodes
// across the runs of one step (model.Tx.Recall) and, by the cycle's
// inputs, across steps (the decision memo, memo.go); neither may answer
// a changed question. A step after one change to an input of the
// scheduling cycle (a pod's owner, node, phase or template, a node's
// status, the pod asked about, the universe), on the same Tx and
// Scheduler, places the pod on the reference scheduler's top nodes for
// the new question. In the base question pod 2 prefers node 2, away from
// its sibling; each change makes the answer differ.
func TestStepForgetsAcrossSteps(t *testing.T) {
	const pod = 1 // slot 2
	tests := []struct {
		name   string
		change func(u *model.Universe, s *model.State) (*model.Universe, *model.State, int)
	}{
		{"sibling's owner", func(u *model.Universe, s *model.State) (*model.Universe, *model.State, int) {
			s.Pods[0].Owner = 2
			return u, s, pod
		}},
		{"sibling's node", func(u *model.Universe, s *model.State) (*model.Universe, *model.State, int) {
			s.Pods[0].Node = 2
			return u, s, pod
		}},
		{"sibling's phase", func(u *model.Universe, s *model.State) (*model.Universe, *model.State, int) {
			s.Pods[0].Phase = model.Terminating
			return u, s, pod
		}},
		{"sibling's template", func(u *model.Universe, s *model.State) (*model.Universe, *model.State, int) {
			s.Pods[0].Template = 1
			return u, s, pod
		}},
		{"node status", func(u *model.Universe, s *model.State) (*model.Universe, *model.State, int) {
			s.Nodes[1].Status = model.NotReady
			return u, s, pod
		}},
		{"pod asked", func(u *model.Universe, s *model.State) (*model.Universe, *model.State, int) {
			return u, s, 2
		}},
		{"universe", func(_ *model.Universe, s *model.State) (*model.Universe, *model.State, int) {
			u, _ := decisionCluster(true)
			return u, s, pod
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, s := decisionCluster(false)
			sch := New()
			tx := model.NewTx(u)
			base := s.Clone()
			base.Enqueue(model.SchedulerQueue, pod)
			if got, want := placements(sch, tx, base, pod), []int{1}; !slices.Equal(got, want) {
				t.Fatalf("base question: placed on %v, want %v", got, want)
			}
			u2, s2, pod2 := tt.change(u, s.Clone())
			want := referenceHosts(u2, s2, pod2)
			if slices.Equal(want, []int{1}) {
				t.Fatalf("the change leaves the answer at %v: the case tests nothing", want)
			}
			s2.Enqueue(model.SchedulerQueue, pod2)
			tx.U = u2
			if got := placements(sch, tx, s2, pod2); !slices.Equal(got, want) {
				t.Errorf("placed on %v, want %v (the base step's answer is [1])", got, want)
			}
		})
	}
}

// TestStepRerunsAgree: the System re-runs a step once per tied node on
// the same state; every re-run after the first answers from what the
// first remembered and must place the pod exactly as a step that
// remembers nothing (a fresh Tx per run).
func TestStepRerunsAgree(t *testing.T) {
	u, s0 := decisionCluster(false)
	s0.Pods[0].Owner = 2 // no sibling: nodes 1 and 2 tie
	s0.Enqueue(model.SchedulerQueue, 1)
	sch := New()
	tx := model.NewTx(u)
	got := placements(sch, tx, s0, 1)
	if len(got) != 2 {
		t.Fatalf("%d successors, want 2 (a tie)", len(got))
	}
	var fresh []int
	for choice := range len(got) {
		ftx := model.NewTx(u)
		ftx.Begin([]int{choice}, false)
		s := s0.Clone()
		Scheduler{}.Step(ftx, s)
		fresh = append(fresh, s.Pods[1].NodeOf())
	}
	if !slices.Equal(got, fresh) {
		t.Errorf("placements %v, want %v (a fresh Tx per run)", got, fresh)
	}
	if again := placements(sch, tx, s0, 1); !slices.Equal(again, got) {
		t.Errorf("second enumeration %v, want %v", again, got)
	}
}
