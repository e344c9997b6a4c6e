package manifest

import (
	"encoding/json"

	"github.com/kivi-go/kivi/model"
)

// StatefulSet is apps/v1 StatefulSet.
type StatefulSet struct {
	TypeMeta
	Metadata ObjectMeta      `json:"metadata"`
	Spec     StatefulSetSpec `json:"spec"`
	Status   json.RawMessage `json:"status"`
}

// StatefulSetSpec is the part of a StatefulSet's spec the model reads.
type StatefulSetSpec struct {
	Replicas            *int32          `json:"replicas"`
	Selector            *LabelSelector  `json:"selector"`
	Template            PodTemplateSpec `json:"template"`
	PodManagementPolicy string          `json:"podManagementPolicy"`
	UpdateStrategy      struct {
		Type          string `json:"type"`
		RollingUpdate *struct {
			Partition      *int32      `json:"partition"`
			MaxUnavailable IntOrString `json:"maxUnavailable"`
		} `json:"rollingUpdate"`
	} `json:"updateStrategy"`
	Ordinals *struct {
		Start int32 `json:"start"`
	} `json:"ordinals"`
	MinReadySeconds      int32             `json:"minReadySeconds"`
	VolumeClaimTemplates []json.RawMessage `json:"volumeClaimTemplates"`
	ServiceName          string            `json:"serviceName"`
	// PersistentVolumeClaimRetentionPolicy is validated, and warned
	// about when it deletes claims (claimRetention).
	PersistentVolumeClaimRetentionPolicy *struct {
		WhenDeleted string `json:"whenDeleted"`
		WhenScaled  string `json:"whenScaled"`
	} `json:"persistentVolumeClaimRetentionPolicy"`
}

// statefulSetSpecRules: the StatefulSet spec fields the model does not read.
var statefulSetSpecRules = []fieldRule{
	{"revisionHistoryLimit", ""},
}

// claimRetention checks a StatefulSet's persistentVolumeClaimRetentionPolicy
// as the API server validates it (Retain or Delete; empty defaults to
// Retain) and warns when it deletes claims: claims are not modelled. The
// default, Retain and Retain, which `kubectl get` writes on every
// StatefulSet, changes nothing and is quiet.
func claimRetention(o Object, spec StatefulSetSpec, warns *[]Warning) error {
	p := spec.PersistentVolumeClaimRetentionPolicy
	if p == nil {
		return nil
	}
	deletes := false
	for _, f := range []struct{ field, v string }{{"whenDeleted", p.WhenDeleted}, {"whenScaled", p.WhenScaled}} {
		switch f.v {
		case "", "Retain":
		case "Delete":
			deletes = true
		default:
			return o.at().errorf(o.path("spec.persistentVolumeClaimRetentionPolicy."+f.field), "%q (accepted: Retain, Delete)", f.v)
		}
	}
	if deletes {
		*warns = append(*warns, o.at().warning(o.path("spec.persistentVolumeClaimRetentionPolicy"), "ignored: PersistentVolumeClaims are not modelled, nor their deletion"))
	}
	return nil
}

