package hpa

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The tables below restate the rows of Kubernetes' own tests of the HPA
// controller in the model's terms (k8s.io/kubernetes@v1.36.3,
// pkg/controller/podautoscaler/horizontal_test.go). Each row is one
// reconcileAutoscaler: the HPA's bounds, spec.replicas, the pods with
// their Ready condition, phase, deletion timestamp, CPU request and
// reported usage, and the count upstream expects. The pods become the
// model's: a reported pod Ready is Running and Ready, a pod with Ready
// False Running and not Ready (both start times upstream gives such a pod
// make it unready for a CPU metric, as the model does), a Pending pod
// Pending, a Failed pod Failed, a pod with a deletion timestamp
// Terminating, and a pod without a reported usage a Running pod of a
// deleted node (the model's only pod without a sample). Upstream's test
// controller keeps the legacy 5-minute downscale window; a row whose
// recommendations are nil is seeded with the current count at its first
// sync (recordInitialRecommendation), an empty list is not.
//
// Rows of horizontal_test.go not restated, and why:
//   - TestScaleUpHotCpuLessScale, TestScaleDownIgnoreHotCpuPods,
//     TestAvoidUnnecessaryUpdates: a Ready pod started within
//     cpuInitializationPeriod whose metric window began before its Ready
//     transition ("hot CPU") is unready upstream; the model has no metric
//     timestamps and reads a Ready pod's sample (docs/divergences.md,
//     "Pod lifecycle and kubelet", readiness (b)). TestAvoidUnnecessaryUpdates
//     also checks only that the HPA's status is not rewritten.
//   - The HPAScaleToZero=true subtests (TestScaleUpFromZeroCMObject,
//     TestScaleUpFromZeroIgnoresToleranceCMObject,
//     TestScaleUpFromZeroWhenMinReplicasIncreased): the gate is alpha and
//     off by default; the model follows the default (their =false
//     subtests are rows).
//   - The "feature gate is disabled" row of TestConfigurableTolerance:
//     HPAConfigurableTolerance is on by default since v1.35, as modelled.
//   - TestCondition* (but the AmbiguousSelector rows,
//     TestUpstreamAmbiguousSelector), TestEventCreated's event text,
//     TestMultipleHPAs, TestHPARescaleWithSuccessfulConflictRetry,
//     TestReconciliation*, TestBuildQuantity: conditions, events, API
//     conflicts and metrics of the controller itself, which the model
//     does not keep (its API writes succeed: docs/divergences.md,
//     "Model-wide"). The partial-overlap row's second HPA selects some of
//     the target's pods only: a selector overlap between workloads, which
//     the reader records (TestHPASelectorSharedWithAnotherHPA in the
//     repository's root package restates the row in manifests).
//
// Upstream's test sets scaleUpLimitFactor to 8 (horizontal_test.go init);
// no restated row proposes more than the production limit
// max(2·current, 4), the model's, so the factor decides none of them.
//
// Metrics whose values the model does not know (Pods, Object, External,
// and ContainerResource on one of the two containers of upstream's test
// pods) are the environment: the model explores every count upstream's
// formula yields from some value, so their rows check that upstream's
// count is among the outcomes (TestUpstreamHorizontalUnknownMetrics).

// podKind is how a row's pod appears to the model.
type podKind uint8

const (
	readyPod    podKind = iota // Running, Ready, with a sample
	notReadyPod                // Running, Ready condition False
	pendingPod
	failedPod
	deletingPod // a deletion timestamp: Terminating
	missingPod  // Running, Ready, no sample reported
)

type upstreamPod struct {
	kind           podKind
	usage, request int64
}

// upstreamPods are n pods of kind k with request 1000 (upstream's 1.0 CPU)
// and the given usages (one per pod; none for pods without a sample).
func podsOf(k podKind, usages ...int64) []upstreamPod {
	out := make([]upstreamPod, len(usages))
	for i, u := range usages {
		out[i] = upstreamPod{kind: k, usage: u, request: 1000}
	}
	return out
}

func unsampled(k podKind, n int) []upstreamPod {
	out := make([]upstreamPod, n)
	for i := range out {
		out[i] = upstreamPod{kind: k, request: 1000}
	}
	return out
}

