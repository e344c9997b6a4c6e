package model_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestDisruptionJobHasNoScale: a budget that needs the scale of a Job's
// pods (maxUnavailable, or a percentage minAvailable) fails its sync, as
// the disruption controller's getScaleController does for an owner
// without a scale subresource, and allows no disruption; an integer
// minAvailable counts the Job's pods.
func TestDisruptionJobHasNoScale(t *testing.T) {
	for _, tc := range []struct {
		name         string
		pdb          model.PodDisruptionBudget
		selectorApp  string
		want         model.DisruptionStatus
		wantEviction model.EvictionOutcome
	}{
		{"maxUnavailable over a Job", model.PodDisruptionBudget{MaxUnavailable: minAvailable(1, false)}, "batch",
			model.DisruptionStatus{SyncFailed: true}, model.EvictionBudgetExhausted},
		{"percentage minAvailable over a Job", model.PodDisruptionBudget{MinAvailable: minAvailable(50, true)}, "batch",
			model.DisruptionStatus{SyncFailed: true}, model.EvictionBudgetExhausted},
		{"integer minAvailable over a Job", model.PodDisruptionBudget{MinAvailable: minAvailable(1, false)}, "batch",
			model.DisruptionStatus{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2, DisruptionsAllowed: 1}, model.EvictionAllowed},
		{"maxUnavailable over a Job and a Deployment", model.PodDisruptionBudget{MaxUnavailable: minAvailable(1, false)}, "",
			model.DisruptionStatus{SyncFailed: true}, model.EvictionBudgetExhausted},
		{"maxUnavailable over a Deployment only", model.PodDisruptionBudget{MaxUnavailable: minAvailable(1, false)}, "web",
			model.DisruptionStatus{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2, DisruptionsAllowed: 1}, model.EvictionAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node())
			job := b.AddJob("batch", b.AddTemplate(build.Template("batch").Requests(1, 1).Label("app", "batch").Label("tier", "t")), 2)
			web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(1, 1).Label("app", "web").Label("tier", "t")), 2)
			b.RunPod(job, 0).RunPod(job, 0).RunPod(web, 0).RunPod(web, 0)
			pdb := tc.pdb
			pdb.Name = "pdb"
			pdb.Selector = &model.Selector{MatchLabels: map[string]string{"tier": "t"}}
			if tc.selectorApp != "" {
				pdb.Selector = &model.Selector{MatchLabels: map[string]string{"app": tc.selectorApp}}
			}
			b.U.PDBs = []model.PodDisruptionBudget{pdb}
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			if got := u.Disruption(s, 0); got != tc.want {
				t.Errorf("status %+v, want %+v", got, tc.want)
			}
			pod := 0
			if tc.selectorApp == "web" {
				pod = 2
			}
			ev := u.CheckEviction(s, pod)
			if ev.Outcome != tc.wantEviction {
				t.Errorf("eviction of pod %d: %d (%s), want %d", pod, ev.Outcome, ev.Reason(u), tc.wantEviction)
			}
			// A pod that is not Ready goes by the unhealthy-pod policy:
			// the failed sync's zero counts never let it go under
			// IfHealthyBudget, AlwaysAllow always does.
			s.Pods[pod].Readiness = model.PodNotReady
			if ev := u.CheckEviction(s, pod); tc.want.SyncFailed && ev.Outcome != model.EvictionBudgetExhausted {
				t.Errorf("not Ready under IfHealthyBudget: %d, want refused", ev.Outcome)
			}
			u.PDBs[0].UnhealthyPodEvictionPolicy = model.AlwaysAllow
			if ev := u.CheckEviction(s, pod); ev.Outcome != model.EvictionAllowed {
				t.Errorf("not Ready under AlwaysAllow: %d, want allowed", ev.Outcome)
			}
		})
	}
}
