package compose_test

import (
	"context"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/examples/incidents"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

// A probe of ten states is cut short on every input below, so the
// depth-first phase runs as it does on a large cluster.
const tinyProbe = 10

func check(t *testing.T, c *model.Cluster, opts compose.Options, copts checker.Options) *report.Report {
	t.Helper()
	p, err := compose.NewProblem(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	copts.Workers = 2
	r, err := p.Check(context.Background(), copts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func phaseNames(r *report.Report) []string {
	var out []string
	for _, ph := range r.Phases {
		out = append(out, ph.Name)
	}
	return out
}

func loadIncident(t *testing.T, name string, fixed bool) *model.Cluster {
	t.Helper()
	c, _, err := incidents.Load(name, fixed)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// In the rollout's zone skew the quick pass (one choice per tie) sees no
// violation; the depth-first phase finds it, and names the seed of the
// search that did.
func TestDepthFirstPhaseFindsViolation(t *testing.T) {
	c := loadIncident(t, "rollout-zone-spread-skew", false)
	plain := check(t, c, compose.Options{NoDepthFirst: true}, checker.Options{})
	want := plain.Result("pod_balance_across_node")
	if want == nil || want.Verdict != checker.Violated || want.FoundBy != report.PhaseExhaustive {
		t.Fatalf("without the depth-first phase: %+v", want)
	}

	// Reported as found (no shortening).
	r := check(t, c, compose.Options{ProbeStates: tinyProbe, ShortenFor: -1}, checker.Options{})
	got := r.Result("pod_balance_across_node")
	if got == nil || got.Verdict != checker.Violated || got.FoundBy != report.PhaseDepthFirst || got.Seed == 0 || got.Trace == nil || len(got.Trace.Steps) == 0 {
		t.Fatalf("depth-first phase: %+v", got)
	}
	if names := phaseNames(r); len(names) != 2 || names[1] != report.PhaseDepthFirst {
		t.Fatalf("phases %v", names)
	}
	if line := r.FoundByLine(); line == "" {
		t.Fatal("no found-by line")
	}

	// The exhaustive search then finds the shortest counterexample.
	r = check(t, c, compose.Options{ProbeStates: tinyProbe}, checker.Options{})
	got = r.Result("pod_balance_across_node")
	if got == nil || got.Verdict != checker.Violated || got.FoundBy != report.PhaseExhaustive || len(got.Trace.Steps) != len(want.Trace.Steps) {
		t.Fatalf("after shortening: %+v, want a trace of %d steps", got, len(want.Trace.Steps))
	}
	if names := phaseNames(r); len(names) != 3 || names[1] != report.PhaseDepthFirst || names[2] != report.PhaseExhaustive {
		t.Fatalf("phases %v", names)
	}
}

// Whatever the phases, the verdicts are those of the exhaustive search
// alone: on every built-in case and incident, with every intent settled,
// and stopping at the first violation.
func TestDepthFirstPhaseKeepsVerdicts(t *testing.T) {
	type input struct {
		name string
		c    *model.Cluster
	}
	var ins []input
	for _, name := range cases.Names() {
		for _, nv := range []bool{false, true} {
			c, err := cases.Get(name, 3, nv)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, input{name, c})
		}
	}
	for _, name := range incidents.Names() {
		if testing.Short() && len(ins) > 24 {
			break
		}
		for _, fixed := range []bool{false, true} {
			ins = append(ins, input{name, loadIncident(t, name, fixed)})
		}
	}
	ran := 0
	for _, in := range ins {
		for _, all := range []bool{true, false} {
			want := check(t, in.c, compose.Options{NoDepthFirst: true, ProbeStates: -1}, checker.Options{CollectAll: all})
			if !want.Complete {
				continue // a verdict to compare needs a finished search
			}
			got := check(t, in.c, compose.Options{ProbeStates: tinyProbe}, checker.Options{CollectAll: all})
			for _, w := range want.Results {
				g := got.Result(w.Name)
				if g == nil {
					t.Fatalf("%s: no %s", in.name, w.Name)
				}
				// Stopping at the first violation, which intents are
				// settled depends on which violation a phase meets
				// first; none may contradict the exhaustive search.
				agree := g.Verdict == w.Verdict
				if !all {
					agree = agree || g.Verdict == checker.Unknown || w.Verdict == checker.Unknown
				}
				if !agree {
					t.Errorf("%s (all %v): %s %s, found by %q; exhaustive search alone: %s", in.name, all, w.Name, g.Verdict, g.FoundBy, w.Verdict)
				}
			}
			if (len(got.Violated()) > 0) != (len(want.Violated()) > 0) {
				t.Errorf("%s (all %v): %d violations, exhaustive search alone %d", in.name, all, len(got.Violated()), len(want.Violated()))
			}
			if slicesContain(phaseNames(got), report.PhaseDepthFirst) {
				ran++
			}
		}
	}
	if ran == 0 {
		t.Fatal("the depth-first phase never ran")
	}
	t.Logf("%d inputs, the depth-first phase ran on %d runs", len(ins), ran)
}

func slicesContain(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// On 20 nodes the violation of examples/zone-skew-20 takes a whole
// rollout, about 70 steps: a breadth-first search does not reach it
// within 100 000 states, and each seeded depth-first search of the
// depth-first phase finds it within 20 000.
func TestDepthFirstReachesDeepViolation(t *testing.T) {
	p, err := compose.NewProblem(zoneSkew20(t), compose.Options{NoQuickPass: true})
	if err != nil {
		t.Fatal(err)
	}
	const intent = "pod_balance_across_node"
	bfs, err := p.Check(context.Background(), checker.Options{Workers: 1, MaxStates: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	if x := bfs.Result(intent); x == nil || x.Verdict != checker.Unknown {
		t.Fatalf("breadth-first: %+v, want unknown (state bound)", x)
	}
	for seed := uint64(1); seed <= 4; seed++ {
		dfs, err := p.Check(context.Background(), checker.Options{Workers: 1, MaxStates: 20_000, Strategy: checker.DFS, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		x := dfs.Result(intent)
		if x == nil || x.Verdict != checker.Violated {
			t.Fatalf("seed %d: %+v after %d states, want violated", seed, x, dfs.Stats.States)
		}
		t.Logf("seed %d: violated after %d states, a counterexample of %d steps", seed, dfs.Stats.States, len(x.Trace.Steps))
	}
}

// The seed a depth-first phase's violation names repeats its search: the
// one depth-first search with it (`--strategy dfs --seed N`) finds the
// same counterexample, and another seed another one.
func TestSeedRepeatsDepthFirstSearch(t *testing.T) {
	c := zoneSkew20(t)
	const intent = "pod_balance_across_node"
	r := check(t, c, compose.Options{ProbeStates: tinyProbe, ShortenFor: -1}, checker.Options{})
	got := r.Result(intent)
	if got == nil || got.Verdict != checker.Violated || got.FoundBy != report.PhaseDepthFirst {
		t.Fatalf("depth-first phase: %+v", got)
	}
	for _, seed := range []uint64{got.Seed, got.Seed + 2} {
		again := check(t, c, compose.Options{NoQuickPass: true}, checker.Options{Strategy: checker.DFS, Seed: seed})
		x := again.Result(intent)
		if x == nil || x.Trace == nil {
			t.Fatalf("seed %d alone: %+v", seed, x)
		}
		if same := slices.Equal(x.Trace.Lines(), got.Trace.Lines()); same != (seed == got.Seed) {
			t.Fatalf("seed %d alone gives the same counterexample as the phase's seed %d: %v", seed, got.Seed, same)
		}
	}
}