// withRequests gives pods their requests in order.
func withRequests(pods []upstreamPod, requests ...int64) []upstreamPod {
	for i := range pods {
		pods[i].request = requests[i]
	}
	return pods
}

func concat(groups ...[]upstreamPod) []upstreamPod {
	var out []upstreamPod
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// upstreamCluster builds deployment 0 at current spec replicas with the
// row's pods: node 0 holds them, node 1 is deleted (its pods have no
// sample). Each distinct request is a template of its own.
func upstreamCluster(t *testing.T, current int, pods []upstreamPod) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node().CPU(1<<20).Mem(1<<20).MaxPods(250))
	b.AddNodes(1, build.Node().CPU(1<<20).Mem(1<<20).MaxPods(250))
	templates := map[int64]int{}
	templateOf := func(request int64) int {
		if tmpl, ok := templates[request]; ok {
			return tmpl
		}
		tmpl := b.AddTemplate(build.Template("app").Requests(request, 8))
		templates[request] = tmpl
		return tmpl
	}
	first := int64(1000)
	if len(pods) > 0 {
		first = pods[0].request
	}
	d := b.AddDeployment("web", templateOf(first), current)
	for _, p := range pods {
		templateOf(p.request)
		b.RunPodCPU(d, 0, p.usage)
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Nodes[1].Status = model.NodeDeleted
	for i, p := range pods {
		ps := &s.Pods[i]
		ps.Template = uint8(templates[p.request])
		switch p.kind {
		case notReadyPod:
			ps.Readiness = model.PodNotReady
		case pendingPod:
			ps.Phase, ps.Node = model.Pending, 0
		case failedPod:
			ps.Phase, ps.Node = model.Failed, 0
		case deletingPod:
			ps.Phase = model.Terminating
		case missingPod:
			ps.Node = 2
		}
	}
	return u, s
}

func cpuUtilization(target int64) model.Metric {
	return model.Metric{Resource: model.CPU, Target: model.Utilization, Value: target}
}

var invalidMetric = model.Metric{Kind: model.InvalidMetric, Name: "CheddarCheese"}

// legacyWindowSyncs is upstream's 5-minute downscale window in the
// model's sync periods: a recommendation of k syncs ago counts iff
// 15·k < 300 (model.Syncs), at the current sync and 19 earlier ones.
var legacyWindowSyncs = model.Syncs(model.DefaultDownscaleStabilizationSeconds) - 1