// statefulSetDecl converts a StatefulSet with the API server's defaults
// (pkg/apis/apps/v1/defaults.go: replicas 1, podManagementPolicy
// OrderedReady, updateStrategy RollingUpdate with partition 0) and its
// validation (pkg/apis/apps/validation: the selector must match the
// template's labels; partition ≥ 0; maxUnavailable ≥ 1 or 1..100 %; no
// rollingUpdate with OnDelete; ordinals.start ≥ 0).
func statefulSetDecl(o Object, name string, nodes nodeLabels, classes *priorityClassTable, limits *limitRangeTable, warns *[]Warning) (model.DeploymentDecl, model.TemplateDecl, error) {
	d := o.Value.(*StatefulSet)
	a := o.at()
	dd := model.DeploymentDecl{Name: name, Template: name, Replicas: 1, Kind: "StatefulSet", ReplicasUnset: d.Spec.Replicas == nil}
	fail := func(field, format string, args ...any) (model.DeploymentDecl, model.TemplateDecl, error) {
		return dd, model.TemplateDecl{}, a.errorf(o.path(field), format, args...)
	}
	if d.Metadata.Name == "" {
		return fail("metadata.name", "required (accepted: a StatefulSet name)")
	}
	if d.Spec.Replicas != nil {
		if *d.Spec.Replicas < 0 {
			return fail("spec.replicas", "%d (accepted: an integer ≥ 0)", *d.Spec.Replicas)
		}
		dd.Replicas = int(*d.Spec.Replicas)
	}
	if err := checkWorkloadSelector(o, d.Spec.Selector, d.Spec.Template.Metadata.Labels); err != nil {
		return dd, model.TemplateDecl{}, err
	}
	if err := checkAlwaysRestart(o, d.Spec.Template.Spec); err != nil {
		return dd, model.TemplateDecl{}, err
	}
	if err := claimRetention(o, d.Spec, warns); err != nil {
		return dd, model.TemplateDecl{}, err
	}
	switch p := d.Spec.PodManagementPolicy; p {
	case "", "OrderedReady", "Parallel":
		dd.PodManagementPolicy = p
	default:
		return fail("spec.podManagementPolicy", "%q (accepted: OrderedReady, Parallel)", p)
	}
	us := d.Spec.UpdateStrategy
	switch us.Type {
	case "", "RollingUpdate":
		if ru := us.RollingUpdate; ru != nil {
			if ru.Partition != nil {
				if *ru.Partition < 0 {
					return fail("spec.updateStrategy.rollingUpdate.partition", "%d (accepted: an integer ≥ 0)", *ru.Partition)
				}
				dd.Partition = int(*ru.Partition)
			}
			if ru.MaxUnavailable.Set {
				path := "spec.updateStrategy.rollingUpdate.maxUnavailable"
				v, err := intOrPercent(a, o.path(path), ru.MaxUnavailable)
				if err != nil {
					return dd, model.TemplateDecl{}, err
				}
				if n := resolveIntOrPercent(v, 100, false); isZero(v) || ru.MaxUnavailable.IsStr && n > 100 {
					return fail(path, "%s (accepted: an integer ≥ 1 or a percentage 1%%..100%%)", v)
				}
				dd.MaxUnavailable = v
				*warns = append(*warns, a.warning(o.path(path), "takes effect only with the MaxUnavailableStatefulSet feature gate (beta, off by default in Kubernetes v1.36); the model assumes it is on"))
			}
		}
	case "OnDelete":
		dd.Strategy = "OnDelete"
		if us.RollingUpdate != nil {
			return fail("spec.updateStrategy.rollingUpdate", "may not be given with type OnDelete")
		}
	default:
		return fail("spec.updateStrategy.type", "%q (accepted: RollingUpdate, OnDelete)", us.Type)
	}
	if o := d.Spec.Ordinals; o != nil {
		if o.Start < 0 {
			return fail("spec.ordinals.start", "%d (accepted: an integer ≥ 0)", o.Start)
		}
		dd.OrdinalsStart = int(o.Start)
	}
	if end := dd.OrdinalsStart + dd.Replicas - 1; end > model.MaxOrdinal {
		return fail("spec.replicas", "%d pods from ordinal %d reach ordinal %d, too many for the model (accepted: ordinals up to %d)", dd.Replicas, dd.OrdinalsStart, end, model.MaxOrdinal)
	}
	if len(d.Spec.VolumeClaimTemplates) > 0 {
		*warns = append(*warns, a.warning(o.path("spec.volumeClaimTemplates"), "volume topology is not modelled: the pods are not pinned to their volumes' zones"))
	}
	tc := templateConv{o: o, path: "spec.template", nodes: nodes, warns: warns, classes: classes,
		limits: limits.forNamespace(namespaceOf(d.Metadata.Namespace))}
	td, err := tc.convert(name, d.Spec.Template.Metadata, d.Spec.Template.Spec)
	// The controller gives each pod a claim volume per template.
	td.PVC = td.PVC || len(d.Spec.VolumeClaimTemplates) > 0
	if err != nil {
		return dd, td, err
	}
	return dd, td, minReadySeconds(o, d.Spec.MinReadySeconds, &td)
}

// hpaTarget is an HPA's scaleTargetRef: a Deployment or a StatefulSet.
type hpaTarget struct{ Kind, Name string }

// workloadMeta is the metadata of a workload the model verifies (a
// Deployment, a StatefulSet or a Job); ok is false for any other object.
func workloadMeta(o Object) (ObjectMeta, bool) {
	switch v := o.Value.(type) {
	case *Deployment:
		return v.Metadata, true
	case *StatefulSet:
		return v.Metadata, true
	case *Job:
		return v.Metadata, true
	case *CronJob:
		return v.Metadata, true
	}
	return ObjectMeta{}, false
}

// kindDecl is a DeploymentDecl's Kind for a manifest kind.
func kindDecl(kind string) string {
	if kind == "StatefulSet" || kind == "Job" {
		return kind
	}
	return ""
}

// replicasGiven reports whether a workload's manifest sets spec.replicas.
func replicasGiven(o Object) bool {
	switch v := o.Value.(type) {
	case *Deployment:
		return v.Spec.Replicas != nil
	case *StatefulSet:
		return v.Spec.Replicas != nil
	case *Job:
		return v.Spec.Parallelism != nil
	}
	return false
}
