package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kivi-go/kivi/model"
)

// TestHPABehavior: spec.behavior is read whole and compiles to the
// model's behavior with the API server's defaults for what it leaves
// out (scale-up: no window, Pods 4 and Percent 100 per 15 s, Max;
// scale-down: the controller's 300 s window, Percent 100 per 15 s, Max),
// without warnings. Without behavior the HPA keeps the legacy
// normalisation (nil).
func TestHPABehavior(t *testing.T) {
	defUp := model.HPAScalingRules{ToleranceNanos: -1, Policies: []model.HPAScalingPolicy{
		{Type: model.PodsPolicy, Value: 4, PeriodSeconds: 15}, {Type: model.PercentPolicy, Value: 100, PeriodSeconds: 15}}}
	defDown := model.HPAScalingRules{StabilizationWindowSeconds: 300, ToleranceNanos: -1,
		Policies: []model.HPAScalingPolicy{{Type: model.PercentPolicy, Value: 100, PeriodSeconds: 15}}}
	with := func(r model.HPAScalingRules, f func(*model.HPAScalingRules)) model.HPAScalingRules {
		r.Policies = append([]model.HPAScalingPolicy(nil), r.Policies...)
		f(&r)
		return r
	}
	tests := []struct {
		name     string
		behavior string // the spec.behavior line, "" for none
		want     *model.HPABehavior
	}{
		{"no behavior: legacy", "", nil},
		{"empty behavior: every default", "behavior: {}", &model.HPABehavior{ScaleUp: defUp, ScaleDown: defDown}},
		{"a scale-down policy only", "behavior: {scaleDown: {policies: [{type: Pods, value: 1, periodSeconds: 60}]}}",
			&model.HPABehavior{ScaleUp: defUp, ScaleDown: with(defDown, func(r *model.HPAScalingRules) {
				r.Policies = []model.HPAScalingPolicy{{Type: model.PodsPolicy, Value: 1, PeriodSeconds: 60}}
			})}},
		{"scale-down disabled, scale-up window", "behavior: {scaleDown: {selectPolicy: Disabled}, scaleUp: {stabilizationWindowSeconds: 60, selectPolicy: Min}}",
			&model.HPABehavior{
				ScaleUp: with(defUp, func(r *model.HPAScalingRules) {
					r.StabilizationWindowSeconds, r.SelectPolicy = 60, model.MinChangePolicy
				}),
				ScaleDown: with(defDown, func(r *model.HPAScalingRules) { r.SelectPolicy = model.DisabledPolicy })}},
		{"scale-down window 0", "behavior: {scaleDown: {stabilizationWindowSeconds: 0}}",
			&model.HPABehavior{ScaleUp: defUp, ScaleDown: with(defDown, func(r *model.HPAScalingRules) { r.StabilizationWindowSeconds = 0 })}},
		{"tolerances as quantities", `behavior: {scaleUp: {tolerance: 50m}, scaleDown: {tolerance: "0.000000001"}}`,
			&model.HPABehavior{
				ScaleUp:   with(defUp, func(r *model.HPAScalingRules) { r.ToleranceNanos = 50_000_000 }),
				ScaleDown: with(defDown, func(r *model.HPAScalingRules) { r.ToleranceNanos = 1 })}},
		{"tolerance rounded up to a nano unit, as the API does", `behavior: {scaleUp: {tolerance: 0.0000000001}}`,
			&model.HPABehavior{ScaleUp: with(defUp, func(r *model.HPAScalingRules) { r.ToleranceNanos = 1 }), ScaleDown: defDown}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := load(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
  `+tc.behavior+"\n")
			h := r.Cluster.Deployments[0].HPA
			if h.ScaleDownStabilizationSyncs != 0 {
				t.Errorf("legacy window %d syncs, want 0", h.ScaleDownStabilizationSyncs)
			}
			var got *model.HPABehavior
			if h.Behavior != nil {
				var err error
				if got, err = h.Behavior.Compile(); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("behavior (-want +got):\n%s", diff)
			}
			for _, w := range r.Warnings {
				t.Errorf("unexpected warning: %s", w)
			}
		})
	}
}
