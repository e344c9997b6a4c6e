package reduction_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// A rolling maintenance in any order (model.AnyOrder, events/maintenanceany.go):
// the nodes not maintained yet are interchangeable among themselves, and
// so are the nodes done, so no node is pinned by the maintenance; its
// program counters travel with their nodes in the node signatures.

// maintenanceShape is one small input of a rolling maintenance.
type maintenanceShape struct {
	nodes int // identical nodes
	small int // of which this many have half the CPU
	// interleaved: the small nodes are every other node, not the last.
	interleaved bool
	zones       int  // 0: no zone label; else nodes round-robin over this many zones
	replicas    int  // of web, spread by hostname (DoNotSchedule, maxSkew 1) when spread
	spread      bool // web spreads over hostnames
	parallel    int
	order       model.MaintenanceOrder
	panics      bool // with a kernel-panic watcher on every node
	// lowestIndex: Kivi's tie-breaks, as the quick pass runs them.
	lowestIndex bool
}

func (m maintenanceShape) String() string {
	return fmt.Sprintf("maint-%s-n%d-s%d-z%d-r%d-spread%v-p%d-panics%v", m.order, m.nodes, m.small, m.zones, m.replicas, m.spread, m.parallel, m.panics)
}

// maintenanceProblem builds the shape with web's pods Running,
// round-robin over the nodes, and the maintenance after the first
// quiescent state.
func maintenanceProblem(t testing.TB, m maintenanceShape) *compose.Problem {
	t.Helper()
	b := build.New()
	for n := range m.nodes {
		nb := build.Node().CPU(20).Mem(64)
		if small := n >= m.nodes-m.small; m.interleaved && n%2 == 1 && n/2 < m.small || !m.interleaved && small {
			nb = build.Node().CPU(10).Mem(64)
		}
		if m.zones > 0 {
			nb.Label(model.ZoneKey, fmt.Sprintf("zone-%c", 'a'+n%m.zones))
		}
		b.AddNodes(1, nb)
	}
	web := build.Template("web").Requests(6, 4).Label("app", "web")
	if m.spread {
		web.Spread(1, model.HostnameKey, model.DoNotSchedule)
	}
	d := b.AddDeployment("web", b.AddTemplate(web), m.replicas)
	for i := range m.replicas {
		b.RunPod(d, i%m.nodes)
	}
	if m.panics {
		b.AddEvent(model.Event{Kind: model.KernelPanic})
	}
	b.AddEvent(model.Event{Kind: model.Maintenance, Slot: model.AfterStable, Parallel: m.parallel, Order: m.order})
	b.Slots = m.replicas + m.parallel + 1
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	if m.lowestIndex {
		u.Options.TieBreak = model.LowestIndex
	}
	decls := []model.IntentDecl{{Name: "pod_always_schedulable"},
		{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-1"}}}
	p, err := compose.NewProblemFrom(m.String(), u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// maintenanceOrderClusters are the any-order shapes of the symmetry
// property tests (symmetricClusters): canonical forms invariant under
// the permutations of the state, commuting with the steps, one branch
// per orbit, representatives stepping like their states.
func maintenanceOrderClusters(t testing.TB) []symCluster {
	var out []symCluster
	for _, m := range []maintenanceShape{
		{nodes: 4, replicas: 3, spread: true, parallel: 1, order: model.AnyOrder},
		{nodes: 4, small: 1, replicas: 4, parallel: 2, order: model.AnyOrder, panics: true},
		{nodes: 4, zones: 2, replicas: 3, spread: true, parallel: 2, order: model.AnyOrder},
		{nodes: 4, small: 2, interleaved: true, replicas: 4, parallel: 2, order: model.AnyOrder},
	} {
		out = append(out, symCluster{m.String(), maintenanceProblem(t, m)})
	}
	return out
}

// maintenanceOrderProblems are the any-order shapes of the
// partial-order reduction tests (porProblems): the maintenance declares
// no footprint of its own (it reads and writes everything), which those
// tests hold against its steps like every other actor's.
func maintenanceOrderProblems(t testing.TB) []porProblem {
	var out []porProblem
	for _, cl := range maintenanceOrderClusters(t)[:2] {
		out = append(out, porProblem{cl.name, cl.p})
	}
	return out
}

// TestSymmetryMaintenanceAnyOrderMovesNodes pins what the analysis does
// with each order: in the written order no node moves before the
// maintenance reaches it, in any order every node of a class moves,
// zones included.
func TestSymmetryMaintenanceAnyOrderMovesNodes(t *testing.T) {
	for _, tc := range []struct {
		order   model.MaintenanceOrder
		movable string
		domains bool
	}{{model.WrittenOrder, "[]", false}, {model.AnyOrder, "[[0 1 2 3]]", true}} {
		m := maintenanceShape{nodes: 4, replicas: 3, parallel: 1, order: tc.order}
		sys := maintenanceProblem(t, m).System
		var s *model.State
		sys.Initial(func(x *model.State) { s = x.Clone() })
		if got := fmt.Sprint(sys.Symmetry.Movable(s)); got != tc.movable {
			t.Errorf("%s: movable blocks %s, want %s", m, got, tc.movable)
		}
		m.zones = 2
		sys = maintenanceProblem(t, m).System
		if got := sys.Symmetry.Analysis().DomainKey != ""; got != tc.domains {
			t.Errorf("%s: interchangeable zones %v, want %v", m, got, tc.domains)
		}
	}
}

// TestMaintenanceAnyOrderSameVerdicts: on random small inputs of a
// rolling maintenance in any order, every property has the same verdict
// with symmetry and without, the reduced run's counterexamples replay in
// the unreduced System, and its invariant counterexamples are as short
// (compareVerdicts).
func TestMaintenanceAnyOrderSameVerdicts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 7))
	runs := 14
	if testing.Short() {
		runs = 4
	}
	reduced, full := int64(0), int64(0)
	violating := 0
	for range runs {
		m := maintenanceShape{nodes: 2 + rng.IntN(3), parallel: 1 + rng.IntN(2), order: model.AnyOrder, spread: rng.IntN(2) == 0, panics: rng.IntN(4) == 0}
		m.small = rng.IntN(m.nodes)
		m.replicas = 1 + rng.IntN(m.nodes)
		if m.nodes == 4 {
			m.parallel = 1 // two at a time over four nodes runs to millions of states unreduced
		}
		if rng.IntN(3) == 0 {
			m.zones = 2
		}
		p := maintenanceProblem(t, m)
		on, off := compareVerdicts(t, p)
		t.Logf("%s: %d states reduced, %d full", m, on, off)
		for _, r := range checkResult(t, p, false).Properties {
			if r.Verdict == checker.Violated {
				violating++
				break
			}
		}
		reduced += on
		full += off
	}
	if violating == 0 || violating == runs {
		t.Errorf("%d of %d inputs violate some property: the verdicts compared are all alike", violating, runs)
	}
	if reduced >= full {
		t.Errorf("symmetry stored %d states over the inputs, %d without: it reduced nothing", reduced, full)
	}
}

// orderProblem is three nodes of 4 CPU: web's two pods (2 CPU each) on
// n1 and n2, big's pod (3 CPU) on n3, all evicted as soon as their node
// is down (tolerationSeconds 0), and a rolling maintenance, one node at
// a time. Taken in the
// order written, n1's pod moves to n2 and n2's two to n1, so n2 is empty
// when n3 goes down and big's pod moves there. Taken in any order, n3
// may go first, and no node has 3 CPU free for big's pod.
func orderProblem(t testing.TB, order model.MaintenanceOrder) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(3, build.Node().CPU(4).Mem(64))
	leaveAtOnce := func(tb *build.TemplateBuilder) *build.TemplateBuilder {
		zero := int64(0)
		for _, key := range model.NodeDownTaints {
			tb.TolerationWith(model.Toleration{Key: key, Operator: "Exists", Effect: model.NoExecute, TolerationSeconds: &zero})
		}
		return tb
	}
	web := b.AddDeployment("web", b.AddTemplate(leaveAtOnce(build.Template("web").Requests(2, 1).Label("app", "web"))), 2)
	big := b.AddDeployment("big", b.AddTemplate(leaveAtOnce(build.Template("big").Requests(3, 1).Label("app", "big"))), 1)
	b.RunPod(web, 0).RunPod(web, 1).RunPod(big, 2)
	b.AddEvent(model.Event{Kind: model.Maintenance, Slot: model.AfterStable, Parallel: 1, Order: order})
	b.Slots = 6
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	p, err := compose.NewProblemFrom("order-"+order.String(), u, s, []model.IntentDecl{{Name: "pod_always_schedulable"}}, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMaintenanceAnyOrderFindsWhatWrittenMisses: the same cluster holds
// pod_always_schedulable under a maintenance in the order written and
// violates it in any order, with big's pod unschedulable after n3 went
// down first; with symmetry and without alike.
func TestMaintenanceAnyOrderFindsWhatWrittenMisses(t *testing.T) {
	for _, tc := range []struct {
		order model.MaintenanceOrder
		want  checker.Verdict
	}{{model.WrittenOrder, checker.Holds}, {model.AnyOrder, checker.Violated}} {
		p := orderProblem(t, tc.order)
		for _, noSymmetry := range []bool{false, true} {
			res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties,
				checker.Options{CollectAll: true, NoSymmetry: noSymmetry, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Properties {
				if r.Name != "pod_always_schedulable" {
					continue
				}
				if r.Verdict != tc.want {
					t.Fatalf("%s (noSymmetry=%v): pod_always_schedulable %v, want %v", p.Name, noSymmetry, r.Verdict, tc.want)
				}
				if r.Trace == nil {
					continue
				}
				replayConcrete(t, p.System, r.Trace)
				// n3 down (program counter 2), n1 and n2 not maintained yet.
				last := r.Trace.Steps[len(r.Trace.Steps)-1].State
				if pcs := last.EventVars[p.System.U.Events[0].VarOffset:][:3]; pcs[0] != 0 || pcs[1] != 0 || pcs[2] != 2 {
					t.Errorf("%s: the counterexample ends with program counters %v, want n3 down first [0 0 2]", p.Name, pcs)
				}
			}
		}
	}
}

// TestMaintenanceAnyOrderOneBranchPerOrbit: four alike nodes, one pod
// each, two at a time: the driver's first step has a successor per pair
// of nodes (6) branching over every node, and one over orbits
// (NodeOrbits: the four nodes are one orbit).
func TestMaintenanceAnyOrderOneBranchPerOrbit(t *testing.T) {
	all, orbits := driverBranches(t, maintenanceShape{nodes: 4, replicas: 4, parallel: 2, order: model.AnyOrder})
	if all != 6 || orbits != 1 {
		t.Errorf("the driver's first step: %d successors over every node, %d over orbits; want 6 and 1", all, orbits)
	}
}

// TestMaintenanceAnyOrderOneBranchPerCountVector: three large and three
// small nodes, one pod each, three at a time: 20 sets of three nodes,
// and up to symmetry only how many small nodes go matters (0 to 3),
// whatever the order of the nodes (a choice that picked nodes in
// ascending order, one per orbit at a time, took 8 branches here when
// the small nodes are every other node).
func TestMaintenanceAnyOrderOneBranchPerCountVector(t *testing.T) {
	for _, interleaved := range []bool{false, true} {
		all, orbits := driverBranches(t, maintenanceShape{nodes: 6, small: 3, interleaved: interleaved, replicas: 6, parallel: 3, order: model.AnyOrder})
		if all != 20 || orbits != 4 {
			t.Errorf("interleaved %v: the driver's first step: %d successors over every node, %d over orbits; want 20 and 4", interleaved, all, orbits)
		}
	}
}

// TestMaintenanceAnyOrderQuickPassTakesLowest: under Kivi's tie-breaks
// (the quick pass) the driver takes the lowest-index nodes, one run of
// the full model, as the scheduler takes the lowest-index node: the pass
// stays a single order of maintenance instead of every one.
func TestMaintenanceAnyOrderQuickPassTakesLowest(t *testing.T) {
	all, _ := driverBranches(t, maintenanceShape{nodes: 4, replicas: 4, parallel: 2, order: model.AnyOrder, lowestIndex: true})
	if all != 1 {
		t.Errorf("the driver's first step under Kivi's tie-breaks: %d successors, want 1", all)
	}
}

// driverBranches counts the maintenance driver's successors from the
// first quiet state of the shape: over every node, and over one node
// per orbit.
func driverBranches(t *testing.T, m maintenanceShape) (all, orbits int) {
	t.Helper()
	p := maintenanceProblem(t, m)
	sys := p.System
	var s *model.State
	sys.Initial(func(x *model.State) { s = x.Clone() })
	s.Init = model.InitStable
	for q := range s.Queues {
		s.Queues[q] = nil
	}
	count := func(next func(*model.State, func(checker.Step, *model.State))) int {
		n := 0
		next(s, func(st checker.Step, _ *model.State) {
			if sys.Actors[st.Actor].Process.Name() == "maintenance" {
				n++
			}
		})
		return n
	}
	up, ok := sys.CheckerSystem().(interface {
		NextUpToSymmetry(*model.State, func(checker.Step, *model.State))
	})
	if !ok {
		t.Fatal("the system offers no successors up to symmetry")
	}
	return count(sys.Next), count(up.NextUpToSymmetry)
}
