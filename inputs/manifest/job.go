package manifest

import (
	"encoding/json"

	"github.com/kivi-go/kivi/model"
)

// Job is batch/v1 Job.
type Job struct {
	TypeMeta
	Metadata ObjectMeta      `json:"metadata"`
	Spec     JobSpec         `json:"spec"`
	Status   json.RawMessage `json:"status"`
}

// JobSpec is the part of a Job's spec the model reads, and the fields it
// warns about.
type JobSpec struct {
	Parallelism             *int32            `json:"parallelism"`
	Completions             *int32            `json:"completions"`
	BackoffLimit            *int32            `json:"backoffLimit"`
	Suspend                 *bool             `json:"suspend"`
	CompletionMode          string            `json:"completionMode"`
	Selector                *LabelSelector    `json:"selector"`
	ManualSelector          *bool             `json:"manualSelector"`
	Template                PodTemplateSpec   `json:"template"`
	ActiveDeadlineSeconds   *int64            `json:"activeDeadlineSeconds"`
	TTLSecondsAfterFinished *int32            `json:"ttlSecondsAfterFinished"`
	PodFailurePolicy        *PodFailurePolicy `json:"podFailurePolicy"`
	SuccessPolicy           *SuccessPolicy    `json:"successPolicy"`
	PodReplacementPolicy    string            `json:"podReplacementPolicy"`
	BackoffLimitPerIndex    *int32            `json:"backoffLimitPerIndex"`
	MaxFailedIndexes        *int32            `json:"maxFailedIndexes"`
	ManagedBy               string            `json:"managedBy"`
}

// SuccessPolicy is an Indexed Job's spec.successPolicy.
type SuccessPolicy struct {
	Rules []SuccessPolicyRule `json:"rules"`
}

// SuccessPolicyRule is one of its rules.
type SuccessPolicyRule struct {
	SucceededIndexes *string `json:"succeededIndexes"`
	SucceededCount   *int32  `json:"succeededCount"`
}

// jobSpecRules: the Job spec fields the thin type leaves out.
var jobSpecRules = []fieldRule{}

