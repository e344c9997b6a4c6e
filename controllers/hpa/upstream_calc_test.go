package hpa

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestUpstreamReplicaCalcMore: rows of k8s.io/kubernetes@v1.36.3
// pkg/controller/podautoscaler/replica_calculator_test.go not in
// TestUtilizationReplicas, restated on the pure calculator (requests of
// 1000, as there). Not restated, and why:
// TestReplicaCalcScaleUpHotCpuLessScale, TestReplicaCalcScaleUpContainerHotCpuLessScale,
// TestReplicaCalcScaleDownIgnoreHotCpuPods, TestReplicaCalcScaleDownContainerIgnoreHotCpuPods,
// TestReplicaCalcMissingMetricsHotCpuNoChange: a Ready pod whose metric
// window began before its Ready transition (docs/divergences.md, "Pod
// lifecycle and kubelet", readiness (b)); the Container* rows and
// TestReplicaCalcScaleDownIgnoresDeletionPods_StillRunning: a
// ContainerResource metric on one of two containers, whose value the model
// does not keep (TestMetricOptions covers that calculator);
// TestReplicaCalcScaleUpOverflow, TestExternalPerPodMetricReplicaOverflow,
// TestExternalPerPodMetricUsageOverflow, TestReplicaCalcExternalMetricUsageOverflow:
// counts above maxReplicas are one class in the model (metricOptions);
// the CM, Object and External rows: metrics outside the model
// (TestUpstreamHorizontalUnknownMetrics has the controller's);
// TestCalculateRequests, TestCalculatePodRequestsFromContainers_NonExistentContainer:
// requests are read by the manifest reader (model.PodTemplate.MetricRequest,
// MissingMetricRequest; hpa_metricrequest_test.go, hpa_missingrequest_test.go).
func TestUpstreamReplicaCalcMore(t *testing.T) {
	for _, tc := range []struct {
		name        string
		current     int
		target      int64
		pods        Pods
		want        int
		wantUsage   int64
		wantInvalid bool
	}{
		{name: "TestReplicaCalcScaleHotCpuNoScale (the hot pods are not Ready)", current: 3, target: 30,
			pods: Pods{Ready: ready(400), Unready: requests(1000, 1000)}, want: 3, wantUsage: 40},
		{name: "TestReplicaCalcScaleUpIgnoresFailedPods", current: 2, target: 30,
			pods: Pods{Ready: ready(500, 700)}, want: 4, wantUsage: 60},
		{name: "TestReplicaCalcScaleUpIgnoresDeletionPods", current: 2, target: 30,
			pods: Pods{Ready: ready(500, 700)}, want: 4, wantUsage: 60},
		{name: "TestReplicaCalcScaleDownIgnoresFailedPods", current: 5, target: 50,
			pods: Pods{Ready: ready(100, 300, 500, 250, 250)}, want: 3, wantUsage: 28},
		{name: "TestReplicaCalcSuperfluousMetrics (samples of pods not listed are not read)", current: 4, target: 100,
			pods: Pods{Ready: ready(4000, 9500, 3000, 7000)}, want: 24, wantUsage: 587},
		{name: "TestReplicaCalcMissingMetricsHotCpuScaleUp (the hot pod is not Ready)", current: 3, target: 50,
			pods: Pods{Ready: ready(2000), Unready: requests(1000), Missing: requests(1000)}, want: 4, wantUsage: 200},
		{name: "TestReplicaCalcDisjointResourcesMetrics (the only sample names no listed pod)", current: 1, target: 100,
			pods: Pods{Missing: requests(1000)}, wantInvalid: true},
		{name: "TestReplicaCalcComputedToleranceAlgImplementation/scale-down", current: 10, target: 56,
			pods: Pods{Ready: []Sample{{150, 400}, {150, 200}, {150, 310}, {150, 290}, {150, 302}, {150, 298}, {150, 301}, {150, 299}, {150, 300}, {150, 300}}},
			want: 9, wantUsage: 50},
		{name: "TestReplicaCalcComputedToleranceAlgImplementation/within tolerance", current: 10, target: 55,
			pods: Pods{Ready: []Sample{{150, 400}, {150, 200}, {150, 310}, {150, 290}, {150, 302}, {150, 298}, {150, 301}, {150, 299}, {150, 300}, {150, 300}}},
			want: 10, wantUsage: 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := UtilizationReplicas(tc.current, tc.target, Symmetric(10), tc.pods)
			if got.Valid == tc.wantInvalid {
				t.Fatalf("valid = %v, want %v", got.Valid, !tc.wantInvalid)
			}
			if !tc.wantInvalid && (got.Replicas != tc.want || got.Usage != tc.wantUsage) {
				t.Errorf("got %d replicas at %d%%, want %d at %d%%", got.Replicas, got.Usage, tc.want, tc.wantUsage)
			}
		})
	}
}

