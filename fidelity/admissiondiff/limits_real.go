package admissiondiff

import (
	"fmt"
	"math/big"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	resourcehelper "k8s.io/component-helpers/resource"
	api "k8s.io/kubernetes/pkg/apis/core"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/plugin/pkg/admission/limitranger"
)

// Pipeline is how the real side admits a case. The zero Pipeline is the
// API server's; the other settings are wrong pipelines that
// TestPlantedPipelines expects the comparison to catch.
type Pipeline struct {
	// Order lists the LimitRanges in the order LimitRanger gets them
	// (nil: input order). Upstream's order is the informer cache's.
	Order []int
	// NoPodDefaults skips SetDefaults_Pod (requests from limits).
	NoPodDefaults bool
	// NoItemDefaults skips SetDefaults_LimitRangeItem.
	NoItemDefaults bool
	// NoMutation skips PodMutateLimitFunc.
	NoMutation bool
}

func mustParse(q string) resource.Quantity { return resource.MustParse(q) }

func resourceList(r Resources) v1.ResourceList {
	if r == nil {
		return nil
	}
	out := v1.ResourceList{}
	for k, q := range r {
		out[v1.ResourceName(k)] = mustParse(q)
	}
	return out
}

// v1LimitRange is LimitRange i of c as the API server stores it: its
// items defaulted (SetObjectDefaults_LimitRange, which calls
// SetDefaults_LimitRangeItem), or the reason its validation
// (ValidateLimitRange, on the defaulted object) refuses it.
func (p Pipeline) v1LimitRange(c *LimitCase, i int) (*v1.LimitRange, string) {
	lr := &v1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: limitRangeName(i), Namespace: Namespace}}
	for _, it := range c.LimitRanges[i] {
		lr.Spec.Limits = append(lr.Spec.Limits, v1.LimitRangeItem{Type: v1.LimitType(it.Type),
			Min: resourceList(it.Min), Max: resourceList(it.Max), Default: resourceList(it.Default),
			DefaultRequest: resourceList(it.DefaultRequest), MaxLimitRequestRatio: resourceList(it.MaxLimitRatio)})
	}
	if !p.NoItemDefaults {
		apiv1.SetObjectDefaults_LimitRange(lr)
	}
	var in api.LimitRange
	if err := apiv1.Convert_v1_LimitRange_To_core_LimitRange(lr, &in, nil); err != nil {
		panic(err)
	}
	if errs := validation.ValidateLimitRange(&in); len(errs) > 0 {
		return nil, errs.ToAggregate().Error()
	}
	return lr, ""
}

// v1Pod is the pod the ReplicaSet controller creates from the
// Deployment's template, as the API server decodes it (defaulted).
func (p Pipeline) v1Pod(c *LimitCase) *v1.Pod {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "app-0", Namespace: Namespace}}
	containers := func(prefix string, cs []Container) []v1.Container {
		var out []v1.Container
		for i, x := range cs {
			vc := v1.Container{Name: fmt.Sprintf("%s%d", prefix, i), Image: "registry.k8s.io/pause",
				Resources: v1.ResourceRequirements{Requests: resourceList(x.Requests), Limits: resourceList(x.Limits)}}
			if x.Sidecar {
				always := v1.ContainerRestartPolicyAlways
				vc.RestartPolicy = &always
			}
			out = append(out, vc)
		}
		return out
	}
	pod.Spec.Containers = containers("c", c.Containers)
	pod.Spec.InitContainers = containers("i", c.InitContainers)
	if !p.NoPodDefaults {
		apiv1.SetObjectDefaults_Pod(pod)
	}
	return pod
}

var (
	mebibyte  = big.NewRat(1<<20, 1)
	milliCore = big.NewRat(1, 1000)
)

