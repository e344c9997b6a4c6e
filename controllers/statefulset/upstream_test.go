package statefulset

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestUpstreamGetStatefulSetMaxUnavailable: k8s.io/kubernetes@v1.36.3,
// pkg/controller/statefulset/stateful_set_utils_test.go
// TestGetStatefulSetMaxUnavailable. A nil maxUnavailable is the zero
// value here, which resolves as upstream's default of 1.
func TestUpstreamGetStatefulSetMaxUnavailable(t *testing.T) {
	abs := func(v int) model.IntOrPercent { return model.IntOrPercent{Value: v} }
	pct := func(v int) model.IntOrPercent { return model.IntOrPercent{Value: v, Percent: true} }
	for _, tc := range []struct {
		name           string
		maxUnavailable model.IntOrPercent
		replicas, want int
	}{
		{"case 0", model.IntOrPercent{}, 10, 1},
		{"case 1", abs(3), 10, 3},
		{"case 2", abs(3), 0, 3},
		{"case 3", abs(0), 0, 1},
		{"case 4", pct(10), 25, 2},
		{"case 5", pct(100), 5, 5},
		{"case 6", pct(50), 5, 2},
		{"case 7", pct(10), 5, 1},
		{"case 8", pct(1), 0, 1},
		{"case 9", pct(0), 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := model.DeploymentConfig{MaxUnavailable: tc.maxUnavailable}
			if got := cfg.MaxUnavailableOf(tc.replicas); got != tc.want {
				t.Errorf("MaxUnavailableOf(%d) = %d, want %d", tc.replicas, got, tc.want)
			}
		})
	}
}

// TestUpstreamIsRunningAndReady: k8s.io/kubernetes@v1.36.3,
// pkg/controller/statefulset/stateful_set_utils_test.go TestIsRunningAndReady:
// a Pending pod is not running and ready, a Running one without the Ready
// condition is not either, a Running and Ready one is.
func TestUpstreamIsRunningAndReady(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  model.PodState
		want bool
	}{
		{"phase", model.PodState{Phase: model.Pending}, false},
		{"condition", model.PodState{Phase: model.Running, Readiness: model.PodNotReady}, false},
		{"running and ready", model.PodState{Phase: model.Running, Readiness: model.PodAvailable}, true},
	} {
		if got := runningAndReady(&tc.pod); got != tc.want {
			t.Errorf("%s: runningAndReady = %t, want %t", tc.name, got, tc.want)
		}
	}
}