// TestUpstreamHorizontalSync: the reconcileAutoscaler rows of
// horizontal_test.go with Resource CPU metrics (and invalid metric
// types), without spec.behavior: the entry cases, the replica
// calculator, the 5-minute window and the legacy clamp, through
// Recommend on the model's state.
func TestUpstreamHorizontalSync(t *testing.T) {
	for _, tc := range []struct {
		name            string
		min, max, spec  int
		metrics         []model.Metric
		pods            []upstreamPod
		seed            bool  // recommendations nil: seeded with the current count
		recommendations []int // legacy window, newest first: recommendations[k] was made k syncs ago
		want            int
	}{
		{name: "TestScaleUp", min: 2, max: 6, spec: 3, metrics: []model.Metric{cpuUtilization(30)},
			pods: podsOf(readyPod, 300, 500, 700), seed: true, want: 5},
		{name: "TestScaleUpDeployment (and TestScaleUpReplicaSet: the target's kind does not enter)", min: 2, max: 6, spec: 3,
			metrics: []model.Metric{cpuUtilization(30)}, pods: podsOf(readyPod, 300, 500, 700), seed: true, want: 5},
		{name: "TestScaleUpUnreadyLessScale", min: 2, max: 6, spec: 3, metrics: []model.Metric{cpuUtilization(30)},
			pods: concat(podsOf(notReadyPod, 300), podsOf(readyPod, 500, 700)), seed: true, want: 4},
		{name: "TestScaleUpUnreadyNoScale", min: 2, max: 6, spec: 3, metrics: []model.Metric{cpuUtilization(30)},
			pods: concat(podsOf(readyPod, 400), podsOf(notReadyPod, 500, 700)), seed: true, want: 3},
		{name: "TestScaleUpHotCpuNoScale (the hot pods are not Ready)", min: 2, max: 6, spec: 3, metrics: []model.Metric{cpuUtilization(30)},
			pods: concat(podsOf(readyPod, 400), podsOf(notReadyPod, 500, 700)), seed: true, want: 3},
		{name: "TestScaleUpIgnoresFailedPods", min: 2, max: 6, spec: 2, metrics: []model.Metric{cpuUtilization(30)},
			pods: concat(podsOf(readyPod, 500, 700), unsampled(failedPod, 2)), seed: true, want: 4},
		{name: "TestScaleUpIgnoresDeletionPods", min: 2, max: 6, spec: 2, metrics: []model.Metric{cpuUtilization(30)},
			pods: concat(podsOf(readyPod, 500, 700), unsampled(deletingPod, 2)), seed: true, want: 4},
		{name: "TestScaleDown", min: 2, max: 6, spec: 5, metrics: []model.Metric{cpuUtilization(50)},
			pods: podsOf(readyPod, 100, 300, 500, 250, 250), want: 3},
		{name: "TestScaleUpOneMetricInvalid", min: 2, max: 6, spec: 3, metrics: []model.Metric{cpuUtilization(30), invalidMetric},
			pods: podsOf(readyPod, 300, 400, 500), seed: true, want: 4},
		{name: "TestScaleUpFromZeroOneMetricInvalid (both gate settings)", min: 0, max: 6, spec: 0,
			metrics: []model.Metric{cpuUtilization(30), invalidMetric}, pods: podsOf(readyPod, 300, 400, 500), want: 0},
		{name: "TestScaleUpBothMetricsEmpty", min: 2, max: 6, spec: 3, metrics: []model.Metric{invalidMetric},
			pods: unsampled(missingPod, 3), seed: true, want: 3},
		{name: "TestScaleDownStabilizeInitialSize", min: 2, max: 6, spec: 5, metrics: []model.Metric{cpuUtilization(50)},
			pods: podsOf(readyPod, 100, 300, 500, 250, 250), seed: true, want: 5},
		{name: "TestScaleUpFromZeroCMObject/HPAScaleToZero=false", min: 0, max: 6, spec: 0,
			metrics: []model.Metric{{Kind: model.ObjectMetric, Target: model.Value, Value: 15000}}, seed: true, want: 0},
		{name: "TestScaleUpFromZeroIgnoresToleranceCMObject/HPAScaleToZero=false", min: 0, max: 6, spec: 0,
			metrics: []model.Metric{{Kind: model.ObjectMetric, Target: model.Value, Value: 1000}}, seed: true, want: 0},
		{name: "TestScaleUpFromZeroWithoutCondition (both gate settings)", min: 0, max: 6, spec: 0,
			metrics: []model.Metric{{Kind: model.ObjectMetric, Target: model.Value, Value: 15000}}, seed: true, want: 0},
		{name: "TestScaleUpFromZeroWhenMinReplicasIncreased/HPAScaleToZero=false", min: 2, max: 6, spec: 0,
			metrics: []model.Metric{{Kind: model.ObjectMetric, Target: model.Value, Value: 15000}}, seed: true, want: 0},
		{name: "TestScaledToZeroConditionHandledOnNormalRescale (both gate settings)", min: 1, max: 6, spec: 3,
			metrics: []model.Metric{cpuUtilization(30)}, pods: podsOf(readyPod, 300, 500, 700), seed: true, want: 5},
		{name: "TestManualScaleToZeroDisablesHPA (both gate settings)", min: 1, max: 6, spec: 0,
			metrics: []model.Metric{cpuUtilization(50)}, seed: true, want: 0},
		{name: "TestScaleDownIncludeUnreadyPods", min: 2, max: 6, spec: 5, metrics: []model.Metric{cpuUtilization(50)},
			pods: concat(podsOf(readyPod, 100, 300, 500), podsOf(notReadyPod, 250, 250)), want: 2},
		{name: "TestScaleDownIgnoresFailedPods", min: 2, max: 6, spec: 5, metrics: []model.Metric{cpuUtilization(50)},
			pods: concat(podsOf(readyPod, 100, 300, 500, 250, 250), unsampled(failedPod, 2)), want: 3},
		{name: "TestScaleDownIgnoresDeletionPods", min: 2, max: 6, spec: 5, metrics: []model.Metric{cpuUtilization(50)},
			pods: concat(podsOf(readyPod, 100, 300, 500, 250, 250), unsampled(deletingPod, 2)), want: 3},
		{name: "TestTolerance", min: 1, max: 5, spec: 3, metrics: []model.Metric{cpuUtilization(100)},
			pods: withRequests(podsOf(readyPod, 1010, 1030, 1020), 900, 1000, 1100), seed: true, want: 3},
		{name: "TestMinReplicas", min: 2, max: 5, spec: 3, metrics: []model.Metric{cpuUtilization(90)},
			pods: withRequests(podsOf(readyPod, 10, 95, 10), 900, 1000, 1100), want: 2},
		{name: "TestZeroMinReplicasDesiredZero", min: 0, max: 5, spec: 3, metrics: []model.Metric{cpuUtilization(90)},
			pods: withRequests(podsOf(readyPod, 0, 0, 0), 900, 1000, 1100), want: 0},
		{name: "TestMinReplicasDesiredZero", min: 2, max: 5, spec: 3, metrics: []model.Metric{cpuUtilization(90)},
			pods: withRequests(podsOf(readyPod, 0, 0, 0), 900, 1000, 1100), want: 2},
		{name: "TestZeroReplicas", min: 3, max: 5, spec: 0, metrics: []model.Metric{cpuUtilization(90)}, seed: true, want: 0},
		{name: "TestTooFewReplicas", min: 3, max: 5, spec: 2, metrics: []model.Metric{cpuUtilization(90)}, seed: true, want: 3},
		{name: "TestTooManyReplicas", min: 3, max: 5, spec: 10, metrics: []model.Metric{cpuUtilization(90)}, seed: true, want: 5},
		{name: "TestMaxReplicas", min: 2, max: 5, spec: 3, metrics: []model.Metric{cpuUtilization(90)},
			pods: withRequests(podsOf(readyPod, 8000, 9500, 1000), 900, 1000, 1100), seed: true, want: 5},
		{name: "TestSuperfluousMetrics (the samples of pods that do not exist are not read)", min: 2, max: 6, spec: 4,
			metrics: []model.Metric{cpuUtilization(100)}, pods: podsOf(readyPod, 4000, 9500, 3000, 7000), seed: true, want: 6},
		{name: "TestMissingMetrics", min: 2, max: 6, spec: 4, metrics: []model.Metric{cpuUtilization(100)},
			pods: concat(podsOf(readyPod, 400, 95), unsampled(missingPod, 2)), want: 3},
		{name: "TestEmptyMetrics", min: 2, max: 6, spec: 4, metrics: []model.Metric{cpuUtilization(100)},
			pods: unsampled(missingPod, 4), seed: true, want: 4},
		{name: "TestEmptyCPURequest (no pod is listed)", min: 1, max: 5, spec: 1, metrics: []model.Metric{cpuUtilization(100)},
			seed: true, want: 1},
		{name: "TestEventCreated", min: 1, max: 5, spec: 1, metrics: []model.Metric{cpuUtilization(50)},
			pods: withRequests(podsOf(readyPod, 200), 200), seed: true, want: 2},
		{name: "TestEventNotCreated", min: 1, max: 5, spec: 2, metrics: []model.Metric{cpuUtilization(50)},
			pods: withRequests(podsOf(readyPod, 200, 200), 400, 400), seed: true, want: 2},
		{name: "TestMissingReports", min: 1, max: 5, spec: 4, metrics: []model.Metric{cpuUtilization(50)},
			pods: withRequests(podsOf(readyPod, 200), 200), want: 2},
		{name: "TestMoreReplicasThanSpecNoScale (5 pods at 4 spec replicas)", min: 1, max: 8, spec: 4,
			metrics: []model.Metric{cpuUtilization(50)}, pods: podsOf(readyPod, 500, 500, 500, 500, 500), seed: true, want: 4},
		// 10 min ago is outside the window, 1 min ago (4 syncs) inside it.
		{name: "TestStabilizeDownscale", min: 1, max: 5, spec: 4, metrics: []model.Metric{cpuUtilization(100)},
			pods: withRequests(podsOf(readyPod, 50, 50, 50), 100, 100, 100), recommendations: []int{0, 0, 0, 0, 4}, want: 4},
		// tc1: target 56 %, 50 % used (1500m of 3000m) → ratio 0.893 is out of
		// the tolerance: ⌈8.93⌉ = 9. tc2: target 55 % → ratio 0.909, kept.
		{name: "TestComputedToleranceAlgImplementation/tc1", min: 0, max: 1000, spec: 10, metrics: []model.Metric{cpuUtilization(56)},
			pods: withRequests(podsOf(readyPod, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150),
				400, 200, 310, 290, 302, 298, 301, 299, 300, 300), want: 9},
		{name: "TestComputedToleranceAlgImplementation/tc2", min: 0, max: 1000, spec: 10, metrics: []model.Metric{cpuUtilization(55)},
			pods: withRequests(podsOf(readyPod, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150),
				400, 200, 310, 290, 302, 298, 301, 299, 300, 300), want: 10},
		{name: "TestScaleUpRCImmediately", min: 2, max: 6, spec: 1, metrics: []model.Metric{cpuUtilization(30)},
			pods: podsOf(readyPod, 0, 0, 0, 0), seed: true, want: 2},
		{name: "TestScaleDownRCImmediately", min: 2, max: 5, spec: 6, metrics: []model.Metric{cpuUtilization(50)},
			pods: withRequests(podsOf(readyPod, 8000, 9500, 1000), 900, 1000, 1100), seed: true, want: 5},
		{name: "TestNoScaleDownOneMetricInvalid", min: 2, max: 6, spec: 5, metrics: []model.Metric{cpuUtilization(50), invalidMetric},
			pods: podsOf(readyPod, 100, 300, 500, 250, 250), want: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := upstreamCluster(t, tc.spec, tc.pods)
			spec := &model.HPA{Min: tc.min, Max: tc.max, Metrics: tc.metrics, TolerancePercent: 10}
			win := make([]int16, legacyWindowSyncs+1)
			for k, r := range tc.recommendations {
				win[k] = int16(r)
			}
			if tc.seed {
				Record(win, tc.spec, tc.max)
			}
			if got := Recommend(u, s, 0, spec, tc.spec, win); got.Desired != tc.want {
				t.Errorf("desired replicas %d, want %d (%+v)", got.Desired, tc.want, got)
			}
		})
	}
}

