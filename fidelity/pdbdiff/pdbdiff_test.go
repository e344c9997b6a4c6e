package pdbdiff

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/classify"
	"github.com/kivi-go/kivi/model"
)

var cases = flag.Int("cases", 3000, "random cases TestDifferential compares (rapid checks)")

// percents are the percentages drawn half the time (the rounding edges);
// otherwise any of 0..100.
var percents = []int{0, 1, 10, 25, 30, 33, 50, 66, 75, 99, 100}

func drawIntOrPercent(t *rapid.T, label string) string {
	if rapid.Bool().Draw(t, label+"Percent") {
		v := rapid.IntRange(0, 100).Draw(t, label+"Any")
		if rapid.Bool().Draw(t, label+"Edge") {
			v = rapid.SampledFrom(percents).Draw(t, label+"Edge")
		}
		return fmt.Sprint(v, "%")
	}
	return fmt.Sprint(rapid.IntRange(0, 14).Draw(t, label+"Int"))
}

// genCase draws a case:
//   - 1–3 workloads: a Deployment (one in two), StatefulSet, Job or bare
//     pods (one in six each), spec.replicas 0–12, tier a or b; in one
//     case of three spread over two namespaces;
//   - 0–12 pods of them, in any state (Running Ready three times as
//     likely as each other), a Deployment's pod of its old ReplicaSet one
//     time in four;
//   - 1–3 budgets: a workload's pods (seven in twelve), a tier, every
//     pod (two in twelve each) or no selector (one in twelve), in the
//     namespace of a workload or, in the spread cases, either;
//     minAvailable or maxUnavailable, an integer 0–14 or a percentage, or
//     neither (one in ten); unhealthyPodEvictionPolicy unset, IfHealthyBudget
//     or AlwaysAllow;
//   - the evictions: a random order of a random subset of the bound pods
//     (unbound pods are evicted by no component of the model), the
//     controller resyncing between them in half the cases.
func genCase(t *rapid.T) *Case {
	c := &Case{}
	spread := rapid.IntRange(0, 2).Draw(t, "spread") == 0
	for range rapid.IntRange(1, 3).Draw(t, "workloads") {
		w := Workload{Replicas: rapid.IntRange(0, 12).Draw(t, "replicas"), Tier: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "tier")}
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 3:
			w.Kind = StatefulSet
		case 4:
			w.Kind = Job
		case 5:
			w.Kind = Bare
		}
		if spread {
			w.Namespace = rapid.IntRange(0, 1).Draw(t, "namespace")
		}
		c.Workloads = append(c.Workloads, w)
	}
	for range rapid.IntRange(0, 12).Draw(t, "pods") {
		p := Pod{Workload: rapid.IntRange(0, len(c.Workloads)-1).Draw(t, "podWorkload")}
		p.State = PodState(rapid.IntRange(0, int(numPodStates)+1).Draw(t, "state"))
		if p.State >= numPodStates {
			p.State = Ready
		}
		if c.Workloads[p.Workload].Kind == Deployment {
			p.OldRevision = rapid.IntRange(0, 3).Draw(t, "old") == 0
		}
		c.Pods = append(c.Pods, p)
	}
	for range rapid.IntRange(1, 3).Draw(t, "pdbs") {
		w := rapid.IntRange(0, len(c.Workloads)-1).Draw(t, "pdbWorkload")
		b := PDB{Workload: w, Namespace: c.Workloads[w].Namespace, Tier: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "pdbTier")}
		if spread && rapid.IntRange(0, 2).Draw(t, "pdbAnyNamespace") == 0 {
			b.Namespace = rapid.IntRange(0, 1).Draw(t, "pdbNamespace")
		}
		switch rapid.IntRange(0, 11).Draw(t, "selector") {
		case 6, 7:
			b.Selector = SelectTier
		case 8, 9:
			b.Selector = SelectAll
		case 10:
			b.Selector = SelectNone
		}
		switch rapid.IntRange(0, 9).Draw(t, "bound") {
		case 0:
		case 1, 2, 3, 4, 5:
			b.MinAvailable = drawIntOrPercent(t, "minAvailable")
		default:
			b.MaxUnavailable = drawIntOrPercent(t, "maxUnavailable")
		}
		b.Policy = rapid.SampledFrom([]string{"", "IfHealthyBudget", "AlwaysAllow"}).Draw(t, "policy")
		c.PDBs = append(c.PDBs, b)
	}
	var bound []int
	for i, p := range c.Pods {
		if p.State != PendingUnbound && rapid.IntRange(0, 3).Draw(t, "evict") > 0 {
			bound = append(bound, i)
		}
	}
	c.Evictions = rapid.Permutation(bound).Draw(t, "evictions")
	c.Resync = rapid.Bool().Draw(t, "resync")
	return c
}

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, 1) }

