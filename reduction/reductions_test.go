package reduction_test

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// randomIntents draws a non-empty set of intents that a cluster with one
// deployment accepts: safety assertions, replica monitors and the
// eviction-loop cycle intent.
func randomIntents(rt *rapid.T) []model.IntentDecl {
	pool := []model.IntentDecl{
		{Name: "pod_always_schedulable"},
		{Name: "no_kernel_panic"},
		{Name: "no_oscillation_replica_num", Params: map[string]any{"did": 1}},
		{Name: "replica_num_always_meet_min", Params: map[string]any{"did": 1}},
		{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "d[did].specReplicas-1"}},
		{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}},
		{Name: "pod_balance_across_node", Params: map[string]any{"did": 1, "maxSkew": 1}},
	}
	var out []model.IntentDecl
	for len(out) == 0 {
		for _, in := range pool {
			if rapid.Bool().Draw(rt, in.Name) {
				out = append(out, in)
			}
		}
	}
	return out
}

// TestReductionsKeepVerdicts (issue: reductions that stay sound): random
// small clusters (scaling setups of the built-in cases, up to 3 nodes and
// 5 replicas, either variant) with random intents, cycle intents among
// them, have the same verdict for every property with no reduction,
// partial-order reduction only, symmetry only and both; every reduced
// counterexample replays step by step in the unreduced System.
func TestReductionsKeepVerdicts(t *testing.T) {
	type mode struct {
		name         string
		noSym, noPOR bool
	}
	modes := []mode{{"none", true, true}, {"por", true, false}, {"symmetry", false, true}, {"both", false, false}}
	rapid.Check(t, func(rt *rapid.T) {
		name := rapid.SampledFrom(cases.Names()).Draw(rt, "case")
		nv := rapid.Bool().Draw(rt, "noViolation")
		c, err := cases.Get(name, 3, nv)
		if err != nil {
			rt.Fatal(err)
		}
		setups, err := scaling.Setups(c, scaling.EnumerateOptions{ConfidentNodes: 3})
		if err != nil {
			rt.Fatal(err)
		}
		var small []scaling.Setup
		for _, s := range setups {
			if s.TotalNodes() <= 3 && s.TotalReplicas() <= 5 && len(s.Replicas) == 1 {
				small = append(small, s)
			}
		}
		if len(small) == 0 {
			rt.Skip("no small one-deployment setup")
		}
		setup := rapid.SampledFrom(small).Draw(rt, "setup")
		u, s, err := scaling.Build(c, setup)
		if err != nil {
			rt.Fatal(err)
		}
		decls := randomIntents(rt)
		p, err := compose.NewProblemFrom(fmt.Sprintf("%s%v", name, setup), u, s, decls, kivi.Options{})
		if err != nil {
			rt.Fatal(err)
		}
		var base checker.Result[*model.State]
		for i, m := range modes {
			res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties,
				checker.Options{CollectAll: true, Workers: 1, NoSymmetry: m.noSym, NoPOR: m.noPOR, MaxStates: 300_000})
			if err != nil {
				rt.Fatalf("%s, %s: %v", p.Name, m.name, err)
			}
			if i == 0 {
				base = res
				continue
			}
			for k, a := range base.Properties {
				b := res.Properties[k]
				if a.Verdict == checker.Unknown || b.Verdict == checker.Unknown {
					continue
				}
				if a.Verdict != b.Verdict {
					rt.Fatalf("%s: %s: %v with no reduction, %v with %s", p.Name, a.Name, a.Verdict, b.Verdict, m.name)
				}
				if b.Trace != nil {
					replayTrace(rt, p.System, b.Trace)
				}
			}
		}
	})
}

// replayTrace re-executes a counterexample with System.Replay and checks
// that every step reaches the state the trace records.
func replayTrace(rt *rapid.T, sys *compose.System, tr *checker.Trace[*model.State]) {
	cur := tr.Initial
	for i, st := range tr.Steps {
		next, _, err := sys.Replay(cur, st.Step)
		if err != nil {
			rt.Fatalf("step %d: %v", i+1, err)
		}
		if string(encode(sys.U, next)) != string(encode(sys.U, st.State)) {
			rt.Fatalf("step %d: replay reaches another state", i+1)
		}
		cur = next
	}
}
