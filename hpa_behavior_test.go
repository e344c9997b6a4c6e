package kivi_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
)

// TestC1WithBehavior checks case C1 (HPA oscillation, Kivi's case
// definitions: the load falls once, and the replica count goes from the
// maximum to max − 3) with an HPA spec.behavior
// (docs/divergences.md, HPA):
//
//   - scaleDown selectPolicy Disabled: the HPA never scales down, and
//     no_oscillation_replica_num holds where it is violated without
//     behavior;
//   - scaleDown Pods 1 per 60 s and no window: still violated, and the
//     shortest counterexample falls as fast as without behavior. The load
//     drops right after the climb, and upstream's limit counts from the
//     replicas the 60 s period started with: the current count minus the
//     scale-ups of the period (calculateScaleDownLimitWithBehaviors), 6 −
//     4 = 2 here, so one pod less than that is no limit at all. The slower
//     courses, the load dropping after those scale-ups have expired, are
//     explored too (the sync periods pass for them at quiescence;
//     controllers/hpa testdata/behavior-pods.txt shows one). The climb is
//     the default scale-up policy's: 4 → 5 is 4 pods more than the 1 the
//     15 s period started with.
func TestC1WithBehavior(t *testing.T) {
	zero := 0
	tests := []struct {
		name     string
		behavior *model.HPABehaviorDecl
		verdict  checker.Verdict
		rescales []string // of the counterexample
		syncs    int      // "Sync period passed" lines in it
	}{
		{"no behavior", nil, checker.Violated, []string{"1 to 2", "2 to 4", "4 to 6", "6 to 5", "5 to 4", "4 to 3"}, 0},
		{"scale-down disabled", &model.HPABehaviorDecl{ScaleDown: &model.HPAScalingRulesDecl{SelectPolicy: "Disabled"}},
			checker.Holds, nil, 0},
		{"one pod per 60 s", &model.HPABehaviorDecl{ScaleDown: &model.HPAScalingRulesDecl{StabilizationWindowSeconds: &zero,
			Policies: []model.HPAScalingPolicyDecl{{Type: "Pods", Value: 1, PeriodSeconds: 60}}}},
			checker.Violated, []string{"1 to 2", "2 to 4", "4 to 5", "5 to 6", "6 to 5", "5 to 4", "4 to 3"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := cases.Get("c1", 3, false)
			if err != nil {
				t.Fatal(err)
			}
			c.Deployments[0].HPA.Behavior = tc.behavior
			rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1}})
			if err != nil {
				t.Fatal(err)
			}
			r := rep.Result("no_oscillation_replica_num")
			if r == nil || r.Verdict != tc.verdict {
				t.Fatalf("no_oscillation_replica_num = %+v, want %v", r, tc.verdict)
			}
			t.Logf("%d states", rep.Stats.States)
			if tc.verdict != checker.Violated {
				return
			}
			var rescales []string
			syncs := 0
			for _, l := range r.Trace.Lines() {
				if _, rest, ok := strings.Cut(l, "[horizontal-pod-autoscaler] Scaling deployment "); ok {
					_, rest, _ = strings.Cut(rest, " from ")
					rescales = append(rescales, strings.TrimSuffix(rest, " replicas"))
				}
				if strings.Contains(l, "[horizontal-pod-autoscaler] Sync period passed") {
					syncs++
				}
			}
			if !slices.Equal(rescales, tc.rescales) || syncs != tc.syncs {
				t.Errorf("rescales %q with %d syncs, want %q with %d:\n%s", rescales, syncs, tc.rescales, tc.syncs,
					strings.Join(r.Trace.Lines(), "\n"))
			}
		})
	}
}