// scalingRules is horizontal_test.go's generateScalingRules: selectPolicy
// Max, the stabilisation window, and a Pods and a Percent policy where
// their values are not 0.
func scalingRules(pods, podsPeriod, percent, percentPeriod, window int) *model.HPAScalingRulesDecl {
	r := &model.HPAScalingRulesDecl{StabilizationWindowSeconds: &window, SelectPolicy: "Max"}
	if pods != 0 {
		r.Policies = append(r.Policies, model.HPAScalingPolicyDecl{Type: "Pods", Value: pods, PeriodSeconds: podsPeriod})
	}
	if percent != 0 {
		r.Policies = append(r.Policies, model.HPAScalingPolicyDecl{Type: "Percent", Value: percent, PeriodSeconds: percentPeriod})
	}
	return r
}

func behaviorOfRules(t *testing.T, up, down *model.HPAScalingRulesDecl) *model.HPABehavior {
	t.Helper()
	b, err := (&model.HPABehaviorDecl{ScaleUp: up, ScaleDown: down}).Compile()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUpstreamHorizontalSyncWithBehavior: the reconcileAutoscaler rows of
// horizontal_test.go whose HPA has spec.behavior (the API server's
// defaults filled in, as the test's SetDefaults_HorizontalPodAutoscalerBehavior
// does), through RecommendWithBehavior; a row with recommendations nil is
// seeded with the current count (recordInitialRecommendation).
func TestUpstreamHorizontalSyncWithBehavior(t *testing.T) {
	one, ninety := 0.01, 0.9
	for _, tc := range []struct {
		name           string
		min, max, spec int
		up, down       *model.HPAScalingRulesDecl
		pods           []upstreamPod
		target         int64
		seed           bool
		want           int
	}{
		{name: "TestScaleDownWithScalingRules", min: 2, max: 6, spec: 5, up: scalingRules(0, 0, 100, 15, 30), target: 50,
			pods: podsOf(readyPod, 100, 300, 500, 250, 250), want: 3},
		{name: "TestConfigurableTolerance/Scaling up because of a 1% configurable tolerance", min: 1, max: 5, spec: 3,
			up: &model.HPAScalingRulesDecl{Tolerance: &one}, target: 100,
			pods: withRequests(podsOf(readyPod, 1010, 1030, 1020), 900, 1000, 1100), seed: true, want: 4},
		{name: "TestConfigurableTolerance/No scale-down because of a 90% configurable tolerance", min: 1, max: 5, spec: 3,
			down: &model.HPAScalingRulesDecl{Tolerance: &ninety}, target: 100,
			pods: podsOf(readyPod, 300, 300, 300), seed: true, want: 3},
		{name: "TestUpscaleCap", min: 1, max: 100, spec: 3, up: scalingRules(0, 0, 700, 60, 0), target: 10,
			pods: withRequests(podsOf(readyPod, 100, 200, 300), 100, 100, 100), seed: true, want: 24},
		{name: "TestUpscaleCapGreaterThanMaxReplicas", min: 1, max: 20, spec: 3, up: scalingRules(0, 0, 700, 60, 0), target: 10,
			pods: withRequests(podsOf(readyPod, 100, 200, 300), 100, 100, 100), seed: true, want: 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := upstreamCluster(t, tc.spec, tc.pods)
			spec := &model.HPA{Min: tc.min, Max: tc.max, Metrics: []model.Metric{cpuUtilization(tc.target)},
				TolerancePercent: 10, Behavior: behaviorOfRules(t, tc.up, tc.down)}
			var mem model.HPAMemory
			if tc.seed && spec.Behavior.HasWindow() {
				RecordRecommendation(spec.Behavior, &mem, tc.spec, Bounds{Min: tc.min, Max: tc.max})
			}
			if got, _ := RecommendWithBehavior(u, s, 0, spec, tc.spec, &mem); got.Desired != tc.want {
				t.Errorf("desired replicas %d, want %d (%+v)", got.Desired, tc.want, got)
			}
		})
	}
}

