package manifest

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// deploymentDecl converts a Deployment with the API server's defaults
// (k8s.io/kubernetes pkg/apis/apps/v1/defaults.go: replicas 1, strategy
// RollingUpdate with maxSurge and maxUnavailable 25 %) and its validation
// (pkg/apis/apps/validation: the selector must match the template's
// labels; maxSurge and maxUnavailable not both 0; maxUnavailable ≤ 100 %;
// no rollingUpdate with Recreate).
func deploymentDecl(o Object, name string, nodes nodeLabels, classes *priorityClassTable, limits *limitRangeTable, warns *[]Warning) (model.DeploymentDecl, model.TemplateDecl, error) {
	d := o.Value.(*Deployment)
	a := o.at()
	dd := model.DeploymentDecl{Name: name, Template: name, Replicas: 1, ReplicasUnset: d.Spec.Replicas == nil}
	if d.Metadata.Name == "" {
		return dd, model.TemplateDecl{}, a.errorf(o.path("metadata.name"), "required (accepted: a Deployment name)")
	}
	if d.Spec.Replicas != nil {
		if *d.Spec.Replicas < 0 {
			return dd, model.TemplateDecl{}, a.errorf(o.path("spec.replicas"), "%d (accepted: an integer ≥ 0)", *d.Spec.Replicas)
		}
		dd.Replicas = int(*d.Spec.Replicas)
	}
	if dd.Replicas > maxReplicas {
		return dd, model.TemplateDecl{}, a.errorf(o.path("spec.replicas"), "%d is too many for the model (accepted: at most %d)", dd.Replicas, maxReplicas)
	}
	err := checkWorkloadSelector(o, d.Spec.Selector, d.Spec.Template.Metadata.Labels)
	if err != nil {
		return dd, model.TemplateDecl{}, err
	}
	if err := checkAlwaysRestart(o, d.Spec.Template.Spec); err != nil {
		return dd, model.TemplateDecl{}, err
	}
	// A paused Deployment gets no ReplicaSet until it is resumed
	// (model/paused.go).
	dd.Paused = d.Spec.Paused != nil && *d.Spec.Paused
	dd.PausedSet = d.Spec.Paused != nil
	switch d.Spec.Strategy.Type {
	case "", "RollingUpdate":
		dd.MaxSurge, dd.MaxUnavailable = "25%", "25%"
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
			if ru.MaxSurge.Set {
				if dd.MaxSurge, err = intOrPercent(a, o.path("spec.strategy.rollingUpdate.maxSurge"), ru.MaxSurge); err != nil {
					return dd, model.TemplateDecl{}, err
				}
			}
			if ru.MaxUnavailable.Set {
				if dd.MaxUnavailable, err = intOrPercent(a, o.path("spec.strategy.rollingUpdate.maxUnavailable"), ru.MaxUnavailable); err != nil {
					return dd, model.TemplateDecl{}, err
				}
			}
		}
		if strings.HasSuffix(dd.MaxUnavailable, "%") && resolveIntOrPercent(dd.MaxUnavailable, 100, false) > 100 {
			return dd, model.TemplateDecl{}, a.errorf(o.path("spec.strategy.rollingUpdate.maxUnavailable"), "%s (accepted: at most 100%%)", dd.MaxUnavailable)
		}
		if isZero(dd.MaxSurge) && isZero(dd.MaxUnavailable) {
			return dd, model.TemplateDecl{}, a.errorf(o.path("spec.strategy.rollingUpdate"), "maxSurge and maxUnavailable are both 0: the rollout could never progress (accepted: at least one > 0)")
		}
	case "Recreate":
		dd.Strategy = "Recreate"
		if d.Spec.Strategy.RollingUpdate != nil {
			return dd, model.TemplateDecl{}, a.errorf(o.path("spec.strategy.rollingUpdate"), "may not be given with type Recreate")
		}
	default:
		return dd, model.TemplateDecl{}, a.errorf(o.path("spec.strategy.type"), "%q (accepted: RollingUpdate, Recreate)", d.Spec.Strategy.Type)
	}
	tc := templateConv{o: o, path: "spec.template", nodes: nodes, warns: warns, classes: classes,
		limits: limits.forNamespace(namespaceOf(d.Metadata.Namespace))}
	td, err := tc.convert(name, d.Spec.Template.Metadata, d.Spec.Template.Spec)
	if err != nil {
		return dd, td, err
	}
	return dd, td, minReadySeconds(o, d.Spec.MinReadySeconds, &td)
}

