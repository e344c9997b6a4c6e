package scheduler

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// TestDecisionMemo: a long-lived cycle answers every question of long
// runs of changed states as the reference does. The changes are the
// ones that keep a decision key (swapping two pod slots, changing a
// pod's CPU usage: the memo must answer from what it remembered) and the
// smallest ones that change it (one bound pod starting to terminate or
// moving to another node, a pod of another owner or template, a node's
// status: the memo must not), so that a key that misses an input of the
// cycle answers a question with the answer to another.
func TestDecisionMemo(t *testing.T) {
	var decider cycle
	pr := defaultProfile()
	rapid.Check(t, func(t *rapid.T) {
		u, s := genCluster(t)
		for round := range rapid.IntRange(20, 120).Draw(t, "rounds") {
			if round > 0 {
				changeForMemo(t, u, s)
			}
			for pod := range s.Pods {
				if p := &s.Pods[pod]; p.Phase != model.Pending || p.Node != 0 {
					continue
				}
				want := referenceHosts(u, s, pod)
				if got := decider.hosts(&pr, u, s, pod); !slices.Equal(got, want) {
					t.Fatalf("round %d pod %d: hosts %v, want %v\n%s", round, pod+1, got, want, Explain(u, s, pod))
				}
			}
		}
	})
}

// changeForMemo makes one change to s (see TestDecisionMemo).
func changeForMemo(t *rapid.T, u *model.Universe, s *model.State) {
	i := rapid.IntRange(0, len(s.Pods)-1).Draw(t, "pod")
	p := &s.Pods[i]
	switch rapid.IntRange(0, 9).Draw(t, "change") {
	case 0, 7:
		j := rapid.IntRange(0, len(s.Pods)-1).Draw(t, "other")
		s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	case 1:
		p.CPU += 3
	case 2, 8, 9:
		if p.Node != 0 && p.Phase != model.Free {
			p.Phase = model.Terminating
		}
	case 3:
		if p.Phase == model.Terminating {
			p.Phase = model.Running
		}
	case 4:
		if p.Phase != model.Free && p.Node != 0 {
			p.Node = uint8(rapid.IntRange(1, len(u.Nodes)).Draw(t, "node"))
		}
	case 5:
		p.Owner = uint8(rapid.IntRange(0, len(u.Deployments)).Draw(t, "owner"))
		p.Template = uint8(rapid.IntRange(0, len(u.Templates)-1).Draw(t, "template"))
	default:
		n := rapid.IntRange(0, len(s.Nodes)-1).Draw(t, "node")
		s.Nodes[n].Status = rapid.SampledFrom([]model.NodeStatus{model.Ready, model.NotReady, model.Unhealthy}).Draw(t, "status")
	}
}
