package hpa

import "testing"

// ready, unready and missing build pod lists with a request of 1000
// milli-units per pod, as Kubernetes' replica_calculator_test.go does
// (its two containers per pod double usage and request alike, which
// leaves every ratio unchanged).
func ready(usages ...int64) []Sample {
	out := make([]Sample, len(usages))
	for i, u := range usages {
		out[i] = Sample{Usage: u, Request: 1000}
	}
	return out
}

func requests(rs ...int64) []Sample {
	out := make([]Sample, len(rs))
	for i, r := range rs {
		out[i] = Sample{Request: r}
	}
	return out
}

// TestUtilizationReplicas transcribes
// k8s.io/kubernetes@v1.36.3 pkg/controller/podautoscaler/replica_calculator_test.go
// (test names cited) plus Kivi's conformance vector.
func TestUtilizationReplicas(t *testing.T) {
	tests := []struct {
		name        string
		current     int
		target      int64
		tol         Tolerance
		pods        Pods
		want        int
		wantUsage   int64
		wantInvalid bool
	}{
		{name: "Kivi's conformance vector C3, usage +2", current: 5, target: 91, tol: Symmetric(10),
			pods: Pods{Ready: []Sample{{10, 8}, {8, 8}, {8, 8}, {8, 8}, {8, 8}}}, want: 6, wantUsage: 105},
		{name: "Kivi's conformance vector C3, usage +1", current: 5, target: 91, tol: Symmetric(10),
			pods: Pods{Ready: []Sample{{9, 8}, {8, 8}, {8, 8}, {8, 8}, {8, 8}}}, want: 6, wantUsage: 102},
		{name: "Kivi's conformance vector C3, no change (within tolerance)", current: 5, target: 91, tol: Symmetric(10),
			pods: Pods{Ready: []Sample{{8, 8}, {8, 8}, {8, 8}, {8, 8}, {8, 8}}}, want: 5, wantUsage: 100},
		{name: "TestReplicaCalcScaleUp", current: 3, target: 30, tol: Symmetric(10),
			pods: Pods{Ready: ready(300, 500, 700)}, want: 5, wantUsage: 50},
		{name: "TestReplicaCalcScaleUpUnreadyLessScale", current: 3, target: 30, tol: Symmetric(10),
			pods: Pods{Ready: ready(500, 700), Unready: requests(1000)}, want: 4, wantUsage: 60},
		{name: "TestReplicaCalcScaleUpUnreadyNoScale", current: 3, target: 30, tol: Symmetric(10),
			pods: Pods{Ready: ready(400), Unready: requests(1000, 1000)}, want: 3, wantUsage: 40},
		{name: "TestReplicaCalcScaleDown", current: 5, target: 50, tol: Symmetric(10),
			pods: Pods{Ready: ready(100, 300, 500, 250, 250)}, want: 3, wantUsage: 28},
		{name: "TestReplicaCalcScaleDownExcludeUnreadyPods", current: 5, target: 50, tol: Symmetric(10),
			pods: Pods{Ready: ready(100, 300, 500), Unready: requests(1000, 1000)}, want: 2, wantUsage: 30},
		{name: "TestReplicaCalcScaleDownExcludeUnscheduledPods", current: 5, target: 50, tol: Symmetric(10),
			pods: Pods{Ready: ready(100), Unready: requests(1000, 1000, 1000, 1000)}, want: 1, wantUsage: 10},
		{name: "TestReplicaCalcScaleDownIgnoresDeletionPods (deleting pods are not listed)", current: 5, target: 50,
			tol: Symmetric(10), pods: Pods{Ready: ready(100, 300, 500, 250, 250)}, want: 3, wantUsage: 28},
		{name: "TestReplicaCalcTolerance", current: 3, target: 100, tol: Symmetric(10),
			pods: Pods{Ready: []Sample{{1010, 900}, {1030, 1000}, {1020, 1100}}}, want: 3, wantUsage: 102},
		{name: "TestReplicaCalcConfigurableTolerance/Outside of a 0% tolerance", current: 3, target: 100,
			tol: Tolerance{0.0 / 100, 0.0 / 100}, pods: Pods{Ready: []Sample{{909, 900}, {1010, 1000}, {1111, 1100}}}, want: 4, wantUsage: 101},
		{name: "TestReplicaCalcConfigurableTolerance/Within a 200% scale-up tolerance", current: 3, target: 100,
			tol: Tolerance{10.0 / 100, 200.0 / 100}, pods: Pods{Ready: []Sample{{1890, 900}, {1910, 1000}, {1900, 1100}}}, want: 3, wantUsage: 190},
		{name: "TestReplicaCalcConfigurableTolerance/Outside 8% scale-up tolerance", current: 3, target: 100,
			tol: Tolerance{200.0 / 100, 8.0 / 100}, pods: Pods{Ready: []Sample{{1100, 900}, {1080, 1000}, {1090, 1100}}}, want: 4, wantUsage: 109},
		{name: "TestReplicaCalcConfigurableTolerance/Within a 36% scale-down tolerance", current: 3, target: 100,
			tol: Tolerance{36.0 / 100, 10.0 / 100}, pods: Pods{Ready: []Sample{{660, 900}, {640, 1000}, {650, 1100}}}, want: 3, wantUsage: 65},
		{name: "TestReplicaCalcConfigurableTolerance/Outside a 34% scale-down tolerance", current: 3, target: 100,
			tol: Tolerance{34.0 / 100, 10.0 / 100}, pods: Pods{Ready: []Sample{{660, 900}, {640, 1000}, {650, 1100}}}, want: 2, wantUsage: 65},
		{name: "TestReplicaCalcMissingMetrics", current: 4, target: 100, tol: Symmetric(10),
			pods: Pods{Ready: ready(400, 95), Missing: requests(1000, 1000)}, want: 3, wantUsage: 24},
		{name: "TestReplicaCalcMissingMetricsNoChangeEq", current: 2, target: 100, tol: Symmetric(10),
			pods: Pods{Ready: ready(1000), Missing: requests(1000)}, want: 2, wantUsage: 100},
		{name: "TestReplicaCalcMissingMetricsNoChangeGt", current: 2, target: 100, tol: Symmetric(10),
			pods: Pods{Ready: ready(1900), Missing: requests(1000)}, want: 2, wantUsage: 190},
		{name: "TestReplicaCalcMissingMetricsNoChangeLt", current: 2, target: 100, tol: Symmetric(10),
			pods: Pods{Ready: ready(600), Missing: requests(1000)}, want: 2, wantUsage: 60},
		{name: "TestReplicaCalcMissingMetricsUnreadyChange", current: 3, target: 50, tol: Symmetric(10),
			pods: Pods{Ready: ready(450), Unready: requests(1000), Missing: requests(1000)}, want: 3, wantUsage: 45},
		{name: "TestReplicaCalcMissingMetricsUnreadyScaleUp", current: 3, target: 50, tol: Symmetric(10),
			pods: Pods{Ready: ready(2000), Unready: requests(1000), Missing: requests(1000)}, want: 4, wantUsage: 200},
		{name: "TestReplicaCalcMissingMetricsUnreadyScaleDown", current: 4, target: 50, tol: Symmetric(10),
			pods: Pods{Ready: ready(100, 100), Unready: requests(1000), Missing: requests(1000)}, want: 3, wantUsage: 10},
		{name: "TestReplicaCalcMissingMetricsScaleDownTargetOver100", current: 4, target: 300, tol: Symmetric(10),
			pods: Pods{Ready: []Sample{{100, 1000}, {100, 2000}}, Unready: requests(1000), Missing: requests(2000)},
			want: 2, wantUsage: 6},
		{name: "TestReplicaCalcDuringRollingUpdateWithMaxSurge", current: 2, target: 50, tol: Symmetric(10),
			pods: Pods{Ready: ready(100, 100), Missing: requests(1000)}, want: 2, wantUsage: 10},
		{name: "TestReplicaCalcEmptyMetrics (no ready sample)", current: 4, target: 100, tol: Symmetric(10),
			pods: Pods{Unready: requests(1000, 1000)}, wantInvalid: true},
		{name: "TestReplicaCalcEmptyCPURequest (request 0 = missing)", current: 1, target: 100, tol: Symmetric(10),
			pods: Pods{Ready: []Sample{{200, 0}}}, wantInvalid: true},
		{name: "no pods", current: 1, target: 100, tol: Symmetric(10), wantInvalid: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := UtilizationReplicas(tc.current, tc.target, tc.tol, tc.pods)
			if got.Valid == tc.wantInvalid {
				t.Fatalf("valid = %v, want %v", got.Valid, !tc.wantInvalid)
			}
			if tc.wantInvalid {
				return
			}
			if got.Replicas != tc.want || got.Usage != tc.wantUsage {
				t.Errorf("got %d replicas at %d%%, want %d at %d%%", got.Replicas, got.Usage, tc.want, tc.wantUsage)
			}
		})
	}
}

