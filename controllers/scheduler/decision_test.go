package scheduler

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
)

// decisionCluster is two identical nodes and a template without spread
// constraints nor requests, so that only the system default spreading
// tells the nodes apart: deployment web has a Running pod (slot 1) on node
// 1 and a waiting one (slot 2); deployment other a waiting one (slot 3).
// Pods of template twin are no siblings of web's. With taint, node 2 is
// tainted NoSchedule.
func decisionCluster(taint bool) (*model.Universe, *model.State) {
	b := modeltest.New()
	b.AddNodes(1, modeltest.Node())
	n2 := modeltest.Node()
	if taint {
		n2.Taint("dedicated", "x", model.NoSchedule)
	}
	b.AddNodes(1, n2)
	web := b.AddDeployment("web", b.AddTemplate(modeltest.Template("web").Label("app", "web")), 2)
	other := b.AddDeployment("other", 0, 1)
	b.AddTemplate(modeltest.Template("twin").Label("app", "web"))
	b.RunPod(web, 0).PendingPod(web, -1).PendingPod(other, -1)
	return b.MustBuild()
}

// TestLastDecisionFollowsInput: a cycle asked again after one change to
// an input of the scheduling cycle (a pod's owner, node, phase or
// template, a node's status, the pod asked about, the universe) answers
// the new question, not the last one. In the base question pod 2 prefers
// node 2, away from its sibling; each change makes the answer differ.
func TestLastDecisionFollowsInput(t *testing.T) {
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
	pr := defaultProfile()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, s := decisionCluster(false)
			var c cycle
			base := slices.Clone(c.hosts(&pr, u, s, pod))
			if want := []int{1}; !slices.Equal(base, want) {
				t.Fatalf("base question: hosts %v, want %v", base, want)
			}
			u2, s2, pod2 := tt.change(u, s.Clone())
			want := referenceHosts(u2, s2, pod2)
			if slices.Equal(want, base) {
				t.Fatalf("the change leaves the answer at %v: the case tests nothing", want)
			}
			if got := c.hosts(&pr, u2, s2, pod2); !slices.Equal(got, want) {
				t.Errorf("hosts %v, want %v (the last decision's answer is %v)", got, want, base)
			}
		})
	}
}

// TestStepRerunsAgree: the System re-runs a step once per tied node on
// the same state; every re-run answers from the cycle's last decision and
// must place the pod exactly as a fresh scheduler would.
func TestStepRerunsAgree(t *testing.T) {
	u, s0 := decisionCluster(false)
	s0.Pods[0].Owner = 2 // no sibling: nodes 1 and 2 tie
	s0.Enqueue(model.SchedulerQueue, 1)
	successors := func(sch Scheduler) []string {
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		var out []string
		for {
			s := s0.Clone()
			sch.Step(tx, s)
			out = append(out, fmt.Sprint(s.Pods, s.Queues))
			if !tx.Advance() {
				return out
			}
			tx.Restart(false)
		}
	}
	shared := New()
	got := successors(shared)
	if len(got) != 2 {
		t.Fatalf("%d successors, want 2 (a tie)", len(got))
	}
	if want := successors(Scheduler{}); !slices.Equal(got, want) {
		t.Errorf("successors %v, want %v (a fresh cycle per step)", got, want)
	}
	if again := successors(shared); !slices.Equal(again, got) {
		t.Errorf("second enumeration %v, want %v", again, got)
	}
}
