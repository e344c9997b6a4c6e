package quotadiff

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	rqadmission "k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	rqapi "k8s.io/apiserver/pkg/admission/plugin/resourcequota/apis/resourcequota"
	quota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	"k8s.io/client-go/tools/cache"
	api "k8s.io/kubernetes/pkg/apis/core"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/quota/v1/evaluator/core"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kivi-go/kivi/fidelity/podspec"
)

// now is the clock of the quota evaluator; a deleted pod's deletion
// timestamp is before it by gracePeriod plus or minus ten seconds.
var now = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

const gracePeriod = 30

// Upstream is the API server's answer for the case's new pod, for every
// order in which its quota lister may list the namespace's quotas (an
// informer cache's index, unordered): the admission error of each
// order, "" when admitted. Invalid reports the quotas whose creation the
// API server refuses (ValidateResourceQuota); they do not exist.
type Upstream struct {
	Refusals []string
	Invalid  []string
}

// Admits reports whether every order admits the pod.
func (u Upstream) Admits() bool { return len(u.Refusals) == 1 && u.Refusals[0] == "" }

// RealRefusals runs the ResourceQuota admission plugin's evaluator
// (NewQuotaEvaluator over a quota accessor that lists the case's quotas
// in a given order) with kube-apiserver's pod evaluator
// (core.NewPodEvaluator) on the creation of the case's new pod, after
// the quota controller's usage calculation (quota.CalculateUsage over
// the existing pods) set each quota's status, for every order of the
// quotas. The pods are defaulted as the API server stores them, with
// the priority admission plugin's priorityClassName.
func RealRefusals(c *Case) (Upstream, error) { return Pipeline{}.RealRefusals(c) }

// Pipeline is how the real side admits a case. The zero Pipeline is the
// API server's; the other settings are wrong pipelines that
// TestPlantedPipelines expects the comparison to catch.
type Pipeline struct {
	// NoPodDefaults skips SetDefaults_Pod (requests from limits).
	NoPodDefaults bool
	// NoUsage leaves the quotas' status.used empty (no quota controller).
	NoUsage bool
	// NoDefaultClass skips the priority admission's globalDefault.
	NoDefaultClass bool
}

// RealRefusals is RealRefusals through pipeline p.
func (p Pipeline) RealRefusals(c *Case) (Upstream, error) {
	var up Upstream
	clock := clocktesting.NewFakeClock(now)
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for i, ep := range c.Pods {
		pod := p.v1Pod(c, ep.Spec, fmt.Sprintf("p%d", i))
		pod.Status.Phase = corev1.PodPhase(ep.Phase)
		if ep.Deleted {
			at := now.Add(-(gracePeriod + 10) * time.Second)
			if ep.WithinGrace {
				at = now.Add(-(gracePeriod - 10) * time.Second)
			}
			ts := metav1.NewTime(at)
			grace := int64(gracePeriod)
			pod.DeletionTimestamp, pod.DeletionGracePeriodSeconds = &ts, &grace
		}
		if err := indexer.Add(pod); err != nil {
			return up, err
		}
	}
	listers := func(gvr schema.GroupVersionResource) (cache.GenericLister, error) {
		return cache.NewGenericLister(indexer, gvr.GroupResource()), nil
	}
	evaluator := core.NewPodEvaluator(listers, clock)
	registry := generic.NewRegistry([]quota.Evaluator{evaluator})

	var quotas []corev1.ResourceQuota
	for _, q := range c.Quotas {
		rq, why := v1Quota(q)
		if why != "" {
			up.Invalid = append(up.Invalid, q.Name+": "+why)
			continue
		}
		used, err := quota.CalculateUsage(Namespace, rq.Spec.Scopes, rq.Spec.Hard, registry, rq.Spec.ScopeSelector)
		if err != nil {
			return up, err
		}
		rq.Status.Hard = rq.Spec.Hard
		rq.Status.Used = quota.Mask(used, quota.ResourceNames(rq.Spec.Hard))
		if p.NoUsage {
			rq.Status.Used = corev1.ResourceList{}
			for name := range rq.Spec.Hard {
				rq.Status.Used[name] = resource.Quantity{}
			}
		}
		quotas = append(quotas, *rq)
	}

	newPod := p.v1Pod(c, c.New, "new")
	var in api.Pod
	if err := apiv1.Convert_v1_Pod_To_core_Pod(newPod, &in, nil); err != nil {
		return up, err
	}
	for _, order := range permutations(len(quotas)) {
		ordered := make([]corev1.ResourceQuota, len(order))
		for i, k := range order {
			ordered[i] = *quotas[k].DeepCopy()
		}
		msg, err := admit(ordered, registry, &in)
		if err != nil {
			return up, err
		}
		if !slices.Contains(up.Refusals, msg) {
			up.Refusals = append(up.Refusals, msg)
		}
	}
	slices.Sort(up.Refusals)
	return up, nil
}