// jobDecl converts a Job with the API server's defaults
// (pkg/apis/batch/v1/defaults.go: parallelism 1, completions 1 when both
// are unset, backoffLimit 6, completionMode NonIndexed, suspend false)
// and its validation (pkg/apis/batch/validation: parallelism,
// completions and backoffLimit ≥ 0; Indexed needs completions, and
// backoffLimitPerIndex and maxFailedIndexes need Indexed (indexedjob.go);
// a given selector must select the template's labels).
func jobDecl(o Object, name string, nodes nodeLabels, classes *priorityClassTable, limits *limitRangeTable, warns *[]Warning) (model.DeploymentDecl, model.TemplateDecl, error) {
	j := o.Value.(*Job)
	a := o.at()
	dd := model.DeploymentDecl{Name: name, Template: name, Replicas: 1, Kind: "Job", Job: &model.JobDecl{}}
	fail := func(field, format string, args ...any) (model.DeploymentDecl, model.TemplateDecl, error) {
		return dd, model.TemplateDecl{}, a.errorf(o.path(field), format, args...)
	}
	if j.Metadata.Name == "" {
		return fail("metadata.name", "required (accepted: a Job name)")
	}
	sp := &j.Spec
	if sp.Parallelism != nil {
		if *sp.Parallelism < 0 || *sp.Parallelism > maxReplicas {
			return fail("spec.parallelism", "%d (accepted: 0..%d in the model)", *sp.Parallelism, maxReplicas)
		}
		dd.Replicas = int(*sp.Parallelism)
	}
	switch {
	case sp.Completions != nil:
		// An Indexed Job's bound in the model is lower, and checked after
		// the API server's rules (indexedJobDecl).
		if *sp.Completions < 0 || *sp.Completions > model.MaxJobCount && sp.CompletionMode != "Indexed" {
			return fail("spec.completions", "%d (accepted: 0..%d in the model)", *sp.Completions, model.MaxJobCount)
		}
		c := int(*sp.Completions)
		dd.Job.Completions = &c
	case sp.Parallelism == nil:
		// Neither given: a single pod to complete once.
		one := 1
		dd.Job.Completions = &one
	}
	if b := sp.BackoffLimit; b != nil {
		if *b < 0 || *b > model.MaxJobCount {
			return fail("spec.backoffLimit", "%d (accepted: 0..%d in the model)", *b, model.MaxJobCount)
		}
		v := int(*b)
		dd.Job.BackoffLimit = &v
	}
	dd.Job.Suspend = sp.Suspend != nil && *sp.Suspend
	switch sp.CompletionMode {
	case "", "NonIndexed":
	case "Indexed":
		if err := indexedJobDecl(o, sp, dd.Job); err != nil {
			return dd, model.TemplateDecl{}, err
		}
	default:
		return fail("spec.completionMode", "%q (accepted: NonIndexed, Indexed)", sp.CompletionMode)
	}
	if sp.CompletionMode != "Indexed" {
		if sp.BackoffLimitPerIndex != nil {
			return fail("spec.backoffLimitPerIndex", "%d: requires completionMode Indexed (accepted: unset with completionMode %s)", *sp.BackoffLimitPerIndex, completionModeOf(sp))
		}
		if sp.MaxFailedIndexes != nil {
			return fail("spec.maxFailedIndexes", "%d: requires completionMode Indexed (accepted: unset with completionMode %s)", *sp.MaxFailedIndexes, completionModeOf(sp))
		}
	}
	if sp.Selector != nil {
		if err := checkWorkloadSelector(o, sp.Selector, j.Spec.Template.Metadata.Labels); err != nil {
			return dd, model.TemplateDecl{}, err
		}
	}
	switch sp.PodReplacementPolicy {
	case "", "Failed":
	case "TerminatingOrFailed":
		if sp.PodFailurePolicy != nil {
			return fail("spec.podReplacementPolicy", "%q with a podFailurePolicy (accepted: Failed, the default then)", sp.PodReplacementPolicy)
		}
	default:
		return fail("spec.podReplacementPolicy", "%q (accepted: TerminatingOrFailed, Failed)", sp.PodReplacementPolicy)
	}
	dd.Job.PodReplacementPolicy = sp.PodReplacementPolicy
	if p := sp.SuccessPolicy; p != nil {
		decl := &model.SuccessPolicyDecl{Rules: make([]model.SuccessPolicyRuleDecl, len(p.Rules))}
		for i, r := range p.Rules {
			decl.Rules[i].SucceededIndexes = r.SucceededIndexes
			if r.SucceededCount != nil {
				c := int(*r.SucceededCount)
				decl.Rules[i].SucceededCount = &c
			}
		}
		completions := 0
		if sp.Completions != nil {
			completions = int(*sp.Completions)
		}
		if _, _, field, err := model.CompileSuccessPolicy(decl, sp.CompletionMode == "Indexed", completions); err != nil {
			return fail("spec."+field, "%v", err)
		}
		dd.Job.SuccessPolicy = decl
	}
	if sp.PodFailurePolicy != nil {
		pfp, err := podFailurePolicyDecl(o, sp.PodFailurePolicy, sp, warns)
		if err != nil {
			return dd, model.TemplateDecl{}, err
		}
		dd.Job.PodFailurePolicy = pfp
	}
	noClock := "not modelled: the model has no clock"
	for _, f := range []struct {
		path string
		set  bool
		why  string
	}{
		{"spec.activeDeadlineSeconds", sp.ActiveDeadlineSeconds != nil, noClock + ", the Job never fails for its deadline"},
		{"spec.ttlSecondsAfterFinished", sp.TTLSecondsAfterFinished != nil, noClock + "; a finished Job's pods are gone at once in the model anyway"},
		{"spec.managedBy", sp.ManagedBy != "" && sp.ManagedBy != "kubernetes.io/job-controller", "ignored: the model's Job controller manages the Job"},
	} {
		if f.set {
			*warns = append(*warns, a.warning(o.path(f.path), "%s", f.why))
		}
	}
	// The API server's Job validation: a Job's pods run to completion.
	switch rp := j.Spec.Template.Spec.RestartPolicy; rp {
	case "OnFailure":
		if sp.PodFailurePolicy != nil {
			return fail("spec.template.spec.restartPolicy", "OnFailure with a podFailurePolicy (accepted: Never)")
		}
	case "Never":
	case "":
		return fail("spec.template.spec.restartPolicy", "required for a Job (accepted: OnFailure, Never; the pod default Always is refused)")
	default:
		return fail("spec.template.spec.restartPolicy", "%q (accepted: OnFailure, Never)", rp)
	}
	tc := templateConv{o: o, path: "spec.template", nodes: nodes, warns: warns, classes: classes,
		limits: limits.forNamespace(namespaceOf(j.Metadata.Namespace))}
	td, err := tc.convert(name, j.Spec.Template.Metadata, j.Spec.Template.Spec)
	return dd, td, err
}
