package deschedulerdiff

import (
	"context"
	"flag"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

var budgets = flag.Int("budgets", 1000, "random snapshots TestBudgets compares (rapid checks)")

// TestBudgets compares the model's PodDisruptionBudget status and
// Eviction API decision with the disruption controller's sync and the
// API server's eviction subresource on -budgets random snapshots (pods
// Running, Pending or terminating; one or two budgets each). There is no
// known class: every disagreement fails.
func TestBudgets(t *testing.T) {
	ctx := t.Context()
	d := NewDisruption(ctx)
	withChecks(t, *budgets)
	total, pods := 0, 0
	outcomes := map[model.EvictionOutcome]int{}
	rapid.Check(t, func(rt *rapid.T) {
		s := GenerateBudgets(rt)
		res, err := CompareBudgets(context.WithoutCancel(ctx), d, s)
		if err != nil {
			rt.Fatal(err)
		}
		if res.Detail != "" {
			rt.Fatalf("disagreement: %s\n%s", res.Detail, s)
		}
		total++
		pods += len(s.Pods)
		for k, n := range res.Outcomes {
			outcomes[k] += n
		}
	})
	t.Logf("%d snapshots, all agree on every budget's status and on %d evictions: allowed %d, refused by the budget (429) %d, several budgets (500) %d",
		total, pods, outcomes[model.EvictionAllowed], outcomes[model.EvictionBudgetExhausted], outcomes[model.EvictionMultipleBudgets])
	if total >= 500 {
		for _, k := range []model.EvictionOutcome{model.EvictionAllowed, model.EvictionBudgetExhausted, model.EvictionMultipleBudgets} {
			if outcomes[k] == 0 {
				t.Errorf("no eviction with outcome %d in %d snapshots", k, total)
			}
		}
	}
}