// TestUpstreamHorizontalUnknownMetrics: the rows of horizontal_test.go
// whose metrics the model does not know (Pods, Object, External;
// ContainerResource on one of upstream's two containers). The model
// explores every count upstream's formula yields from some value, and
// every failure of the metrics API: upstream's count for the reported
// value must be among the outcomes of the sync. Rows whose metrics API
// fails give that outcome exactly (environment{failed}).
func TestUpstreamHorizontalUnknownMetrics(t *testing.T) {
	pods := func(v int64) model.Metric {
		return model.Metric{Kind: model.PodsMetric, Target: model.AverageValue, Value: v}
	}
	object := func(target model.MetricTarget, v int64) model.Metric {
		return model.Metric{Kind: model.ObjectMetric, Target: target, Value: v}
	}
	external := func(target model.MetricTarget, v int64) model.Metric {
		return model.Metric{Kind: model.ExternalMetric, Target: target, Value: v}
	}
	container := func(percent int64) model.Metric {
		return model.Metric{Kind: model.ContainerResourceMetric, Resource: model.CPU, Target: model.Utilization, Value: percent}
	}
	for _, tc := range []struct {
		name           string
		min, max, spec int
		metrics        []model.Metric
		pods           []upstreamPod
		failed         bool // the metrics API fails: exactly this outcome
		want           int
	}{
		{name: "TestScaleUpContainer", min: 2, max: 6, spec: 3, metrics: []model.Metric{container(30)},
			pods: podsOf(readyPod, 300, 500, 700), want: 5},
		{name: "TestScaleUpCM", min: 2, max: 6, spec: 3, metrics: []model.Metric{pods(15000)},
			pods: podsOf(readyPod, 0, 0, 0), want: 4},
		{name: "TestScaleUpCMUnreadyAndHotCpuNoLessScale (a Pods metric reads not-Ready pods)", min: 2, max: 6, spec: 3,
			metrics: []model.Metric{pods(15000)}, pods: concat(podsOf(readyPod, 0, 0), podsOf(notReadyPod, 0)), want: 6},
		{name: "TestScaleUpCMUnreadyandCpuHot", min: 2, max: 6, spec: 3, metrics: []model.Metric{pods(15000)},
			pods: concat(podsOf(notReadyPod, 0), podsOf(readyPod, 0), podsOf(notReadyPod, 0)), want: 6},
		{name: "TestScaleUpHotCpuNoScaleWouldScaleDown", min: 2, max: 6, spec: 3, metrics: []model.Metric{pods(15000)},
			pods: podsOf(readyPod, 0, 0, 0), want: 6},
		{name: "TestScaleUpCMObject", min: 2, max: 6, spec: 3, metrics: []model.Metric{object(model.Value, 15000)},
			pods: podsOf(readyPod, 0, 0, 0), want: 4},
		{name: "TestScaleUpPerPodCMObject", min: 2, max: 6, spec: 3, metrics: []model.Metric{object(model.AverageValue, 10000)},
			pods: podsOf(readyPod, 0, 0, 0), want: 4},
		{name: "TestScaleUpCMExternal", min: 2, max: 6, spec: 3, metrics: []model.Metric{external(model.Value, 6666)},
			pods: podsOf(readyPod, 0, 0, 0), want: 4},
		{name: "TestScaleUpPerPodCMExternal", min: 2, max: 6, spec: 3, metrics: []model.Metric{external(model.AverageValue, 2222)},
			pods: podsOf(readyPod, 0, 0, 0), want: 4},
		{name: "TestScaleDownContainerResource", min: 2, max: 6, spec: 5, metrics: []model.Metric{container(50)},
			pods: podsOf(readyPod, 100, 300, 500, 250, 250), want: 3},
		{name: "TestScaleDownCM", min: 2, max: 6, spec: 5, metrics: []model.Metric{pods(20000)},
			pods: podsOf(readyPod, 0, 0, 0, 0, 0), want: 3},
		{name: "TestScaleDownCMObject", min: 2, max: 6, spec: 5, metrics: []model.Metric{object(model.Value, 20000)},
			pods: podsOf(readyPod, 0, 0, 0, 0, 0), want: 3},
		{name: "TestScaleDownToZeroCMObject (both gate settings)", min: 0, max: 6, spec: 5, metrics: []model.Metric{object(model.Value, 20000)},
			pods: podsOf(readyPod, 0, 0, 0, 0, 0), want: 0},
		{name: "TestScaleDownPerPodCMObject", min: 2, max: 6, spec: 5, metrics: []model.Metric{object(model.AverageValue, 20000)},
			pods: podsOf(readyPod, 0, 0, 0, 0, 0), want: 3},
		{name: "TestScaleDownCMExternal", min: 2, max: 6, spec: 5, metrics: []model.Metric{external(model.Value, 14400)},
			pods: podsOf(readyPod, 0, 0, 0, 0, 0), want: 3},
		{name: "TestScaleDownToZeroCMExternal (both gate settings)", min: 0, max: 6, spec: 5, metrics: []model.Metric{external(model.Value, 14400)},
			pods: podsOf(readyPod, 0, 0, 0, 0, 0), want: 0},
		{name: "TestScaleDownPerPodCMExternal", min: 2, max: 6, spec: 5, metrics: []model.Metric{external(model.AverageValue, 3000)},
			pods: podsOf(readyPod, 0, 0, 0, 0, 0), want: 3},
		{name: "TestToleranceCM", min: 1, max: 5, spec: 3, metrics: []model.Metric{pods(20000)},
			pods: podsOf(readyPod, 0, 0, 0), want: 3},
		{name: "TestToleranceCMObject", min: 1, max: 5, spec: 3, metrics: []model.Metric{object(model.Value, 20000)},
			pods: podsOf(readyPod, 0, 0, 0), want: 3},
		{name: "TestToleranceCMExternal", min: 2, max: 6, spec: 4, metrics: []model.Metric{external(model.Value, 8666)},
			pods: podsOf(readyPod, 0, 0, 0, 0), want: 4},
		{name: "TestTolerancePerPodCMObject", min: 2, max: 6, spec: 4, metrics: []model.Metric{object(model.AverageValue, 2200)},
			pods: podsOf(readyPod, 0, 0, 0, 0), want: 4},
		{name: "TestTolerancePerPodCMExternal", min: 2, max: 6, spec: 4, metrics: []model.Metric{external(model.AverageValue, 2200)},
			pods: podsOf(readyPod, 0, 0, 0, 0), want: 4},
		{name: "TestNoBackoffUpscaleCM", min: 1, max: 5, spec: 3, metrics: []model.Metric{pods(15000)},
			pods: podsOf(readyPod, 0, 0, 0), want: 4},
		{name: "TestNoBackoffUpscaleCMNoBackoffCpu", min: 1, max: 5, spec: 3, metrics: []model.Metric{cpuUtilization(10), pods(15000)},
			pods: podsOf(readyPod, 20000, 10000, 30000), want: 5},
		{name: "TestScaleUpOneMetricEmpty (the external metrics API fails)", min: 2, max: 6, spec: 3,
			metrics: []model.Metric{cpuUtilization(30), external(model.Value, 100)}, pods: podsOf(readyPod, 300, 400, 500),
			failed: true, want: 4},
		{name: "TestNoScaleDownOneMetricEmpty (the external metrics API fails)", min: 2, max: 6, spec: 5,
			metrics: []model.Metric{cpuUtilization(50), external(model.Value, 1000)}, pods: podsOf(readyPod, 100, 300, 500, 250, 250),
			failed: true, want: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := upstreamCluster(t, tc.spec, tc.pods)
			spec := &model.HPA{Min: tc.min, Max: tc.max, Metrics: tc.metrics, TolerancePercent: 10}
			win := make([]int16, legacyWindowSyncs+1) // recommendations: an empty list
			if tc.failed {
				got := recommend(u, s, 0, spec, tc.spec, append([]int16(nil), win...), environment{value: -1, failed: true})
				if got.Desired != tc.want {
					t.Errorf("with the metrics API failing: desired %d, want %d", got.Desired, tc.want)
				}
				return
			}
			var outcomes []int
			for _, env := range environments(s, 0, spec, tc.spec) {
				got := recommend(u, s, 0, spec, tc.spec, append([]int16(nil), win...), env)
				if got.Desired == tc.want {
					return
				}
				outcomes = append(outcomes, got.Desired)
			}
			t.Errorf("upstream's %d replicas is not among the model's outcomes %v", tc.want, outcomes)
		})
	}
}

