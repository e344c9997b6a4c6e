package model

import (
	"fmt"
	"testing"
)

// TestUpstreamGetMinTolerationTime: k8s.io/kubernetes@v1.36.3,
// pkg/controller/tainteviction/taint_eviction_test.go TestGetMinTolerationTime.
// Each row lists the tolerations processPodOnNode uses; here each
// tolerates a NoExecute taint of its own, so noExecuteToleration reads the
// same list. Upstream's -1 (no tolerationSeconds) is NotEvicted, a
// positive duration EvictedLater after it. Its first row, an empty list,
// is left out: with no toleration used there is no NoExecute taint, which
// processPodOnNode handles before it asks (no eviction).
func TestUpstreamGetMinTolerationTime(t *testing.T) {
	for i, tc := range []struct {
		seconds []*int64
		want    NoExecuteToleration
	}{
		{[]*int64{nil}, NoExecuteToleration{}},
		{[]*int64{secs(1), secs(2)}, NoExecuteToleration{Eviction: EvictedLater, Seconds: 1}},
		{[]*int64{secs(1), nil}, NoExecuteToleration{Eviction: EvictedLater, Seconds: 1}},
		{[]*int64{nil, secs(1)}, NoExecuteToleration{Eviction: EvictedLater, Seconds: 1}},
	} {
		t.Run(fmt.Sprintf("row %d", i+1), func(t *testing.T) {
			var taints []Taint
			var tols []Toleration
			for k, sec := range tc.seconds {
				key := fmt.Sprintf("taint-%d", k)
				taints = append(taints, Taint{Key: key, Effect: NoExecute})
				tols = append(tols, Toleration{Key: key, Operator: "Exists", Effect: NoExecute, TolerationSeconds: sec})
			}
			if got := noExecuteToleration(taints, tols); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestUpstreamFilterNoExecuteTaints: k8s.io/kubernetes@v1.36.3,
// pkg/controller/tainteviction/taint_eviction_test.go TestFilterNoExecuteTaints:
// of the taints one=one:NoExecute and two=two:NoSchedule only the first
// counts, so a pod tolerating it alone is not evicted, and one tolerating
// only the second is, at once.
func TestUpstreamFilterNoExecuteTaints(t *testing.T) {
	taints := []Taint{{Key: "one", Value: "one", Effect: NoExecute}, {Key: "two", Value: "two", Effect: NoSchedule}}
	one := []Toleration{{Key: "one", Operator: "Equal", Value: "one", Effect: NoExecute}}
	two := []Toleration{{Key: "two", Operator: "Equal", Value: "two", Effect: NoSchedule}}
	if got := noExecuteToleration(taints, one); got.Evicted() {
		t.Errorf("tolerating the NoExecute taint: %+v, want not evicted", got)
	}
	if got := noExecuteToleration(taints, two); got.Eviction != EvictedAtOnce {
		t.Errorf("tolerating the NoSchedule taint only: %+v, want EvictedAtOnce", got)
	}
}