// RealLimits admits the case's pod as the API server does at creation:
// the LimitRanges as stored (defaulted, validated: an invalid one is
// refused and the case ends there), the pod defaulted (SetDefaults_Pod
// among the pod's defaults), converted to the internal type, then
// LimitRanger's PodMutateLimitFunc for every LimitRange (the mutating
// admission phase), the pod's validation of each container's resources
// (ValidateContainerResourceRequirements: a request above its limit),
// and LimitRanger's PodValidateLimitFunc for every LimitRange (the
// validating phase). The effective request is
// component-helpers' PodRequests on the admitted pod, in millicores and
// MiB rounded up.
func (p Pipeline) RealLimits(c *LimitCase) Verdict {
	order := p.Order
	if order == nil {
		for i := range c.LimitRanges {
			order = append(order, i)
		}
	}
	var ranges []*v1.LimitRange
	for _, i := range order {
		lr, why := p.v1LimitRange(c, i)
		if why != "" {
			return Verdict{LimitRangeRefused: true, Why: limitRangeName(i) + ": " + why}
		}
		ranges = append(ranges, lr)
	}
	if why := templateErrors(c); why != "" {
		return Verdict{DeploymentRefused: true, Why: why}
	}
	var pod api.Pod
	if err := apiv1.Convert_v1_Pod_To_core_Pod(p.v1Pod(c), &pod, nil); err != nil {
		panic(err)
	}
	if !p.NoMutation {
		for _, lr := range ranges {
			if err := limitranger.PodMutateLimitFunc(lr, &pod); err != nil {
				panic(err)
			}
		}
	}
	if errs := resourceErrors(&pod); len(errs) > 0 {
		return Verdict{PodRefused: true, Why: errs.ToAggregate().Error()}
	}
	for _, lr := range ranges {
		if err := limitranger.PodValidateLimitFunc(lr, &pod); err != nil {
			return Verdict{PodRefused: true, Why: lr.Name + ": " + err.Error()}
		}
	}
	var out v1.Pod
	if err := apiv1.Convert_core_Pod_To_v1_Pod(&pod, &out, nil); err != nil {
		panic(err)
	}
	reqs := resourcehelper.PodRequests(&out, resourcehelper.PodResourcesOptions{})
	mem := new(big.Rat).Quo(new(big.Rat).SetInt64(reqs.Memory().Value()), mebibyte)
	mib := new(big.Int).Quo(mem.Num(), mem.Denom())
	if new(big.Rat).SetInt(mib).Cmp(mem) < 0 {
		mib.Add(mib, big.NewInt(1))
	}
	return Verdict{CPU: reqs.Cpu().MilliValue(), Memory: mib.Int64()}
}

// orderMatters reports whether upstream's verdict on c depends on the
// order of its LimitRanges (only two are generated).
func orderMatters(c *LimitCase) bool {
	if len(c.LimitRanges) < 2 {
		return false
	}
	return !Pipeline{}.RealLimits(c).same(Pipeline{Order: []int{1, 0}}.RealLimits(c))
}

// resourceErrors is the API server's validation of the containers'
// resources of pod (ValidateContainerResourceRequirements, which
// ValidatePodCreate and the pod template's validation run).
func resourceErrors(pod *api.Pod) field.ErrorList {
	var errs field.ErrorList
	for i := range pod.Spec.Containers {
		errs = append(errs, validation.ValidateContainerResourceRequirements(&pod.Spec.Containers[i].Resources, nil,
			field.NewPath("spec", "containers").Index(i).Child("resources"), validation.PodValidationOptions{})...)
	}
	for i := range pod.Spec.InitContainers {
		errs = append(errs, validation.ValidateContainerResourceRequirements(&pod.Spec.InitContainers[i].Resources, nil,
			field.NewPath("spec", "initContainers").Index(i).Child("resources"), validation.PodValidationOptions{})...)
	}
	return errs
}

// templateErrors is the validation of the Deployment's pod template's
// container resources as written (a template is not defaulted as a pod
// is: its requests are not taken from its limits), "" when it accepts
// them.
func templateErrors(c *LimitCase) string {
	var pod api.Pod
	if err := apiv1.Convert_v1_Pod_To_core_Pod(Pipeline{NoPodDefaults: true}.v1Pod(c), &pod, nil); err != nil {
		panic(err)
	}
	if errs := resourceErrors(&pod); len(errs) > 0 {
		return "Deployment: " + errs.ToAggregate().Error()
	}
	return ""
}
