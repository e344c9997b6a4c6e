package model_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

func minAvailable(v int, percent bool) *model.IntOrPercent {
	return &model.IntOrPercent{Value: v, Percent: percent}
}

// pdbCluster builds two nodes, deployments of template app=web with the
// given spec replicas, and `pods` Running pods of the first; the budget
// selects app=web.
func pdbCluster(t *testing.T, pdb model.PodDisruptionBudget, replicas []int, pods int) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node())
	web := b.AddTemplate(build.Template("web").Requests(1, 1).Label("app", "web"))
	for i, r := range replicas {
		b.AddDeployment("web"+string(rune('a'+i)), web, r)
	}
	for range pods {
		b.RunPod(0, 0)
	}
	if pdb.Selector == nil {
		pdb.Selector = &model.Selector{MatchLabels: map[string]string{"app": "web"}}
	}
	pdb.Name = "pdb"
	b.U.PDBs = []model.PodDisruptionBudget{pdb}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u, s
}

// TestDisruption restates the situations of upstream's disruption
// controller tests (pkg/controller/disruption/disruption_test.go) with the
// model's pods: each row is (disruptionsAllowed, currentHealthy,
// desiredHealthy, expectedPods) as VerifyPdbStatus checks them.
func TestDisruption(t *testing.T) {
	type status = model.DisruptionStatus
	for _, tc := range []struct {
		name     string
		pdb      model.PodDisruptionBudget
		replicas []int
		pods     int
		// edit changes the state after building (nil: none).
		edit func(s *model.State)
		want status
	}{
		{name: "TestNoSelector: empty selector, no pod", pdb: model.PodDisruptionBudget{Selector: &model.Selector{}, MinAvailable: minAvailable(3, false)},
			replicas: []int{1}, want: status{DesiredHealthy: 3}},
		{name: "TestNoSelector: empty selector, one pod", pdb: model.PodDisruptionBudget{Selector: &model.Selector{}, MinAvailable: minAvailable(3, false)},
			replicas: []int{1}, pods: 1, want: status{CurrentHealthy: 1, DesiredHealthy: 3, ExpectedPods: 1}},
		{name: "nil selector selects nothing", pdb: model.PodDisruptionBudget{Selector: nil, MinAvailable: minAvailable(0, false)},
			replicas: []int{4}, pods: 4, edit: nil, want: status{CurrentHealthy: 4, ExpectedPods: 4, DisruptionsAllowed: 4}},
		{name: "TestUnavailable: three pods", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(3, false)},
			replicas: []int{4}, pods: 3, want: status{CurrentHealthy: 3, DesiredHealthy: 3, ExpectedPods: 3}},
		{name: "TestUnavailable: four pods", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(3, false)},
			replicas: []int{4}, pods: 4, want: status{DisruptionsAllowed: 1, CurrentHealthy: 4, DesiredHealthy: 3, ExpectedPods: 4}},
		{name: "TestUnavailable: one pod not ready", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(3, false)},
			replicas: []int{4}, pods: 4, edit: func(s *model.State) { s.Pods[0].Phase = model.Pending },
			want: status{CurrentHealthy: 3, DesiredHealthy: 3, ExpectedPods: 4}},
		{name: "terminating pod: selected, not healthy", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(2, false)},
			replicas: []int{4}, pods: 4, edit: func(s *model.State) { s.Pods[0].Phase, s.Pods[0].WasRunning = model.Terminating, true },
			want: status{DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 4}},
		{name: "failed pod: selected, not healthy", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(2, false)},
			replicas: []int{4}, pods: 3, edit: func(s *model.State) { s.Pods[0].Phase = model.Failed },
			want: status{CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3}},
		{name: "TestIntegerMaxUnavailable: no pod", pdb: model.PodDisruptionBudget{MaxUnavailable: minAvailable(1, false)},
			replicas: []int{1}, want: status{}},
		{name: "TestIntegerMaxUnavailable: naked pod", pdb: model.PodDisruptionBudget{MaxUnavailable: minAvailable(1, false)},
			replicas: []int{1}, pods: 1, edit: func(s *model.State) { s.Pods[0].Owner = 0 },
			want: status{CurrentHealthy: 1}},
		{name: "TestIntegerMaxUnavailableWithScaling: 7 replicas", pdb: model.PodDisruptionBudget{MaxUnavailable: minAvailable(2, false)},
			replicas: []int{7}, pods: 1, want: status{CurrentHealthy: 1, DesiredHealthy: 5, ExpectedPods: 7}},
		{name: "TestIntegerMaxUnavailableWithScaling: scaled to 5", pdb: model.PodDisruptionBudget{MaxUnavailable: minAvailable(2, false)},
			replicas: []int{7}, pods: 1, edit: func(s *model.State) { s.Deps[0].Replicas = 5 },
			want: status{CurrentHealthy: 1, DesiredHealthy: 3, ExpectedPods: 5}},
		{name: "TestPercentageMaxUnavailableWithScaling: 7 replicas", pdb: model.PodDisruptionBudget{MaxUnavailable: minAvailable(30, true)},
			replicas: []int{7}, pods: 1, want: status{CurrentHealthy: 1, DesiredHealthy: 4, ExpectedPods: 7}},
		{name: "TestPercentageMaxUnavailableWithScaling: scaled to 3", pdb: model.PodDisruptionBudget{MaxUnavailable: minAvailable(30, true)},
			replicas: []int{7}, pods: 1, edit: func(s *model.State) { s.Deps[0].Replicas = 3 },
			want: status{CurrentHealthy: 1, DesiredHealthy: 2, ExpectedPods: 3}},
		{name: "TestNakedPod: percentage minAvailable", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(28, true)},
			replicas: []int{1}, pods: 1, edit: func(s *model.State) { s.Pods[0].Owner = 0 },
			want: status{CurrentHealthy: 1}},
		{name: "TestReplicaSet: 20% of 10", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(20, true)},
			replicas: []int{10}, pods: 1, want: status{CurrentHealthy: 1, DesiredHealthy: 2, ExpectedPods: 10}},
		{name: "TestMultipleControllers: 1% of 1, two healthy", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(1, true)},
			replicas: []int{1}, pods: 2, want: status{DisruptionsAllowed: 1, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 1}},
		{name: "TestTwoControllers: 28% of 11+11, nine healthy", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(28, true)},
			replicas: []int{11, 11}, pods: 9, edit: func(s *model.State) { s.Pods[8].Owner = 2 },
			want: status{DisruptionsAllowed: 2, CurrentHealthy: 9, DesiredHealthy: 7, ExpectedPods: 22}},
		{name: "TestTwoControllers: only the first deployment has pods", pdb: model.PodDisruptionBudget{MinAvailable: minAvailable(28, true)},
			replicas: []int{11, 11}, pods: 5, want: status{DisruptionsAllowed: 1, CurrentHealthy: 5, DesiredHealthy: 4, ExpectedPods: 11}},
		{name: "neither minAvailable nor maxUnavailable", pdb: model.PodDisruptionBudget{},
			replicas: []int{3}, pods: 3, want: status{CurrentHealthy: 3}},
		{name: "maxUnavailable 100% of 3", pdb: model.PodDisruptionBudget{MaxUnavailable: minAvailable(100, true)},
			replicas: []int{3}, pods: 3, want: status{DisruptionsAllowed: 3, CurrentHealthy: 3, ExpectedPods: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := pdbCluster(t, tc.pdb, tc.replicas, tc.pods)
			if tc.edit != nil {
				tc.edit(s)
			}
			if got := u.Disruption(s, 0); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestEvictionDecision restates the Eviction API's branches
// (pkg/registry/core/pod/storage/eviction.go; eviction_test.go's
// TestEvictionIgnorePDB and unhealthy-pod policy cases).
func TestEvictionDecision(t *testing.T) {
	for _, tc := range []struct {
		name   string
		st     model.DisruptionStatus
		policy model.UnhealthyPodEvictionPolicy
		ready  bool
		want   model.EvictionOutcome
	}{
		{"ready, budget left", model.DisruptionStatus{DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3}, model.IfHealthyBudget, true, model.EvictionAllowed},
		{"ready, no budget left", model.DisruptionStatus{CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3}, model.IfHealthyBudget, true, model.EvictionBudgetExhausted},
		{"ready, AlwaysAllow does not apply", model.DisruptionStatus{CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3}, model.AlwaysAllow, true, model.EvictionBudgetExhausted},
		{"not ready, AlwaysAllow", model.DisruptionStatus{CurrentHealthy: 1, DesiredHealthy: 2, ExpectedPods: 3}, model.AlwaysAllow, false, model.EvictionAllowed},
		{"not ready, IfHealthyBudget, application healthy", model.DisruptionStatus{CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3}, model.IfHealthyBudget, false, model.EvictionAllowed},
		{"not ready, IfHealthyBudget, application disrupted", model.DisruptionStatus{CurrentHealthy: 1, DesiredHealthy: 2, ExpectedPods: 3}, model.IfHealthyBudget, false, model.EvictionBudgetExhausted},
		{"not ready, IfHealthyBudget, desiredHealthy 0", model.DisruptionStatus{CurrentHealthy: 0, DesiredHealthy: 0}, model.IfHealthyBudget, false, model.EvictionBudgetExhausted},
		{"not ready, IfHealthyBudget, disrupted but budget left", model.DisruptionStatus{DisruptionsAllowed: 1, CurrentHealthy: 1, DesiredHealthy: 2, ExpectedPods: 3}, model.IfHealthyBudget, false, model.EvictionAllowed},
	} {
		if got := model.EvictionDecision(tc.st, tc.policy, tc.ready); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestCheckEviction: which pods the Eviction API checks against budgets
// at all, and the budget count rule.
func TestCheckEviction(t *testing.T) {
	u, s := pdbCluster(t, model.PodDisruptionBudget{MinAvailable: minAvailable(3, false)}, []int{3}, 3)
	if ev := u.CheckEviction(s, 0); ev.Outcome != model.EvictionBudgetExhausted || ev.Budget != 0 {
		t.Errorf("running pod under an exhausted budget: %+v", ev)
	}
	for _, ph := range []model.Phase{model.Pending, model.Terminating, model.Failed} {
		s2 := s.Clone()
		s2.Pods[0].Phase = ph
		if ev := u.CheckEviction(s2, 0); ev.Outcome != model.EvictionAllowed || ev.Budget != -1 {
			t.Errorf("%v pod: %+v, want allowed without a budget (canIgnorePDB)", ph, ev)
		}
	}
	u.PDBs = append(u.PDBs, model.PodDisruptionBudget{Name: "second", MinAvailable: minAvailable(0, false), MatchesTemplate: []bool{true}})
	if ev := u.CheckEviction(s, 0); ev.Outcome != model.EvictionMultipleBudgets {
		t.Errorf("two budgets: %+v, want EvictionMultipleBudgets", ev)
	}
	u.PDBs = u.PDBs[1:]
	if ev := u.CheckEviction(s, 0); ev.Outcome != model.EvictionAllowed {
		t.Errorf("one budget allowing 3: %+v", ev)
	}
}

// TestPDBValidation: Compile refuses what the API server refuses.
func TestPDBValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		pdb  model.PodDisruptionBudget
	}{
		{"both set", model.PodDisruptionBudget{MinAvailable: minAvailable(1, false), MaxUnavailable: minAvailable(1, false)}},
		{"negative", model.PodDisruptionBudget{MinAvailable: minAvailable(-1, false)}},
		{"above 100%", model.PodDisruptionBudget{MaxUnavailable: minAvailable(101, true)}},
		{"bad operator", model.PodDisruptionBudget{Selector: &model.Selector{MatchExpressions: []model.Requirement{{Key: "app", Operator: "Is"}}}}},
	} {
		b := build.New()
		b.AddNodes(1, build.Node())
		b.AddTemplate(build.Template("web").Label("app", "web"))
		tc.pdb.Name = "p"
		if tc.pdb.Selector == nil {
			tc.pdb.Selector = &model.Selector{}
		}
		b.U.PDBs = []model.PodDisruptionBudget{tc.pdb}
		if _, _, err := b.Build(0); err == nil {
			t.Errorf("%s: built", tc.name)
		}
	}
}