// maxReplicas is the model's bound on a deployment's replicas: its pod
// slots.
const maxReplicas = model.MaxPodSlots

func isZero(v string) bool { return v == "0" || v == "0%" }

// hpaDecl converts an HPA (autoscaling/v2 or v1) with the API server's
// defaults (pkg/apis/autoscaling/v2/defaults.go: minReplicas 1, no
// metrics = CPU utilisation 80 %) and validation (minReplicas ≥ 1,
// maxReplicas ≥ minReplicas, Resource targets Utilization or
// AverageValue). It returns the target workload, and no HPA when the
// target is of a kind the model does not run (with a warning).
func hpaDecl(o Object, warns *[]Warning) (hpaTarget, *model.HPADecl, error) {
	a := o.at()
	var ref CrossVersionObjectReference
	var minR *int32
	var maxR int32
	h := &model.HPADecl{}
	switch v := o.Value.(type) {
	case *HPAv2:
		ref, minR, maxR = v.Spec.ScaleTargetRef, v.Spec.MinReplicas, v.Spec.MaxReplicas
		for i, m := range v.Spec.Metrics {
			md, ok, err := metricDecl(o, index("spec.metrics", i), m, warns)
			if err != nil {
				return hpaTarget{}, nil, err
			}
			if ok {
				h.Metrics = append(h.Metrics, md)
			}
		}
		if len(v.Spec.Metrics) > 0 && len(h.Metrics) == 0 {
			return hpaTarget{}, nil, a.errorf(o.path("spec.metrics"), "no metric the model can evaluate (accepted: Resource metrics of cpu or memory, ContainerResource, Pods, Object and External metrics)")
		}
		b, err := behaviorDecl(o, v.Spec.Behavior)
		if err != nil {
			return hpaTarget{}, nil, err
		}
		h.Behavior = b
	case *HPAv1:
		ref, minR, maxR = v.Spec.ScaleTargetRef, v.Spec.MinReplicas, v.Spec.MaxReplicas
		if t := v.Spec.TargetCPUUtilizationPercentage; t != nil {
			if *t <= 0 {
				return hpaTarget{}, nil, a.errorf(o.path("spec.targetCPUUtilizationPercentage"), "%d (accepted: a percentage > 0)", *t)
			}
			h.Metrics = []model.MetricDecl{{Resource: "cpu", Type: "Utilization", Target: int64(*t)}}
		}
	}
	if len(h.Metrics) == 0 {
		h.Metrics = []model.MetricDecl{{Resource: "cpu", Type: "Utilization", Target: 80}}
	}
	h.Min = 1
	if minR != nil {
		if *minR < 1 {
			return hpaTarget{}, nil, a.errorf(o.path("spec.minReplicas"), "%d (accepted: an integer ≥ 1)", *minR)
		}
		h.Min = int(*minR)
	}
	if maxR < int32(h.Min) || maxR > maxReplicas {
		return hpaTarget{}, nil, a.errorf(o.path("spec.maxReplicas"), "%d (accepted: minReplicas (%d) ..%d)", maxR, h.Min, maxReplicas)
	}
	h.Max = int(maxR)
	if ref.Kind == "" {
		return hpaTarget{}, nil, a.errorf(o.path("spec.scaleTargetRef.kind"), "required (accepted: Deployment, StatefulSet, or another kind with a scale subresource)")
	}
	group, err := targetGroup(o, ref)
	if err != nil {
		return hpaTarget{}, nil, err
	}
	switch ref.Kind {
	case "Deployment", "StatefulSet":
	case "Job", "CronJob", "DaemonSet", "Pod":
		// The API server takes any kind; the HPA controller then fails
		// to get the target's scale at every sync and scales nothing.
		*warns = append(*warns, a.warning(o.path("spec.scaleTargetRef"), "ignored: a %s has no scale subresource, so the HPA controller never scales %s %q (FailedGetScale)", ref.Kind, ref.Kind, ref.Name))
		return hpaTarget{}, nil, nil
	default:
		// A kind with a scale subresource the model does not run (a
		// ReplicaSet, an Argo Rollout, …): none of its pods are in the
		// model, so the HPA has nothing to scale in it.
		*warns = append(*warns, a.warning(o.path("spec.scaleTargetRef"), "ignored: the HPA scales %s %q, a kind the model does not run (only Deployment and StatefulSet), whose pods are not counted", ref.Kind, ref.Name))
		return hpaTarget{}, nil, nil
	}
	if group != "apps" {
		// The HPA controller maps the target by API group and kind
		// (RESTMappings), finds no Deployment or StatefulSet in another
		// group and scales nothing.
		*warns = append(*warns, a.warning(o.path("spec.scaleTargetRef.apiVersion"), "ignored: the HPA controller finds no %s in API group %s%s, so it never scales %q (FailedGetScale; accepted: apps/v1)", ref.Kind, group, removedNote(ref.Kind, ref.APIVersion), ref.Name))
		return hpaTarget{}, nil, nil
	}
	if ref.Name == "" {
		return hpaTarget{}, nil, a.errorf(o.path("spec.scaleTargetRef.name"), "required (accepted: the name of a Deployment or StatefulSet in the input)")
	}
	return hpaTarget{Kind: ref.Kind, Name: ref.Name}, h, nil
}