// admit runs the plugin's evaluator on the creation of pod with the
// namespace's quotas listed as given; it returns the refusal, without
// the "pods \"new\" is forbidden: " of the Forbidden error.
func admit(quotas []corev1.ResourceQuota, registry quota.Registry, pod *api.Pod) (string, error) {
	stop := make(chan struct{})
	defer close(stop)
	ev := rqadmission.NewQuotaEvaluator(&accessor{quotas: quotas}, nil, registry, nil, &rqapi.Configuration{}, 1, stop)
	a := admission.NewAttributesRecord(pod, nil, api.Kind("Pod").WithVersion("version"), Namespace, pod.Name,
		corev1.SchemeGroupVersion.WithResource("pods"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	err := ev.Evaluate(a)
	if err == nil {
		return "", nil
	}
	var status interface{ Status() metav1.Status }
	if !errors.As(err, &status) || status.Status().Reason != metav1.StatusReasonForbidden {
		return "", fmt.Errorf("upstream: admission: %w", err)
	}
	_, msg, ok := strings.Cut(err.Error(), " is forbidden: ")
	if !ok {
		return "", fmt.Errorf("upstream: admission: %w", err)
	}
	return msg, nil
}

// accessor is a QuotaAccessor over a fixed list of quotas; status
// updates succeed.
type accessor struct{ quotas []corev1.ResourceQuota }

func (a *accessor) UpdateQuotaStatus(*corev1.ResourceQuota) error { return nil }

func (a *accessor) GetQuotas(string) ([]corev1.ResourceQuota, error) { return a.quotas, nil }

// permutations lists every order of n items.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := slices.Insert(slices.Clone(p), i, n-1)
			out = append(out, q)
		}
	}
	return out
}

// v1Quota is quota q as the API server stores it, or why its validation
// refuses it.
func v1Quota(q Quota) (*corev1.ResourceQuota, string) {
	rq := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: q.Name, Namespace: Namespace, ResourceVersion: "1"}}
	rq.Spec.Hard = corev1.ResourceList{}
	for k, v := range q.Hard {
		rq.Spec.Hard[corev1.ResourceName(k)] = resource.MustParse(v)
	}
	for _, s := range q.Scopes {
		rq.Spec.Scopes = append(rq.Spec.Scopes, corev1.ResourceQuotaScope(s))
	}
	if len(q.Selector) > 0 {
		rq.Spec.ScopeSelector = &corev1.ScopeSelector{}
		for _, e := range q.Selector {
			rq.Spec.ScopeSelector.MatchExpressions = append(rq.Spec.ScopeSelector.MatchExpressions, corev1.ScopedResourceSelectorRequirement{
				ScopeName: corev1.ResourceQuotaScope(e.Scope), Operator: corev1.ScopeSelectorOperator(e.Operator), Values: e.Values})
		}
	}
	var in api.ResourceQuota
	if err := apiv1.Convert_v1_ResourceQuota_To_core_ResourceQuota(rq, &in, nil); err != nil {
		panic(err)
	}
	if errs := validation.ValidateResourceQuota(&in); len(errs) > 0 {
		return nil, errs.ToAggregate().Error()
	}
	return rq, ""
}

// v1Pod is a pod of spec i as the API server stores it: defaulted
// (SetObjectDefaults_Pod: a limit without a request is the request),
// with the globalDefault PriorityClass's name when it names none (the
// priority admission plugin).
func (p Pipeline) v1Pod(c *Case, i int, name string) *corev1.Pod {
	s := c.Specs[i]
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, ResourceVersion: "1"}}
	containers := func(prefix string, cs []Container) []corev1.Container {
		var out []corev1.Container
		for i, x := range cs {
			vc := corev1.Container{Name: podspec.Name(prefix, i), Image: "registry.k8s.io/pause",
				Resources: corev1.ResourceRequirements{Requests: resourceList(x.Requests), Limits: resourceList(x.Limits)}}
			if x.Sidecar {
				always := corev1.ContainerRestartPolicyAlways
				vc.RestartPolicy = &always
			}
			out = append(out, vc)
		}
		return out
	}
	pod.Spec.Containers = containers("c", s.Containers)
	pod.Spec.InitContainers = containers("i", s.InitContainers)
	pod.Spec.PriorityClassName = s.PriorityClass
	if pod.Spec.PriorityClassName == "" && c.DefaultClass && !p.NoDefaultClass {
		pod.Spec.PriorityClassName = "low"
	}
	if s.ActiveDeadline != nil {
		v := *s.ActiveDeadline
		pod.Spec.ActiveDeadlineSeconds = &v
		pod.Spec.RestartPolicy = corev1.RestartPolicyNever
	}
	if !p.NoPodDefaults {
		apiv1.SetObjectDefaults_Pod(pod)
	}
	return pod
}

func resourceList(r Resources) corev1.ResourceList {
	if r == nil {
		return nil
	}
	out := corev1.ResourceList{}
	for k, q := range r {
		out[corev1.ResourceName(k)] = resource.MustParse(q)
	}
	return out
}
