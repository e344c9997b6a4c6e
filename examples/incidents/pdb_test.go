package incidents_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/controllers/descheduler"
	"github.com/kivi-go/kivi/examples/incidents"
	"github.com/kivi-go/kivi/model"
)

// TestDisruptionBudgetRefusesSecondEviction: in the fixed twin of
// descheduler-evicts-all-replicas, the cycle that would evict two of the
// three replicas stacked on spot-1 evicts one; the Eviction API refuses
// the second (the budget allows one disruption and the first used it).
func TestDisruptionBudgetRefusesSecondEviction(t *testing.T) {
	c, _, err := incidents.Load("descheduler-evicts-all-replicas", true)
	if err != nil {
		t.Fatal(err)
	}
	u, s, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	if len(u.PDBs) != 1 || !u.PDBs[0].MatchesTemplate[0] {
		t.Fatalf("budgets: %+v", u.PDBs)
	}
	// The state the written configuration's counterexample reaches before
	// the descheduler's cycle: web created, its three replicas on spot-1.
	s.Deps[0].Active = true
	for i := range 3 {
		s.Pods[i] = model.PodState{Phase: model.Running, Node: 1, Owner: 1, Template: 0,
			CPU: int32(u.Templates[0].CPU), Memory: int32(u.Templates[0].Memory)}
	}
	s.DeschedulerPending = true
	s.Init = model.InitMain
	out := descheduler.Explain(u, s)
	if strings.Count(out, "[descheduler] Evicting pod") != 1 ||
		!strings.Contains(out, "Error evicting pod pod#2 from node spot-1: Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently") {
		t.Errorf("want one eviction and one refused:\n%s", out)
	}
}
