package kivi_test

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// evictFromCrowdedNode is a team's operator: when the cluster is quiet
// and some Ready node runs two or more of web's pods, it evicts one of
// them. It picks the node and the pod by content (tx.ChooseNode and
// tx.ChoosePods branch over the distinct ones), never by index, so it
// declares no symmetry fact.
type evictFromCrowdedNode struct{}

func (evictFromCrowdedNode) Name() string { return "crowd-evictor" }

func (evictFromCrowdedNode) crowded(s *model.State) [][]int {
	on := make([][]int, len(s.Nodes))
	for p := range s.Pods {
		if ps := &s.Pods[p]; ps.Phase == model.Running && ps.Owner == 1 && ps.Node != 0 && s.Nodes[ps.Node-1].Status == model.Ready {
			on[ps.Node-1] = append(on[ps.Node-1], p)
		}
	}
	return on
}

func (e evictFromCrowdedNode) Enabled(_ *model.Universe, s *model.State) bool {
	if !s.ControllerQueuesEmpty() {
		return false
	}
	for _, pods := range e.crowded(s) {
		if len(pods) >= 2 {
			return true
		}
	}
	return false
}

func (e evictFromCrowdedNode) Step(tx *model.Tx, s *model.State) {
	on := e.crowded(s)
	var nodes []int
	for n, pods := range on {
		if len(pods) >= 2 {
			nodes = append(nodes, n)
		}
	}
	n := tx.ChooseNode(nodes)
	p := tx.ChoosePods(s, on[n], 1)[0]
	s.RequestDeletion(p)
	tx.Mark(model.MarkEvicted(0))
}

func (evictFromCrowdedNode) SymmetryFacts(*model.Universe) []model.SymmetryFact { return nil }

// undeclared is the same operator without its symmetry facts.
type undeclared struct{ e evictFromCrowdedNode }

func (u undeclared) Name() string                                    { return u.e.Name() }
func (u undeclared) Enabled(un *model.Universe, s *model.State) bool { return u.e.Enabled(un, s) }
func (u undeclared) Step(tx *model.Tx, s *model.State)               { u.e.Step(tx, s) }

// indexOrdered declares that it reads nodes in index order: node
// symmetry goes off, pod slots keep theirs.
type indexOrdered struct{ evictFromCrowdedNode }

func (indexOrdered) SymmetryFacts(*model.Universe) []model.SymmetryFact {
	return []model.SymmetryFact{{Rule: "CrowdEvictorIndexOrder", NodesInIndexOrder: true, Reason: "crowd-evictor walks nodes in index order"}}
}

// TestCustomControllerKeepsSymmetryWhenDeclared: a custom controller
// that implements model.SymmetryBreaker keeps symmetry on (with no fact;
// with a NodesInIndexOrder fact the nodes stay apart, the pod slots
// not); one that does not turns symmetry off, as it may read nodes and
// pod slots by index. Every variant, and the declared one without
// symmetry, gives every intent the same verdict, and the declared one
// stores the fewest states.
func TestCustomControllerKeepsSymmetryWhenDeclared(t *testing.T) {
	c := crowdCluster()
	run := func(p model.Process, noSym bool) *kivi.Report {
		t.Helper()
		rep, err := kivi.Verify(context.Background(), c, kivi.Options{NoQuickPass: true, NoDepthFirst: true, ProbeStates: -1,
			Checker:     checker.Options{Workers: 1, CollectAll: true, NoSymmetry: noSym},
			Controllers: []model.Process{p}})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	declared := run(evictFromCrowdedNode{}, false)
	for _, v := range []struct {
		name     string
		rep      *kivi.Report
		symmetry bool
	}{
		{"declared", declared, true},
		{"declared, symmetry off", run(evictFromCrowdedNode{}, true), false},
		{"undeclared", run(undeclared{}, false), false},
		{"index order", run(indexOrdered{}, false), true},
	} {
		if v.rep.Symmetry != v.symmetry {
			t.Errorf("%s: symmetry %v, want %v", v.name, v.rep.Symmetry, v.symmetry)
		}
		if !v.rep.Complete {
			t.Errorf("%s: not complete", v.name)
		}
		for _, want := range declared.Results {
			if got := v.rep.Result(want.Name); got == nil || got.Verdict != want.Verdict {
				t.Errorf("%s: %s %+v, want %v", v.name, want.Name, got, want.Verdict)
			}
		}
		if v.name != "declared" && v.rep.Stats.States <= declared.Stats.States {
			t.Errorf("%s: %d states, the declared run %d: symmetry merged nothing", v.name, v.rep.Stats.States, declared.Stats.States)
		}
		t.Logf("%s: %d states, %s", v.name, v.rep.Stats.States, verdictsOf(v.rep))
	}
}

func verdictsOf(r *kivi.Report) string {
	s := ""
	for _, x := range r.Results {
		s += x.Name + "=" + x.Verdict.String() + " "
	}
	return s
}