// metricDecl converts one autoscaling/v2 metric; ok is false for a
// metric the model cannot evaluate (reported as a warning).
func metricDecl(o Object, path string, m MetricSpec, warns *[]Warning) (model.MetricDecl, bool, error) {
	a := o.at()
	if err := checkMetricSource(o, path, m); err != nil {
		return model.MetricDecl{}, false, err
	}
	if m.Type != "Resource" {
		md, err := otherMetricDecl(o, path, m)
		return md, err == nil, err
	}
	r := m.Resource
	md := model.MetricDecl{Resource: r.Name}
	kind := cpuRequest
	switch r.Name {
	case "cpu":
	case "memory":
		kind = memoryRequest
	default:
		*warns = append(*warns, a.warning(o.path(path+".resource.name"), "ignored: resource %q is not modelled (only cpu and memory)", r.Name))
		return md, false, nil
	}
	tp := path + ".resource.target"
	switch r.Target.Type {
	case "Utilization":
		md.Type = "Utilization"
		if r.Target.AverageUtilization == nil || *r.Target.AverageUtilization <= 0 {
			return md, false, a.errorf(o.path(tp+".averageUtilization"), "required: a percentage > 0 for type Utilization")
		}
		md.Target = int64(*r.Target.AverageUtilization)
	case "AverageValue":
		md.Type = "AverageValue"
		if r.Target.AverageValue == nil {
			return md, false, a.errorf(o.path(tp+".averageValue"), "required: a quantity for type AverageValue")
		}
		v, err := parseResource(a, o.path(tp+".averageValue"), *r.Target.AverageValue, kind)
		if err != nil {
			return md, false, err
		}
		if v <= 0 {
			return md, false, a.errorf(o.path(tp+".averageValue"), "%q (accepted: a quantity > 0)", r.Target.AverageValue.Text)
		}
		md.Target = v
	default:
		return md, false, a.errorf(o.path(tp+".type"), "%q (accepted for Resource metrics: Utilization, AverageValue)", r.Target.Type)
	}
	return md, true, nil
}

