package descheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestUnhealthyPodEviction: the Eviction API's handling of a pod that
// is not Ready (pkg/registry/core/pod/storage/eviction.go): AlwaysAllow,
// or IfHealthyBudget while currentHealthy ≥ desiredHealthy > 0, deletes
// it without looking at disruptionsAllowed and without using one;
// otherwise it needs and uses a disruption like a Ready pod, and the
// disruption stays used although the pod never counted as healthy.
// Pod 1 is Running but not Ready (a readiness probe), pod 2 Ready;
// PodLifeTime evicts Running pods in an unknown order.
func TestUnhealthyPodEviction(t *testing.T) {
	minAvailable := func(n int) func(*model.PodDisruptionBudget) {
		return func(b *model.PodDisruptionBudget) { b.MinAvailable = &model.IntOrPercent{Value: n} }
	}
	maxUnavailable := func(n int) func(*model.PodDisruptionBudget) {
		return func(b *model.PodDisruptionBudget) { b.MaxUnavailable = &model.IntOrPercent{Value: n} }
	}
	cases := []struct {
		name   string
		budget func(*model.PodDisruptionBudget)
		policy model.UnhealthyPodEvictionPolicy
		want   [][]int
	}{
		{"AlwaysAllow, no disruption allowed", minAvailable(1), model.AlwaysAllow, [][]int{{1}}},
		{"IfHealthyBudget satisfied, no disruption allowed", minAvailable(1), model.IfHealthyBudget, [][]int{{1}}},
		{"IfHealthyBudget not satisfied", minAvailable(2), model.IfHealthyBudget, [][]int{{}}},
		{"AlwaysAllow, budget not satisfied", minAvailable(2), model.AlwaysAllow, [][]int{{1}}},
		// desiredHealthy 0: the unhealthy pod uses the one disruption, or
		// the Ready pod does first.
		{"IfHealthyBudget, desiredHealthy 0", maxUnavailable(2), model.IfHealthyBudget, [][]int{{1}, {2}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node().Name("n1").CPU(4000).Mem(4096))
			b.AddNodes(1, build.Node().Name("n2").CPU(4000).Mem(4096))
			tmpl := b.AddTemplate(build.Template("web").Requests(100, 64).Label("app", "web"))
			b.U.Templates[tmpl].ProbesReadiness = true
			d := b.AddDeployment("web", tmpl, 2)
			b.RunPod(d, 0).RunPod(d, 0)
			pdb := model.PodDisruptionBudget{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}}, UnhealthyPodEvictionPolicy: tc.policy}
			tc.budget(&pdb)
			b.U.PDBs = []model.PodDisruptionBudget{pdb}
			b.U.Descheduler = policy(model.DeschedulerProfile{Name: "lifetime", Deschedule: model.DescheduleConfig{
				Enabled: []model.DeschedulePlugin{model.PodLifeTime}, PodLifeTime: model.PodLifeTimeArgs{States: []string{"Running"}}}})
			u, s := b.MustBuild()
			s.Pods[0].Readiness = model.PodNotReady
			s.Pods[1].Readiness = model.PodAvailable
			got := descheduleOutcomeSets(u, s)
			for i := range got {
				if got[i] == nil {
					got[i] = []int{}
				}
			}
			slices.SortFunc(got, slices.Compare)
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("evicted %v, want %v\n%s", got, tc.want, Explain(u, s))
			}
		})
	}
}