// TestAverageValueReplicas transcribes the podMetric (plain, per-pod
// average) cases of replica_calculator_test.go@v1.36.3. Non-CPU metrics
// skip the CPU readiness checks there, so every listed pod is ready.
func TestAverageValueReplicas(t *testing.T) {
	tests := []struct {
		name      string
		current   int
		target    int64
		pods      Pods
		want      int
		wantUsage int64
	}{
		{"TestReplicaCalcScaleUpCM", 3, 15000, Pods{Ready: ready(20000, 10000, 30000)}, 4, 20000},
		{"TestReplicaCalcScaleUpCMUnreadyHotCpuNoLessScale", 3, 15000, Pods{Ready: ready(50000, 10000, 30000)}, 6, 30000},
		{"TestReplicaCalcScaleUpCMUnreadyHotCpuScaleWouldScaleDown", 3, 15000, Pods{Ready: ready(50000, 15000, 30000)}, 7, 31666},
		{"TestReplicaCalcScaleDownCM", 5, 20000, Pods{Ready: ready(12000, 12000, 12000, 12000, 12000)}, 3, 12000},
		{"TestReplicaCalcToleranceCM", 3, 20000, Pods{Ready: ready(20000, 21000, 21000)}, 3, 20666},
		{"TestPlainMetricReplicaCalcMissingMetricsNoChangeEq", 5, 20000,
			Pods{Ready: ready(20000, 19000, 21000), Missing: requests(0, 0)}, 5, 20000},
		{"TestReplicaCalcDuringRollingUpdateWithMaxSurgeCM", 2, 17000,
			Pods{Ready: ready(10000, 10000), Missing: requests(0)}, 2, 10000},
		// Unready pods at 0 on a scale-up: 3 ready at 30 (target 10)
		// → ratio 3; with 3 unready at 0 the average is 15 → ⌈1.5·6⌉ = 9.
		{"unready pods dampen a scale-up (calcPlainMetricReplicas)", 3, 10,
			Pods{Ready: ready(30, 30, 30), Unready: requests(0, 0, 0)}, 9, 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := AverageValueReplicas(tc.current, tc.target, Symmetric(10), tc.pods)
			if !got.Valid || got.Replicas != tc.want || got.Usage != tc.wantUsage {
				t.Errorf("got %+v, want %d replicas at %d", got, tc.want, tc.wantUsage)
			}
		})
	}
}