// checkWorkloadSelector validates a Deployment's or a StatefulSet's
// spec.selector as the API server does: required, not empty, and
// selecting the pod template's labels.
func checkWorkloadSelector(o Object, selector *LabelSelector, templateLabels map[string]string) error {
	a := o.at()
	if selector == nil {
		return a.errorf(o.path("spec.selector"), "required in apps/v1 (accepted: a label selector matching spec.template.metadata.labels)")
	}
	sel, err := convertSelector(func(field, format string, args ...any) error {
		return a.errorf(o.path(join("spec.selector", field)), format, args...)
	}, selector)
	if err != nil {
		return err
	}
	if sel.MatchLabels == nil && len(sel.MatchExpressions) == 0 {
		return a.errorf(o.path("spec.selector"), "empty: it would select every pod (accepted: a non-empty selector matching spec.template.metadata.labels)")
	}
	if !sel.MatchesLabels(templateLabels) {
		return a.errorf(o.path("spec.selector"), "matches no pod: it does not select the template's labels %v (accepted: a selector matching spec.template.metadata.labels)", templateLabels)
	}
	return nil
}

// checkAlwaysRestart is the API server's rule for the pods of a
// Deployment, a StatefulSet or a DaemonSet: they restart Always (the
// default), never run to completion.
func checkAlwaysRestart(o Object, spec PodSpec) error {
	if rp := spec.RestartPolicy; rp != "" && rp != "Always" {
		return o.at().errorf(o.path("spec.template.spec.restartPolicy"), "%q (accepted: Always, the default; a pod that runs to completion belongs in a Job)", rp)
	}
	return nil
}

// targetGroup is the API group of an HPA's scaleTargetRef, validated as
// the API server v1.36 validates it on creation (ValidateAPIVersion): an
// apiVersion that does not parse, or that names no group (a core
// version, or none), is refused, except for a ReplicationController, the
// one scalable kind of the core group. Only the group is used: the HPA
// controller looks the target up by group and kind, so apps/v1beta1
// reaches the same Deployment as apps/v1.
func targetGroup(o Object, ref CrossVersionObjectReference) (string, error) {
	group, version, ok := strings.Cut(ref.APIVersion, "/")
	if !ok {
		group, version = "", ref.APIVersion
	}
	switch {
	case strings.Contains(version, "/") || ok && (group == "" || version == ""):
		return "", o.at().errorf(o.path("spec.scaleTargetRef.apiVersion"), "%q is not an apiVersion (accepted: GROUP/VERSION, as apps/v1)", ref.APIVersion)
	case group == "" && ref.Kind != "ReplicationController":
		return "", o.at().errorf(o.path("spec.scaleTargetRef.apiVersion"), "%q: the API server refuses a scaleTargetRef whose apiVersion names no API group (accepted: apps/v1 for a Deployment or StatefulSet)", ref.APIVersion)
	}
	return group, nil
}

// sharedTargetWarning is the warning on h, an HPA (object o) of a
// workload that already has first (object prev) and perhaps others: the
// HPA controller finds the workload's pods controlled by several HPAs.
func sharedTargetWarning(o, prev Object, first, h *model.HPADecl, kind, key string) Warning {
	ranges := fmt.Sprintf("%s %d..%d", first.Name, first.Min, first.Max)
	lo, hi := first.Min, first.Max
	for _, b := range first.SharedTarget {
		ranges += fmt.Sprintf(", %s %d..%d", b.Name, max(b.Min, 1), b.Max)
		lo, hi = max(lo, max(b.Min, 1)), min(hi, b.Max)
	}
	ranges += fmt.Sprintf(", %s %d..%d", h.Name, h.Min, h.Max)
	lo, hi = max(lo, h.Min), min(hi, h.Max)
	fight := ""
	if lo > hi {
		fight = "; their ranges do not overlap, so they set the count back and forth for as long as all of them exist"
	}
	return o.at().warning(o.path("spec.scaleTargetRef"), "%s %s is also the target of HPA %s (%s document %d): kube-controller-manager finds its pods controlled by multiple HPAs (AmbiguousSelector, ScalingActive False), so no HPA of it scales on its metrics, and each only moves a count outside its own minReplicas..maxReplicas to that bound (%s)%s; keep one HPA per workload",
		kind, key, first.Name, prev.File, prev.Doc, ranges, fight)
}
