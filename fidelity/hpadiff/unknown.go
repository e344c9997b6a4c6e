package hpadiff

import (
	"context"
	"fmt"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"

	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/model"
)

// UnknownCase is one sync of an HPA metric whose value the model does not
// know (a Pods, Object or External metric, or a ContainerResource one on
// a container of the CPU request of the pods): the pods (their usage is
// not read), the spec replicas and the target as a milli-value (a
// percentage for a Utilization target).
type UnknownCase struct {
	Kind             model.MetricKind
	Target           model.MetricTarget
	Value            int64
	Current, Max     int
	TolerancePercent int
	Pods             []Pod
}

func (c UnknownCase) String() string {
	var pods []string
	for _, p := range c.Pods {
		pods = append(pods, p.Kind.String())
	}
	target := map[model.MetricTarget]string{model.Utilization: "Utilization", model.AverageValue: "AverageValue", model.Value: "Value"}[c.Target]
	return fmt.Sprintf("%s %s %dm, current %d, max %d, tolerance %d%%, pods %v", c.Kind, target, c.Value, c.Current, c.Max, c.TolerancePercent, pods)
}

// ModelUnknown is the model's set of counts (capped at Max) and whether
// the metric may fail.
func ModelUnknown(c UnknownCase) ([]bool, bool) {
	_, s := ToModel(&Case{Current: c.Current, Min: 1, Max: c.Max, TargetPercent: 50, TolerancePercent: c.TolerancePercent, Pods: c.Pods})
	m := model.Metric{Kind: c.Kind, Target: c.Target, Value: c.Value, Name: "m", Resource: model.CPU}
	return hpa.MetricRecommendations(nil, s, 0, &m, c.Current, hpa.Symmetric(c.TolerancePercent), c.Max)
}

// valueClient is a custom and external metrics API that reports one
// value: every pod's (the first pod holds the total, the others 0, so
// that every total and every average is some value), the object's, or
// the external metric's.
type valueClient struct {
	metricsClient
	value int64
	pods  []string
}

func (v *valueClient) GetRawMetric(string, string, labels.Selector, labels.Selector) (metricsclient.PodMetricsInfo, time.Time, error) {
	info := metricsclient.PodMetricsInfo{}
	for i, p := range v.pods {
		val := int64(0)
		if i == 0 {
			val = v.value
		}
		info[p] = metricsclient.PodMetric{Value: val, Timestamp: time.Now(), Window: time.Minute}
	}
	return info, time.Now(), nil
}

// GetResourceMetric reports a container's usage the same way (the first
// pod holds the total).
func (v *valueClient) GetResourceMetric(ctx context.Context, r v1.ResourceName, ns string, sel labels.Selector, container string) (metricsclient.PodMetricsInfo, time.Time, error) {
	return v.GetRawMetric("", ns, sel, sel)
}

func (v *valueClient) GetObjectMetric(string, string, *autoscalingv2.CrossVersionObjectReference, labels.Selector) (int64, time.Time, error) {
	return v.value, time.Now(), nil
}

func (v *valueClient) GetExternalMetric(string, string, labels.Selector) ([]int64, time.Time, error) {
	return []int64{v.value}, time.Now(), nil
}

// RealUnknown is upstream's replica calculator for the case's metric
// (GetMetricReplicas, GetObjectMetricReplicas,
// GetObjectPerPodMetricReplicas, GetExternalMetricReplicas,
// GetExternalPerPodMetricReplicas) at every value 0..bound: the counts it
// proposes (capped at Max) and whether some value fails. The first pod
// holds a Pods metric's total, in the order Running pods come first.
func RealUnknown(c UnknownCase, bound int64) ([]bool, bool) {
	pods, _ := ToAPI(&Case{Pods: c.Pods}, time.Now())
	var names []string
	status := 0
	// The first name holds the value: a ready pod if there is one (a CPU
	// metric leaves not-ready pods out), else a not-ready Running one
	// (which a Pods metric reads).
	holder := -1
	for i, p := range c.Pods {
		if p.Kind == Ready || (p.Kind == NotReady && holder < 0) {
			if holder < 0 || c.Pods[holder].Kind != Ready {
				holder = i
			}
		}
	}
	for i, p := range pods {
		if p.DeletionTimestamp == nil {
			status++
		}
		if i == holder {
			names = append([]string{p.Name}, names...)
		} else {
			names = append(names, p.Name)
		}
	}
	counts := make([]bool, c.Max+1)
	fails := false
	client := &valueClient{pods: names}
	calc := podautoscaler.NewReplicaCalculator(client, &podLister{pods}, cpuInitializationPeriod, delayOfInitialReadinessStatus)
	tol := toTolerances(c.TolerancePercent)
	ref := &autoscalingv2.CrossVersionObjectReference{Kind: "Ingress", Name: "main"}
	for a := int64(0); a <= bound; a++ {
		client.value = a
		var r int32
		var err error
		switch {
		case c.Kind == model.ContainerResourceMetric && c.Target == model.AverageValue:
			r, _, _, err = calc.GetRawResourceReplicas(context.Background(), int32(c.Current), c.Value, v1.ResourceCPU, tol, namespace, labels.Everything(), "app")
		case c.Kind == model.ContainerResourceMetric:
			r, _, _, _, err = calc.GetResourceReplicas(context.Background(), int32(c.Current), int32(c.Value), v1.ResourceCPU, tol, namespace, labels.Everything(), "app")
		case c.Kind == model.PodsMetric:
			r, _, _, err = calc.GetMetricReplicas(int32(c.Current), c.Value, "m", tol, namespace, labels.Everything(), labels.Everything())
		case c.Kind == model.ObjectMetric && c.Target == model.Value:
			r, _, _, err = calc.GetObjectMetricReplicas(int32(c.Current), c.Value, "m", tol, namespace, ref, labels.Everything(), labels.Everything())
		case c.Kind == model.ObjectMetric:
			r, _, _, err = calc.GetObjectPerPodMetricReplicas(int32(status), c.Value, "m", tol, namespace, ref, labels.Everything())
		case c.Target == model.Value:
			r, _, _, err = calc.GetExternalMetricReplicas(int32(c.Current), c.Value, "m", tol, namespace, &metav1.LabelSelector{}, labels.Everything())
		default:
			r, _, _, err = calc.GetExternalPerPodMetricReplicas(int32(status), c.Value, "m", tol, namespace, &metav1.LabelSelector{})
		}
		if err != nil {
			fails = true
			continue
		}
		counts[min(max(int(r), 0), c.Max)] = true
	}
	return counts, fails
}