// TestEntryCaseCombineNormalize covers reconcileAutoscaler's entry cases,
// computeReplicasForMetrics' invalid-metric rules and the legacy
// normalisation (horizontal.go@v1.36.3; upstream Kubernetes).
func TestEntryCaseCombineNormalize(t *testing.T) {
	b := Bounds{Min: 2, Max: 10}
	entry := []struct {
		current, want int
		decided       bool
	}{{0, 0, true}, {11, 10, true}, {1, 2, true}, {5, 5, false}}
	for _, tc := range entry {
		if got, decided := EntryCase(tc.current, b); got != tc.want || decided != tc.decided {
			t.Errorf("EntryCase(%d) = %d, %v; want %d, %v", tc.current, got, decided, tc.want, tc.decided)
		}
	}
	valid := func(n int) Proposal { return Proposal{Replicas: n, Valid: true} }
	combine := []struct {
		name    string
		current int
		props   []Proposal
		want    int
		ok      bool
	}{
		{"max over metrics", 4, []Proposal{valid(3), valid(6)}, 6, true},
		{"all invalid", 4, []Proposal{{}, {}}, 0, false},
		{"some invalid, scale-down refused", 4, []Proposal{valid(2), {}}, 0, false},
		{"some invalid, scale-up allowed", 4, []Proposal{{}, valid(7)}, 7, true},
	}
	for _, tc := range combine {
		if got, ok := CombineProposals(tc.current, tc.props); got != tc.want || ok != tc.ok {
			t.Errorf("%s: got %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	norm := []struct{ current, proposal, want int }{
		{5, 1, 2},   // below min → min
		{5, 30, 10}, // capped by max
		{3, 9, 6},   // scale-up limit 2·3
		{1, 9, 4},   // scale-up limit max(2·1, 4)
		{5, 7, 7},
	}
	for _, tc := range norm {
		if got := Normalize(tc.current, tc.proposal, b); got != tc.want {
			t.Errorf("Normalize(%d, %d) = %d, want %d", tc.current, tc.proposal, got, tc.want)
		}
	}
}
