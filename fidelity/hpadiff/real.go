package hpadiff

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"
	"unsafe"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
)

// The kube-controller-manager defaults of the replica calculator
// (--horizontal-pod-autoscaler-cpu-initialization-period and
// --horizontal-pod-autoscaler-initial-readiness-delay) and the HPA sync
// period the model's window counts in.
const (
	cpuInitializationPeriod       = 5 * time.Minute
	delayOfInitialReadinessStatus = 30 * time.Second
	syncPeriod                    = 15 * time.Second
	namespace                     = "default"
	key                           = "default/web"
)

// normalizeDesiredReplicas is upstream's legacy (spec.behavior unset)
// normalisation: stabilizeRecommendation, then
// convertDesiredReplicasWithRules.
//
//go:linkname normalizeDesiredReplicas k8s.io/kubernetes/pkg/controller/podautoscaler.(*HorizontalController).normalizeDesiredReplicas
func normalizeDesiredReplicas(a *podautoscaler.HorizontalController, hpa *autoscalingv2.HorizontalPodAutoscaler,
	key string, currentReplicas, prenormalizedDesiredReplicas, minReplicas int32) int32

// recordInitialRecommendation seeds the memory with the current count at
// an HPA's first sync.
//
//go:linkname recordInitialRecommendation k8s.io/kubernetes/pkg/controller/podautoscaler.(*HorizontalController).recordInitialRecommendation
func recordInitialRecommendation(a *podautoscaler.HorizontalController, currentReplicas int32, key string)

// tolerances has podautoscaler.Tolerances' layout (unexported fields).
type tolerances struct{ scaleDown, scaleUp float64 }

// checkLayout verifies that podautoscaler.Tolerances is still
// {scaleDown, scaleUp float64}, so that the conversion in toTolerances
// is sound.
func checkLayout() error {
	rt := reflect.TypeFor[podautoscaler.Tolerances]()
	if rt.NumField() != 2 || rt.Field(0).Name != "scaleDown" || rt.Field(1).Name != "scaleUp" ||
		rt.Field(0).Type.Kind() != reflect.Float64 || rt.Field(1).Type.Kind() != reflect.Float64 {
		return fmt.Errorf("podautoscaler.Tolerances changed layout: %v", rt)
	}
	return nil
}

func toTolerances(percent int) podautoscaler.Tolerances {
	t := tolerances{scaleDown: float64(percent) / 100, scaleUp: float64(percent) / 100}
	return *(*podautoscaler.Tolerances)(unsafe.Pointer(&t))
}

// metricsClient is a metrics server that reports the case's samples.
type metricsClient struct{ info metricsclient.PodMetricsInfo }

func (m *metricsClient) GetResourceMetric(context.Context, v1.ResourceName, string, labels.Selector, string) (metricsclient.PodMetricsInfo, time.Time, error) {
	out := make(metricsclient.PodMetricsInfo, len(m.info)) // the calculator writes to it
	for k, v := range m.info {
		out[k] = v
	}
	return out, time.Now(), nil
}

var errUnsupported = errors.New("hpadiff: only resource metrics")

func (m *metricsClient) GetRawMetric(string, string, labels.Selector, labels.Selector) (metricsclient.PodMetricsInfo, time.Time, error) {
	return nil, time.Time{}, errUnsupported
}

func (m *metricsClient) GetObjectMetric(string, string, *autoscalingv2.CrossVersionObjectReference, labels.Selector) (int64, time.Time, error) {
	return 0, time.Time{}, errUnsupported
}

func (m *metricsClient) GetExternalMetric(string, string, labels.Selector) ([]int64, time.Time, error) {
	return nil, time.Time{}, errUnsupported
}

// podLister lists the case's pods (every pod matches the selector).
type podLister struct{ pods []*v1.Pod }

