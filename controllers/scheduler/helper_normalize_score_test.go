package scheduler

import (
	"fmt"
	"slices"
	"testing"
)

// TestDefaultNormalizeScore transcribes TestDefaultNormalizeScore
// (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/helper/normalize_score_test.go) on
// defaultNormalize, which TaintToleration and NodeAffinity normalise
// with.
func TestDefaultNormalizeScore(t *testing.T) {
	for i, tc := range []struct {
		reverse      bool
		scores, want []int64
	}{
		{false, []int64{1, 2, 3, 4}, []int64{25, 50, 75, 100}},
		{true, []int64{1, 2, 3, 4}, []int64{75, 50, 25, 0}},
		{false, []int64{1000, 10, 20, 30}, []int64{100, 1, 2, 3}},
		{true, []int64{1000, 10, 20, 30}, []int64{0, 99, 98, 97}},
		{false, []int64{1, 1, 1, 1}, []int64{100, 100, 100, 100}},
		{false, []int64{1000, 1, 1, 1}, []int64{100, 0, 0, 0}},
		{true, []int64{0, 1, 1, 1}, []int64{100, 0, 0, 0}},
		{false, []int64{0, 0, 0, 0}, []int64{0, 0, 0, 0}},
		{true, []int64{0, 0, 0, 0}, []int64{100, 100, 100, 100}},
	} {
		t.Run(fmt.Sprintf("case_%d", i), func(t *testing.T) {
			got := slices.Clone(tc.scores)
			defaultNormalize(got, tc.reverse)
			if !slices.Equal(got, tc.want) {
				t.Errorf("reverse %v, %v: %v, want %v", tc.reverse, tc.scores, got, tc.want)
			}
		})
	}
}
