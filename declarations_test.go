package kivi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/model"
)

// lowestNodeEvictor is evictFromCrowdedNode taking the crowded node of
// lowest index instead of branching over them, while declaring that it
// never reads nodes by index: the declaration hides an index read.
type lowestNodeEvictor struct{ evictFromCrowdedNode }

func (e lowestNodeEvictor) Step(tx *model.Tx, s *model.State) {
	on := e.crowded(s)
	for _, pods := range on {
		if len(pods) >= 2 {
			s.RequestDeletion(tx.ChoosePods(s, pods, 1)[0])
			tx.Mark(model.MarkEvicted(0))
			return
		}
	}
}

// lowestNodeDeclared is lowestNodeEvictor declaring its index read.
type lowestNodeDeclared struct{ lowestNodeEvictor }

func (lowestNodeDeclared) SymmetryFacts(*model.Universe) []model.SymmetryFact {
	return []model.SymmetryFact{{Rule: "LowestCrowdedNode", NodesInIndexOrder: true, Reason: "takes the crowded node of lowest index"}}
}

// lowestSlotEvictor evicts the web pod in the lowest pod slot on a
// crowded node among pods of different nodes: it reads pod slots in
// order, which it does not declare.
type lowestSlotEvictor struct{ evictFromCrowdedNode }

func (e lowestSlotEvictor) Step(tx *model.Tx, s *model.State) {
	on := e.crowded(s)
	for p := range s.Pods {
		if ps := &s.Pods[p]; ps.Node != 0 && len(on[ps.Node-1]) >= 2 && ps.Owner == 1 && ps.Phase == model.Running {
			s.RequestDeletion(p)
			tx.Mark(model.MarkEvicted(0))
			return
		}
	}
}

// mapOrderEvictor evicts from the crowded node a map's iteration gives
// first: its steps depend on Go's random map order.
type mapOrderEvictor struct{ evictFromCrowdedNode }

func (e mapOrderEvictor) Step(tx *model.Tx, s *model.State) {
	crowded := map[int][]int{}
	for n, pods := range e.crowded(s) {
		if len(pods) >= 2 {
			crowded[n] = pods
		}
	}
	for _, pods := range crowded {
		s.RequestDeletion(pods[0])
		return
	}
}

// markingGuard is evictFromCrowdedNode whose guard writes into the state
// it reads.
type markingGuard struct{ evictFromCrowdedNode }

func (e markingGuard) Enabled(u *model.Universe, s *model.State) bool {
	s.DeschedulerPending = true
	return e.evictFromCrowdedNode.Enabled(u, s)
}

// narrowReads is evictFromCrowdedNode declaring that a step reads only
// the crowded nodes, and writes them, the kubelet and deployment queues
// and its marks: it also reads every other node (whether it is crowded)
// and the controller queues (its guard).
type narrowReads struct{ evictFromCrowdedNode }

func (narrowReads) StaticFootprint(*model.Universe) (reads, writes model.Footprint) {
	return model.ClusterFootprint(), model.ClusterFootprint()
}

func (e narrowReads) StepFootprint(_ *model.Universe, s *model.State) (reads, writes model.Footprint) {
	for n, pods := range e.crowded(s) {
		if len(pods) >= 2 {
			reads.AddNode(n)
		}
	}
	writes = reads
	writes.AddQueue(model.KubeletQueue)
	writes.AddQueue(model.DeploymentQueue)
	writes.Add(model.CompMarks)
	return reads, writes
}

func (narrowReads) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.ClusterFootprint()
}

// narrowWrites declares that a step writes the crowded nodes, the
// kubelet queue and its marks, but an eviction also queues the
// deployment controller.
type narrowWrites struct{ narrowReads }

func (e narrowWrites) StepFootprint(_ *model.Universe, s *model.State) (reads, writes model.Footprint) {
	for n, pods := range e.crowded(s) {
		if len(pods) >= 2 {
			writes.AddNode(n)
		}
	}
	writes.AddQueue(model.KubeletQueue)
	writes.Add(model.CompMarks)
	return model.ClusterFootprint(), writes
}

// preciseFootprint declares what the operator reads (the whole cluster:
// which nodes are crowded, its guard's queues) and, at a state, what its
// eviction writes: the crowded nodes, the kubelet and deployment queues
// and its marks.
type preciseFootprint struct{ narrowReads }