func (l *podLister) List(labels.Selector) ([]*v1.Pod, error)    { return l.pods, nil }
func (l *podLister) Pods(string) corelisters.PodNamespaceLister { return l }
func (l *podLister) Get(name string) (*v1.Pod, error) {
	for _, p := range l.pods {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("pod %s not found", name)
}

// ToAPI is the case's pods and samples as API objects at time now.
func ToAPI(c *Case, now time.Time) ([]*v1.Pod, metricsclient.PodMetricsInfo) {
	started := metav1.NewTime(now.Add(-10 * time.Minute))
	info := metricsclient.PodMetricsInfo{}
	var pods []*v1.Pod
	for i, p := range c.Pods {
		name := fmt.Sprintf("pod-%d", i)
		ctr := v1.Container{Name: "app"}
		if p.Request > 0 {
			ctr.Resources.Requests = v1.ResourceList{v1.ResourceCPU: *resource.NewMilliQuantity(p.Request, resource.DecimalSI)}
		}
		spec := v1.PodSpec{Containers: []v1.Container{ctr}}
		if p.Init > 0 {
			spec.InitContainers = []v1.Container{{Name: "init", Resources: v1.ResourceRequirements{
				Requests: v1.ResourceList{v1.ResourceCPU: *resource.NewMilliQuantity(p.Init, resource.DecimalSI)}}}}
		}
		if p.Overhead > 0 {
			spec.Overhead = v1.ResourceList{v1.ResourceCPU: *resource.NewMilliQuantity(p.Overhead, resource.DecimalSI)}
		}
		pod := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: map[string]string{"app": "web"}},
			Spec:       spec,
			Status: v1.PodStatus{Phase: v1.PodRunning, StartTime: &started, Conditions: []v1.PodCondition{{
				Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: metav1.NewTime(started.Add(10 * time.Second)),
			}}},
		}
		sample := true
		switch p.Kind {
		case Pending:
			pod.Status = v1.PodStatus{Phase: v1.PodPending}
			sample = false
		case Terminating:
			pod.DeletionTimestamp = &metav1.Time{Time: now}
		case NotReady:
			pod.Status.Conditions[0] = v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionFalse, LastTransitionTime: started}
		case NoSample:
			sample = false
		}
		if sample {
			info[name] = metricsclient.PodMetric{Value: p.Usage, Timestamp: now, Window: time.Minute}
		}
		pods = append(pods, pod)
	}
	return pods, info
}

// RealCalc is upstream's ReplicaCalculator.GetResourceReplicas on the case.
func RealCalc(c *Case) (Answer, error) {
	pods, info := ToAPI(c, time.Now())
	calc := podautoscaler.NewReplicaCalculator(&metricsClient{info}, &podLister{pods},
		cpuInitializationPeriod, delayOfInitialReadinessStatus)
	replicas, _, _, _, err := calc.GetResourceReplicas(context.Background(), int32(c.Current), int32(c.TargetPercent),
		v1.ResourceCPU, toTolerances(c.TolerancePercent), namespace, labels.Everything(), "")
	if err != nil {
		return Answer{}, err
	}
	return Answer{Replicas: int(replicas), Valid: true}, nil
}

// controller is a HorizontalController with the case's downscale
// stabilisation window and recommendation memory (unexported fields,
// written through reflect). Recommendations made Age periods ago are
// timestamped just after that sync (Age·15 s − 1 s ago; the current
// period's 1 ms ago), so that a window of W periods keeps ages up to W
// as the model does, without depending on clock jitter at the boundary.
func controller(c *Case, now time.Time) *podautoscaler.HorizontalController {
	hc := &podautoscaler.HorizontalController{}
	rv := reflect.ValueOf(hc).Elem()
	field := func(v reflect.Value, name string) reflect.Value {
		f := v.FieldByName(name)
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	field(rv, "downscaleStabilisationWindow").Set(reflect.ValueOf(time.Duration(c.WindowSyncs) * syncPeriod))
	recs := field(rv, "recommendations")
	recs.Set(reflect.MakeMap(recs.Type()))
	if c.Seen {
		list := reflect.MakeSlice(recs.Type().Elem(), 0, len(c.Recs))
		for _, r := range c.Recs {
			e := reflect.New(recs.Type().Elem().Elem()).Elem()
			field(e, "recommendation").SetInt(int64(r.Replicas))
			at := now.Add(-time.Millisecond)
			if r.Age > 0 {
				at = now.Add(-time.Duration(r.Age)*syncPeriod + time.Second)
			}
			field(e, "timestamp").Set(reflect.ValueOf(at))
			list = reflect.Append(list, e)
		}
		recs.SetMapIndex(reflect.ValueOf(key), list)
	}
	return hc
}

// RealEval is upstream's evaluation of the case: reconcileAutoscaler's
// first-sync record and entry cases (transcribed, for a target without
// the scaled-to-zero condition), GetResourceReplicas, and
// normalizeDesiredReplicas. A metric error leaves the count unchanged.
func RealEval(c *Case) int {
	now := time.Now()
	hc := controller(c, now)
	current := int32(c.Current)
	recordInitialRecommendation(hc, current, key)
	switch {
	case c.Current == 0:
		return 0
	case c.Current > c.Max:
		return c.Max
	case c.Current < c.Min:
		return c.Min
	}
	a, err := RealCalc(c)
	if err != nil {
		return c.Current
	}
	minReplicas := int32(c.Min)
	obj := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: namespace},
		Spec:       autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &minReplicas, MaxReplicas: int32(c.Max)},
	}
	return int(normalizeDesiredReplicas(hc, obj, key, current, int32(a.Replicas), minReplicas))
}
