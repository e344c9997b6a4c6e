package reduction_test

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Choices up to symmetry (model.Tx.ChooseNode, model.Tx.ChoosePods and the
// descheduler's choice of equal domains) branch over one outcome per
// orbit of the state's symmetries instead of over every node and subset.
// That is sound exactly when it loses no orbit: the canonical forms of
// the successors it emits must be all the canonical forms of the
// successors of the unreduced enumeration.

// canonicalSuccessors returns the sorted, distinct canonical encodings of
// the successors that next emits from s.
func canonicalSuccessors(sys *compose.System, s *model.State, next func(*model.State, func(checker.Step, *model.State))) (keys []string, n int) {
	next(s, func(_ checker.Step, t *model.State) {
		keys = append(keys, string(sys.Symmetry.AppendCanonical(nil, t)))
		n++
	})
	slices.Sort(keys)
	return slices.Compact(keys), n
}

// scaleDownProblem: interchangeable nodes holding several pods each, of
// two CPU usages, and a kubectl scale that may remove up to all of them:
// the deployment controller's victims range over pods of twin nodes with
// two classes per node.
func scaleDownProblem(t testing.TB, nodes int) *kivi.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(nodes, build.Node().CPU(64).Mem(64))
	app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app"))
	d := b.AddDeployment("web", app, 2*nodes)
	for n := range nodes {
		b.RunPodCPU(d, n, 3).RunPodCPU(d, n, 5)
	}
	b.AddEvent(model.Event{Kind: model.ScaleDeployment, MaxDelta: 2 * nodes, MaxDeployment: 1})
	b.Slots = 3 * nodes
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("scaledown%d", nodes), u, s, nil, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestChoicesUpToSymmetryKeepEveryOrbit: on random reachable states of the
// symmetric clusters (built-in cases and setups, the events cluster, two
// deployments, C8's descheduler at three and four nodes, scale-downs over
// twin nodes), branching up to symmetry reaches exactly the canonical
// successors of branching over everything, and never more successors.
func TestChoicesUpToSymmetryKeepEveryOrbit(t *testing.T) {
	clusters := symmetricClusters(t)
	// Half the draws go to clusters where many choices are made among
	// twin nodes.
	twins := []symCluster{
		{"scaledown3", scaleDownProblem(t, 3)},
		{"scaledown4", scaleDownProblem(t, 4)},
		{"c1/scale5", caseProblem(t, "c1", 5, false)},
		{"c8/scale4", caseProblem(t, "c8", 4, false)},
		{"c8[1 4][5]", setupProblem(t, "c8", false, []int{1, 4}, []int{5})},
	}
	rapid.Check(t, func(rt *rapid.T) {
		from := clusters
		if rapid.Bool().Draw(rt, "twins") {
			from = twins
		}
		cl := rapid.SampledFrom(from).Draw(rt, "cluster")
		sys := cl.p.System
		if sys.Symmetry == nil || sys.Symmetry.Trivial() {
			return
		}
		ss, ok := sys.CheckerSystem().(checker.SymmetricSuccessors[*model.State])
		if !ok {
			rt.Fatalf("%s: a symmetric system without NextUpToSymmetry", cl.name)
		}
		s := walkUpTo(rt, sys, rapid.SampledFrom([]int{1, 2, 3, 10, 40}).Draw(rt, "bound"))
		all, nAll := canonicalSuccessors(sys, s, sys.Next)
		orbits, nOrbits := canonicalSuccessors(sys, s, ss.NextUpToSymmetry)
		if !slices.Equal(all, orbits) {
			rt.Fatalf("%s: %d canonical successors branching over everything, %d up to symmetry\nstate:\n%s",
				cl.name, len(all), len(orbits), model.Describe(sys.U, s))
		}
		if nOrbits > nAll {
			rt.Fatalf("%s: %d successors up to symmetry, more than the %d of the full enumeration", cl.name, nOrbits, nAll)
		}
	})
}

// TestScaleDownUpToSymmetry: after every kubectl scale of the scale-down
// cluster (four twin nodes holding two kinds of pods each), the
// deployment controller's victims up to symmetry reach the same canonical
// states as every subset, through fewer successors for the scale-downs.
func TestScaleDownUpToSymmetry(t *testing.T) {
	p := scaleDownProblem(t, 4)
	sys := p.System
	ss := sys.CheckerSystem().(checker.SymmetricSuccessors[*model.State])
	var s0 *model.State
	sys.Initial(func(x *model.State) { s0 = x.Clone() })
	fewer := 0
	for _, scaled := range successors(sys, s0) {
		all, nAll := canonicalSuccessors(sys, scaled, sys.Next)
		orbits, nOrbits := canonicalSuccessors(sys, scaled, ss.NextUpToSymmetry)
		if !slices.Equal(all, orbits) || nOrbits > nAll {
			t.Fatalf("%d canonical successors (%d transitions) over everything, %d (%d) up to symmetry\nstate:\n%s",
				len(all), nAll, len(orbits), nOrbits, model.Describe(sys.U, scaled))
		}
		if nOrbits < nAll {
			fewer++
		}
	}
	if fewer == 0 {
		t.Fatal("no scale-down had fewer successors up to symmetry: the test compared nothing")
	}
}

// walkUpTo draws a random run of up to max steps from the initial state.
func walkUpTo(rt *rapid.T, sys *compose.System, max int) *model.State {
	var s *model.State
	sys.Initial(func(x *model.State) { s = x.Clone() })
	steps := rapid.IntRange(0, max).Draw(rt, "steps")
	for range steps {
		succ := successors(sys, s)
		if len(succ) == 0 {
			break
		}
		s = succ[rapid.IntRange(0, len(succ)-1).Draw(rt, "successor")]
	}
	return s
}
