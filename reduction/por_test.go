package reduction_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// porProblem is a problem of the partial-order reduction tests.
type porProblem struct {
	name string
	p    *compose.Problem
}

// porProblems are built-in cases (both variants), scaling setups, and
// setups with only the default intent (fewer visible steps, so the
// reduction has room: pod_always_schedulable reads only the failure).
func porProblems(t testing.TB) []porProblem {
	t.Helper()
	var out []porProblem
	add := func(name string, c *model.Cluster, setup *scaling.Setup) {
		var p *compose.Problem
		var err error
		if setup == nil {
			p, err = compose.NewProblem(c, compose.Options{})
		} else {
			u, s, berr := scaling.Build(c, *setup)
			if berr != nil {
				t.Fatal(berr)
			}
			p, err = compose.NewProblemFrom(name, u, s, c.Intents, compose.Options{})
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, porProblem{name, p})
	}
	get := func(name string, nv bool) *model.Cluster {
		c, err := cases.Get(name, 3, nv)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, name := range cases.Names() {
		for _, nv := range []bool{false, true} {
			add(fmt.Sprintf("%s/nv=%v", name, nv), get(name, nv), nil)
		}
	}
	for _, tc := range []struct {
		name     string
		nv       bool
		nodes    []int
		replicas []int
	}{
		{"c1", false, []int{2}, []int{3}},
		{"c3", true, []int{2, 1}, []int{4}},
		{"c4", false, []int{2}, []int{4}},
		{"c5", false, []int{1, 1}, []int{3}},
		{"c7", false, []int{1, 1}, []int{2}},
		{"c8", false, []int{1, 2}, []int{4}},
		{"c8", true, []int{2, 2}, []int{6}},
	} {
		setup := scaling.Setup{Nodes: tc.nodes, Replicas: tc.replicas}
		add(fmt.Sprintf("%s%v%v/nv=%v", tc.name, tc.nodes, tc.replicas, tc.nv), get(tc.name, tc.nv), &setup)
		bare := get(tc.name, tc.nv)
		bare.Intents = nil
		add(fmt.Sprintf("%s%v%v/nv=%v/default-intent", tc.name, tc.nodes, tc.replicas, tc.nv), bare, &setup)
	}
	out = append(out, twoDeploymentProblems(t)...)
	out = append(out, nodeUtilizationProblems(t)...)
	out = append(out, pdbProblems(t)...)
	out = append(out, deschedulePluginProblems(t)...)
	out = append(out, drainProblems(t)...)
	out = append(out, deleteNodeProblems(t)...)
	out = append(out, maintenanceOrderProblems(t)...)
	out = append(out, readinessProblems(t)...)
	return append(out, lifecycleProblems(t)...)
}

// stepsOf returns the successors of s by actor.
func stepsOf(sys *compose.System, s *model.State) map[int][]*model.State { return sys.StepsByActor(s) }

// TestFootprintsCoverSteps: on the first reachable states of every
// problem, every actor's declared footprints pass checkFootprints: its
// steps change only what its step footprint writes, which lies within the
// static one; a step of another actor that touches none of its reads or
// writes leaves it enabled with the same effect; a disabled actor stays
// disabled across every step that leaves its DisabledBy alone.
func TestFootprintsCoverSteps(t *testing.T) {
	checked := 0
	for _, pp := range porProblems(t) {
		sys, r := pp.p.System, pp.p.System.Reduction
		if r == nil {
			continue
		}
		forStates(sys, 2000, func(s *model.State) {
			checked++
			if msg := checkFootprints(sys, r, s); msg != "" {
				t.Fatalf("%s: %s\n%s", pp.name, msg, model.Describe(sys.U, s))
			}
		})
	}
	t.Logf("%d states checked", checked)
}

// TestIndependentStepsCommute: two actors enabled at a reachable state
// whose step footprints do not conflict stay enabled after each other's
// steps and reach the same states in either order: the independence the
// reduction relies on, checked on the states themselves.
func TestIndependentStepsCommute(t *testing.T) {
	pairs := 0
	for _, pp := range porProblems(t) {
		sys, r := pp.p.System, pp.p.System.Reduction
		if r == nil {
			continue
		}
		forStates(sys, 3000, func(s *model.State) {
			succ := stepsOf(sys, s)
			for x := range succ {
				for y := range succ {
					if x >= y {
						continue
					}
					rx, wx := r.StepFootprint(x, s)
					ry, wy := r.StepFootprint(y, s)
					if wx.Intersects(ry) || wx.Intersects(wy) || rx.Intersects(wy) {
						continue
					}
					pairs++
					xy, okx := composed(sys, succ[x], y)
					yx, oky := composed(sys, succ[y], x)
					nx, ny := sys.Actors[x].Process.Name(), sys.Actors[y].Process.Name()
					switch {
					case !okx:
						t.Fatalf("%s: %s disables %s\n%s", pp.name, nx, ny, model.Describe(sys.U, s))
					case !oky:
						t.Fatalf("%s: %s disables %s\n%s", pp.name, ny, nx, model.Describe(sys.U, s))
					case !sameSet(xy, yx):
						t.Fatalf("%s: %s and %s do not commute\n%s", pp.name, nx, ny, model.Describe(sys.U, s))
					}
				}
			}
		})
	}
	if pairs == 0 {
		t.Fatal("no independent pair was found: the test checked nothing")
	}
	t.Logf("%d independent pairs checked", pairs)
}

// forStates calls f on up to limit reachable states, breadth first.
func forStates(sys *compose.System, limit int, f func(*model.State)) {
	seen := map[string]bool{}
	var queue []*model.State
	sys.Initial(func(x *model.State) { queue = append(queue, x.Clone()) })
	seen[string(sys.AppendEncoding(nil, queue[0]))] = true
	for len(queue) > 0 && len(seen) <= limit {
		s := queue[0]
		queue = queue[1:]
		f(s)
		sys.Next(s, func(_ checker.Step, t *model.State) {
			k := string(sys.AppendEncoding(nil, t))
			if !seen[k] {
				seen[k] = true
				queue = append(queue, t.Clone())
			}
		})
	}
}

// composed returns the encodings of actor a's successors of every state
// of from, and false when a is disabled in one of them.
func composed(sys *compose.System, from []*model.State, a int) (map[string]bool, bool) {
	out := map[string]bool{}
	for _, t := range from {
		after := stepsOf(sys, t)[a]
		if len(after) == 0 {
			return nil, false
		}
		for _, u := range after {
			out[string(sys.AppendEncoding(nil, u))] = true
		}
	}
	return out, true
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestPORKeepsVerdicts: every problem, with symmetry on and off, has the
// same verdict for every property with and without partial-order
// reduction, and the reduced runs' counterexamples replay concretely.
// Some runs must actually reduce.
func TestPORKeepsVerdicts(t *testing.T) {
	var ample int64
	for _, pp := range porProblems(t) {
		for _, noSym := range []bool{true, false} {
			run := func(noPOR bool) checker.Result[*model.State] {
				res, err := checker.Check[*model.State](context.Background(), pp.p.System.CheckerSystem(), pp.p.Properties,
					checker.Options{CollectAll: true, NoSymmetry: noSym, NoPOR: noPOR, Workers: 2, MaxStates: 1_000_000})
				if err != nil {
					t.Fatalf("%s: %v", pp.name, err)
				}
				return res
			}
			full, reduced := run(true), run(false)
			ample += reduced.Stats.AmpleExpansions
			if reduced.Stats.States > full.Stats.States {
				t.Errorf("%s (symmetry %v): POR stores more states (%d) than without (%d)", pp.name, !noSym, reduced.Stats.States, full.Stats.States)
			}
			for i, a := range full.Properties {
				b := reduced.Properties[i]
				if a.Verdict == checker.Unknown || b.Verdict == checker.Unknown {
					continue
				}
				if a.Verdict != b.Verdict {
					t.Errorf("%s (symmetry %v): %s: %v without POR, %v with", pp.name, !noSym, a.Name, a.Verdict, b.Verdict)
					continue
				}
				if b.Trace == nil {
					continue
				}
				cur := b.Trace.Initial
				for k, st := range b.Trace.Steps {
					next, _, err := pp.p.System.Replay(cur, st.Step)
					if err != nil {
						t.Fatalf("%s: %s: step %d: %v", pp.name, a.Name, k+1, err)
					}
					cur = next
				}
			}
		}
	}
	if ample == 0 {
		t.Fatal("no run used an ample set: the test compared nothing")
	}
	t.Logf("%d ample expansions in all", ample)
}