// TestUpstreamAmbiguousSelector: the AmbiguousSelector rows of
// horizontal_test.go. TestConditionAmbiguousSelectorWhenFullSelectorOverlapBetweenHPAs:
// another HPA (test-hpa-2) selects the same pods, so the sync computes no
// metric and keeps 3 replicas although the pods use far more CPU than
// the target (TestConditionNoAmbiguousSelectorWhenNoSelectorOverlapBetweenHPAs,
// the same pods with a selector that selects none of them, scales to 5:
// TestScaleUp above). test-hpa-2's own bounds are not in the row; any that
// hold 3 replicas leave it so, and so does every sync of either HPA.
func TestUpstreamAmbiguousSelector(t *testing.T) {
	u, s := upstreamCluster(t, 3, podsOf(readyPod, 300, 500, 700))
	u.HPAs = []model.HPA{{Name: "test-hpa", Min: 1, Max: 10, TolerancePercent: model.DefaultTolerance,
		Metrics:   []model.Metric{cpuUtilization(30)}, // not read: the sync computes no metric
		Ambiguous: []model.HPABounds{{Name: "test-hpa", Min: 2, Max: 6}, {Name: "test-hpa-2", Min: 1, Max: 10}}}}
	s.Deps[0].HPA = 1
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	var got []int
	for {
		next := s.Clone()
		reconcile(tx, next, 0)
		got = append(got, int(next.Deps[0].Replicas))
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	if len(got) != 1 || got[0] != 3 {
		t.Errorf("replicas after a sync %v, want [3]", got)
	}
	if boundsMove(u, &s.Deps[0]) {
		t.Errorf("a sync period would move the count")
	}
}