func (e preciseFootprint) StepFootprint(u *model.Universe, s *model.State) (reads, writes model.Footprint) {
	_, writes = e.narrowReads.StepFootprint(u, s)
	return model.ClusterFootprint(), writes
}

// narrowDisabledBy is preciseFootprint saying that only the kubelet
// queue keeps it disabled: the other controller queues do too (its
// guard waits for all of them), and so do the nodes.
type narrowDisabledBy struct{ preciseFootprint }

func (narrowDisabledBy) DisabledBy(*model.Universe, *model.State) model.Footprint {
	var f model.Footprint
	f.AddQueue(model.KubeletQueue)
	return f
}

// wideFootprint declares what the operator may touch: the whole cluster
// (model.ClusterWide), kept disabled by any change of it.
type wideFootprint struct {
	evictFromCrowdedNode
	model.ClusterWide
}

func (wideFootprint) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.ClusterFootprint()
}

// TestCheckDeclarations: kivi.CheckDeclarations finds a symmetry
// declaration that hides a read of nodes by index or of pod slots in
// order, and a footprint that leaves out what the step writes or reads,
// and passes the declarations the steps keep.
func TestCheckDeclarations(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    model.Process
		// want: the declaration found wrong ("" = none).
		want, detail string
		// failure: node 4 may fail at any time, a step beside the
		// controller's.
		failure bool
	}{
		{name: "content, no fact", p: evictFromCrowdedNode{}},
		{name: "index order, declared", p: indexOrdered{}},
		{name: "lowest node, declared", p: lowestNodeDeclared{}},
		{name: "undeclared (symmetry off, nothing to check)", p: undeclared{}},
		{name: "lowest node, no fact", p: lowestNodeEvictor{}, want: "SymmetryFacts", detail: "depend on which node or pod slot is which"},
		{name: "lowest slot, no fact", p: lowestSlotEvictor{}, want: "SymmetryFacts", detail: "depend on which node or pod slot is which"},
		{name: "map order", p: mapOrderEvictor{}, want: "Determinism", detail: "two expansions of this state gave different successors"},
		{name: "guard modifies the state", p: markingGuard{}, want: "Determinism", detail: "expanding this state changed it"},
		{name: "reads left out", p: narrowReads{}, want: "Footprint", detail: "none of what it declares to read", failure: true},
		{name: "writes left out", p: narrowWrites{}, want: "Footprint", detail: "but it declares writes of"},
		{name: "cluster-wide footprint", p: wideFootprint{}},
		{name: "precise footprint", p: preciseFootprint{}, failure: true},
		{name: "DisabledBy left out", p: narrowDisabledBy{}, want: "Footprint", detail: "enabled it without changing what its DisabledBy names"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := crowdCluster()
			if tc.failure {
				c.Events = []model.EventDecl{{Kind: "nodeFailure", Node: "4"}}
			}
			problems, err := kivi.CheckDeclarations(context.Background(), c, kivi.Options{Controllers: []model.Process{tc.p}}, kivi.DeclarationCheck{States: 600})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				for _, p := range problems {
					t.Errorf("a declaration the steps keep reported wrong: %s", p)
				}
				return
			}
			if len(problems) != 1 || problems[0].Declaration != tc.want || !strings.Contains(problems[0].Detail, tc.detail) ||
				problems[0].Controller != "crowd-evictor" || !strings.Contains(problems[0].State, "node") {
				t.Fatalf("want one wrong %s declaration (%q), got %v", tc.want, tc.detail, problems)
			}
			t.Logf("%s", problems[0])
		})
	}
}

// crowdCluster is TestCustomControllerKeepsSymmetryWhenDeclared's cluster.
func crowdCluster() *model.Cluster {
	return &model.Cluster{Name: "crowd",
		NodeTypes:   []model.NodeType{{Name: "n", CPU: 4, Memory: 64}},
		Nodes:       []model.NodeGroup{{Type: "n", Count: 4}},
		Templates:   []model.TemplateDecl{{Name: "web", CPU: 1, Memory: 1}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 6}},
		Intents:     []model.IntentDecl{{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}}},
	}
}