func newUpstream(t *testing.T) *Upstream {
	up, err := NewUpstream(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return up
}

// TestDifferential compares the model with the disruption controller
// and the eviction subresource on -cases random cases: every
// disagreement must belong to a known class; rapid shrinks an
// unexplained one. The counts are logged.
func TestDifferential(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	withChecks(t, *cases)
	counts := map[string]int{}
	n, budgets, failed, allowedSome, evictions, sequences, lagOutcomes := 0, 0, 0, 0, 0, 0, 0
	outcomes := map[model.EvictionOutcome]int{}
	seqOutcomes := map[model.EvictionOutcome]int{}
	rapid.Check(t, func(t *rapid.T) {
		c := genCase(t)
		v, err := Check(ctx, up, c, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, c)
		}
		if v.Class == Unexplained {
			t.Fatalf("unexplained disagreement\n%smodel:\n%supstream:\n%s", c, v.Model, v.Upstream)
		}
		if v.Class == StatusLag && outcomesDiffer(v.Model.Sequence, v.Upstream.Sequence) {
			if !c.lagChangesOutcome() {
				t.Fatalf("status lag changed an outcome without an unhealthy pod drawing on a budget or a sync failure's pod evicted\n%smodel:\n%supstream:\n%s", c, v.Model, v.Upstream)
			}
			lagOutcomes++
		}
		n++
		counts[v.Class]++
		for _, s := range v.Upstream.Statuses {
			budgets++
			if s.SyncFailed {
				failed++
			}
			if s.DisruptionsAllowed > 0 {
				allowedSome++
			}
		}
		for _, a := range v.Upstream.Alone {
			evictions++
			outcomes[a.Outcome]++
		}
		for _, a := range v.Upstream.Sequence {
			sequences++
			seqOutcomes[a.Outcome]++
		}
	})
	t.Logf("%d cases: agree %d", n, counts[Agree])
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if k != Agree {
			t.Logf("  %s: %d", k, counts[k])
		}
	}
	t.Logf("  of which an outcome differs (an unhealthy pod drew on a budget, or a sync failure's pod was evicted): %d", lagOutcomes)
	t.Logf("%d budget statuses (sync failed %d, disruptions allowed %d); %d evictions alone: allowed %d, 429 %d, 500 %d; "+
		"%d evictions in sequences: allowed %d, 429 %d, 500 %d", budgets, failed, allowedSome,
		evictions, outcomes[model.EvictionAllowed], outcomes[model.EvictionBudgetExhausted], outcomes[model.EvictionMultipleBudgets],
		sequences, seqOutcomes[model.EvictionAllowed], seqOutcomes[model.EvictionBudgetExhausted], seqOutcomes[model.EvictionMultipleBudgets])
	if n >= 1000 && (failed == 0 || outcomes[model.EvictionMultipleBudgets] == 0 || outcomes[model.EvictionBudgetExhausted] == 0 || counts[StatusLag] == 0) {
		t.Errorf("a branch was never reached in %d cases: sync failed %d, 500 %d, 429 %d, status lag %d", n, failed,
			outcomes[model.EvictionMultipleBudgets], outcomes[model.EvictionBudgetExhausted], counts[StatusLag])
	}
}