// TestUpstreamGroupPods: TestGroupPods of replica_calculator_test.go on
// the model's state (groupPods). Upstream's pods there are in phase
// Succeeded, which groupPods treats as it treats Running pods: they are
// Running pods here. Not restated: "unready a ready pod without fresh
// metrics during initialization period - CPU" (a Ready pod whose metric
// window began before its Ready transition), "count in an unready pod
// that was ready after initialization period - CPU" and "unready pod that
// has never been ready after initialization period - CPU" (a pod not Ready
// past cpuInitializationPeriod whose Ready condition changed after
// delayOfInitialReadinessStatus: upstream reads its sample); the model has
// no clock and takes every pod not Ready as within its initialisation
// (docs/divergences.md, "Pod lifecycle and kubelet", readiness (b)).
func TestUpstreamGroupPods(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		resource                model.MetricSource
		pods                    []upstreamPod
		ready, unready, missing int
	}{
		{name: "void", resource: model.CPU},
		{name: "count in a ready pod - memory (restated Ready)", resource: model.Memory, pods: podsOf(readyPod, 1), ready: 1},
		{name: "count in a ready pod - memory (restated without a Ready condition: not Ready)", resource: model.Memory, pods: podsOf(notReadyPod, 1), ready: 1},
		{name: "unready a pod without ready condition - CPU", resource: model.CPU, pods: podsOf(notReadyPod, 1), unready: 1},
		{name: "count in a ready pod with fresh metrics during initialization period - CPU", resource: model.CPU, pods: podsOf(readyPod, 1), ready: 1},
		{name: "unready an unready pod during initialization period - CPU", resource: model.CPU, pods: podsOf(notReadyPod, 1), unready: 1},
		{name: "count in a ready pod without fresh metrics after initialization period - CPU", resource: model.CPU, pods: podsOf(readyPod, 1), ready: 1},
		{name: "a missing pod", resource: model.CPU, pods: unsampled(missingPod, 1), missing: 1},
		{name: "several pods", resource: model.CPU, pods: concat(podsOf(notReadyPod, 1), podsOf(readyPod, 1), unsampled(missingPod, 1)),
			ready: 1, unready: 1, missing: 1},
		{name: "pending pods are unreadied", resource: model.CPU, pods: unsampled(pendingPod, 1), unready: 1},
		{name: "ignore pods with deletion timestamps", resource: model.CPU, pods: unsampled(deletingPod, 1)},
		{name: "ignore pods in a failed state", resource: model.CPU, pods: unsampled(failedPod, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := upstreamCluster(t, len(tc.pods), tc.pods)
			got := groupPods(u, s, 0, nil, tc.resource, Pods{})
			if len(got.Ready) != tc.ready || len(got.Unready) != tc.unready || len(got.Missing) != tc.missing {
				t.Errorf("ready %d unready %d missing %d, want %d %d %d",
					len(got.Ready), len(got.Unready), len(got.Missing), tc.ready, tc.unready, tc.missing)
			}
		})
	}
}

