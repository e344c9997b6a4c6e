package compose_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
)

// TestRandomWalkInvariants is the model's state-machine property test:
// random built-in clusters, random walks through compose.System, and at every
// state the model's own invariants hold; every step replays to the state
// Next produced; encodings round-trip.
func TestRandomWalkInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "case")
		scale := rapid.IntRange(1, 4).Draw(t, "scale")
		if rapid.IntRange(0, 4).Draw(t, "wide") == 0 {
			// More pod slots than a byte refers to (model.MaxPodSlots).
			scale = rapid.IntRange(126, 130).Draw(t, "wide scale")
		}
		c, err := cases.Get(fmt.Sprintf("c%d", n), scale, rapid.Bool().Draw(t, "noViolation"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := kivi.NewProblem(c, kivi.Options{})
		if err != nil {
			t.Skip(err) // e.g. C4 at scale 1 has no topology
		}
		sys := p.System
		var s *model.State
		sys.Initial(func(x *model.State) { s = x.Clone() })
		for step := 0; step < 60; step++ {
			checkInvariants(t, sys.U, s)
			enc := s.AppendEncoding(sys.U, nil)
			back, err := sys.Decode(enc)
			if err != nil || string(back.AppendEncoding(sys.U, nil)) != string(enc) {
				t.Fatalf("step %d: encoding does not round-trip: %v", step, err)
			}
			type succ struct {
				step checker.Step
				enc  string
			}
			var succs []succ
			sys.Next(s, func(st checker.Step, next *model.State) {
				succs = append(succs, succ{st, string(next.AppendEncoding(sys.U, nil))})
			})
			if len(succs) == 0 {
				return
			}
			pick := succs[rapid.IntRange(0, len(succs)-1).Draw(t, "pick")]
			next, _, err := sys.Replay(s, pick.step)
			if err != nil {
				t.Fatalf("step %d: replay: %v", step, err)
			}
			if string(next.AppendEncoding(sys.U, nil)) != pick.enc {
				t.Fatalf("step %d: replay of %s gives another state", step, sys.ActorName(pick.step))
			}
			s = next
		}
	})
}

func checkInvariants(t *rapid.T, u *model.Universe, s *model.State) {
	for i := range s.Pods {
		p := &s.Pods[i]
		switch {
		case p.Phase == model.Free && *p != (model.PodState{}):
			t.Fatalf("free slot %d is not zero: %+v", i+1, *p)
		case p.Phase == model.Running && p.Node == 0:
			t.Fatalf("pod %d runs on no node", i+1)
		case int(p.Node) > len(s.Nodes) || int(p.Owner) > len(s.Deps):
			t.Fatalf("pod %d refers to node %d / deployment %d", i+1, p.Node, p.Owner)
		case p.WasRunning && p.Phase != model.Terminating:
			t.Fatalf("pod %d: WasRunning in phase %s", i+1, p.Phase)
		}
	}
	for q := range s.Queues {
		seen := map[uint16]bool{}
		limit := len(s.Pods)
		switch model.Queue(q) {
		case model.DeploymentQueue, model.HPAQueue:
			limit = len(s.Deps)
		case model.NodeControllerQueue:
			limit = len(s.Nodes)
		}
		for _, id := range s.Queues[q] {
			if seen[id] || int(id) >= limit {
				t.Fatalf("queue %s: id %d repeated or out of range (%v)", model.Queue(q), id, s.Queues[q])
			}
			seen[id] = true
		}
	}
	for i := range s.Pods {
		if s.Pods[i].Phase == model.Terminating && !contains(s.Queues[model.KubeletQueue], i) {
			t.Fatalf("terminating pod %d is not queued for the kubelet", i+1)
		}
	}
	for n := range s.Nodes {
		req := u.Requested(s, n)
		pinned := false
		for _, tm := range u.Templates {
			pinned = pinned || tm.NodeName == n+1
		}
		// The scheduler never overcommits; only pods pinned by nodeName
		// bypass it (as in Kubernetes, where the kubelet would then reject
		// them).
		if !pinned && (req.CPU > u.Nodes[n].CPU || req.Memory > u.Nodes[n].Memory || req.Pods > u.Nodes[n].MaxPods) {
			t.Fatalf("node %s overcommitted: %+v", u.Nodes[n].Name, req)
		}
	}
}

func contains(items []uint16, id int) bool {
	for _, x := range items {
		if int(x) == id {
			return true
		}
	}
	return false
}