// TestUpstreamReplicaCalcUnknownMetrics: the Pods, Object and External
// rows of replica_calculator_test.go (TestReplicaCalc*CM*). The model
// does not know the metric's value, so it explores every count upstream's
// formula yields from some value (metricOptions, capped at 10 here): the
// row's count for its reported value must be among them. The pods are
// Running, Ready unless the row says otherwise. (upstream's podMetric rows
// named External are Pods metrics, as their metricType says.)
func TestUpstreamReplicaCalcUnknownMetrics(t *testing.T) {
	object := func(target model.MetricTarget, v int64) model.Metric {
		return model.Metric{Kind: model.ObjectMetric, Target: target, Value: v}
	}
	external := func(target model.MetricTarget, v int64) model.Metric {
		return model.Metric{Kind: model.ExternalMetric, Target: target, Value: v}
	}
	podsMetric := model.Metric{Kind: model.PodsMetric, Target: model.AverageValue, Value: 4400}
	upTolerance := Tolerance{Down: 0.1, Up: 0.01}
	for _, tc := range []struct {
		name    string
		current int
		pods    []upstreamPod
		metric  model.Metric
		tol     Tolerance
		want    int
	}{
		{"TestReplicaCalcScaleUpCMObject", 3, podsOf(readyPod, 0, 0, 0), object(model.Value, 15000), Symmetric(10), 4},
		{"TestReplicaCalcScaleUpCMPerPodObject", 3, podsOf(readyPod, 0, 0, 0), object(model.AverageValue, 5000), Symmetric(10), 4},
		{"TestReplicaCalcScaleUpCMObjectIgnoresUnreadyPods", 3, concat(podsOf(notReadyPod, 0), podsOf(readyPod, 0), podsOf(notReadyPod, 0)),
			object(model.Value, 10000), Symmetric(10), 5},
		{"TestReplicaCalcScaleUpCMExternal (a Pods metric)", 1, podsOf(readyPod, 0), podsMetric, Symmetric(10), 2},
		{"TestReplicaCalcScaleUpCMExternalIgnoresUnreadyPods", 3, concat(podsOf(notReadyPod, 0), podsOf(readyPod, 0), podsOf(notReadyPod, 0)),
			external(model.Value, 4400), Symmetric(10), 2},
		{"TestReplicaCalcScaleUpCMExternalNoLabels (a Pods metric)", 1, podsOf(readyPod, 0), podsMetric, Symmetric(10), 2},
		{"TestReplicaCalcScaleUpPerPodCMExternal", 3, podsOf(readyPod, 0, 0, 0), external(model.AverageValue, 2150), Symmetric(10), 4},
		{"TestReplicaCalcScaleDownPerPodCMObject", 5, podsOf(readyPod, 0, 0, 0, 0, 0), object(model.AverageValue, 2000), Symmetric(10), 3},
		{"TestReplicaCalcScaleDownCMObject", 5, podsOf(readyPod, 0, 0, 0, 0, 0), object(model.Value, 20000), Symmetric(10), 3},
		{"TestReplicaCalcScaleDownCMExternal", 5, podsOf(readyPod, 0, 0, 0, 0, 0), external(model.Value, 14334), Symmetric(10), 3},
		{"TestReplicaCalcScaleDownPerPodCMExternal", 5, podsOf(readyPod, 0, 0, 0, 0, 0), external(model.AverageValue, 2867), Symmetric(10), 3},
		{"TestReplicaCalcToleranceCMObject", 3, podsOf(readyPod, 0, 0, 0), object(model.Value, 20000), Symmetric(10), 3},
		{"TestReplicaCalcTolerancePerPodCMObject", 4, podsOf(readyPod, 0, 0, 0, 0), object(model.AverageValue, 5000), Symmetric(10), 4},
		{"TestReplicaCalcToleranceCMExternal", 3, podsOf(readyPod, 0, 0, 0), external(model.Value, 8888), Symmetric(10), 3},
		{"TestReplicaCalcTolerancePerPodCMExternal", 3, podsOf(readyPod, 0, 0, 0), external(model.AverageValue, 2900), Symmetric(10), 3},
		{"TestReplicaCalcConfigurableToleranceCMObject", 3, podsOf(readyPod, 0, 0, 0), object(model.Value, 20000), upTolerance, 4},
		{"TestReplicaCalcConfigurableTolerancePerPodCMObject", 4, podsOf(readyPod, 0, 0, 0, 0), object(model.AverageValue, 5000), upTolerance, 5},
		{"TestReplicaCalcConfigurableToleranceCMExternal", 3, podsOf(readyPod, 0, 0, 0), external(model.Value, 8800), upTolerance, 4},
		{"TestReplicaCalcConfigurableTolerancePerPodCMExternal", 3, podsOf(readyPod, 0, 0, 0), external(model.AverageValue, 2800), upTolerance, 4},
		{"TestReplicaCalcConfigurableToleranceCM", 3, podsOf(readyPod, 0, 0, 0),
			model.Metric{Kind: model.PodsMetric, Target: model.AverageValue, Value: 20000}, upTolerance, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s := upstreamCluster(t, tc.current, tc.pods)
			got := metricOptions(nil, s, 0, &tc.metric, tc.current, tc.tol, 10)
			if !got.counts[tc.want] {
				t.Errorf("upstream's %d is not among the model's counts %v", tc.want, got.counts)
			}
		})
	}
}
