package manifest

import (
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// PodFailurePolicy is a Job's spec.podFailurePolicy (batch/v1).
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules"`
}

// PodFailurePolicyRule is one rule of a podFailurePolicy.
type PodFailurePolicyRule struct {
	Action          string                                   `json:"action"`
	OnExitCodes     *PodFailurePolicyOnExitCodesRequirement  `json:"onExitCodes"`
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions"`
}

// PodFailurePolicyOnExitCodesRequirement is a rule's onExitCodes.
type PodFailurePolicyOnExitCodesRequirement struct {
	ContainerName *string `json:"containerName"`
	Operator      string  `json:"operator"`
	Values        []int32 `json:"values"`
}

// PodFailurePolicyOnPodConditionsPattern is one of a rule's
// onPodConditions.
type PodFailurePolicyOnPodConditionsPattern struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

// The API server's limits on a podFailurePolicy
// (pkg/apis/batch/validation).
const (
	maxPodFailurePolicyOnExitCodesValues       = 255
	maxPodFailurePolicyOnPodConditionsPatterns = 20
)

// podFailurePolicyDecl converts a Job's podFailurePolicy with the API
// server's defaults (a pattern's status True) and validation
// (validatePodFailurePolicy: at most 20 rules; an action among Count,
// FailIndex, FailJob and Ignore, FailIndex only with
// backoffLimitPerIndex; one of onExitCodes and onPodConditions; an
// operator In or NotIn, 1..255 distinct values in increasing order, no 0
// with In, a containerName of the template; at most 20 patterns, each a
// qualified type and a status True, False or Unknown). A pattern other
// than DisruptionTarget True never matches in the model (warned).
func podFailurePolicyDecl(o Object, p *PodFailurePolicy, sp *JobSpec, warns *[]Warning) (*model.PodFailurePolicyDecl, error) {
	a := o.at()
	base := "spec.podFailurePolicy"
	fail := func(field, format string, args ...any) (*model.PodFailurePolicyDecl, error) {
		return nil, a.errorf(o.path(base+field), format, args...)
	}
	if len(p.Rules) > model.MaxPodFailurePolicyRules {
		return fail(".rules", "%d rules (accepted: at most %d)", len(p.Rules), model.MaxPodFailurePolicyRules)
	}
	var containers []string
	for _, c := range sp.Template.Spec.Containers {
		containers = append(containers, c.Name)
	}
	for _, c := range sp.Template.Spec.InitContainers {
		containers = append(containers, c.Name)
	}
	out := &model.PodFailurePolicyDecl{Rules: []model.PodFailurePolicyRuleDecl{}}
	for i, r := range p.Rules {
		rp := fmt.Sprintf(".rules[%d]", i)
		switch r.Action {
		case "":
			return fail(rp+".action", "required (accepted: Count, FailIndex, FailJob, Ignore)")
		case "Count", "FailJob", "Ignore":
		case "FailIndex":
			if sp.BackoffLimitPerIndex == nil {
				return fail(rp+".action", "FailIndex requires spec.backoffLimitPerIndex (accepted: Count, FailJob, Ignore; FailIndex with backoffLimitPerIndex)")
			}
		default:
			return fail(rp+".action", "%q (accepted: Count, FailIndex, FailJob, Ignore)", r.Action)
		}
		switch {
		case r.OnExitCodes != nil && len(r.OnPodConditions) > 0:
			return fail(rp, "both onExitCodes and onPodConditions (accepted: one of them)")
		case r.OnExitCodes == nil && len(r.OnPodConditions) == 0:
			return fail(rp, "neither onExitCodes nor onPodConditions (accepted: one of them)")
		}
		rule := model.PodFailurePolicyRuleDecl{Action: r.Action}
		if e := r.OnExitCodes; e != nil {
			ep := rp + ".onExitCodes"
			switch e.Operator {
			case "In", "NotIn":
			case "":
				return fail(ep+".operator", "required (accepted: In, NotIn)")
			default:
				return fail(ep+".operator", "%q (accepted: In, NotIn)", e.Operator)
			}
			if e.ContainerName != nil && !slices.Contains(containers, *e.ContainerName) {
				return fail(ep+".containerName", "%q (accepted: a container or init container of the pod template: %v)", *e.ContainerName, containers)
			}
			switch n := len(e.Values); {
			case n == 0:
				return fail(ep+".values", "empty (accepted: 1..%d exit codes)", maxPodFailurePolicyOnExitCodesValues)
			case n > maxPodFailurePolicyOnExitCodesValues:
				return fail(ep+".values", "%d values (accepted: 1..%d exit codes)", n, maxPodFailurePolicyOnExitCodesValues)
			}
			for j, v := range e.Values {
				vp := fmt.Sprintf("%s.values[%d]", ep, j)
				if v == 0 && e.Operator == "In" {
					return fail(vp, "0 with operator In (accepted: a non-zero exit code)")
				}
				if j > 0 && e.Values[j-1] == v {
					return fail(vp, "%d again (accepted: distinct exit codes)", v)
				}
				if j > 0 && e.Values[j-1] > v {
					return fail(ep+".values", "%v not in increasing order (accepted: exit codes in increasing order)", e.Values)
				}
			}
			rule.OnExitCodes = true
		}
		if len(r.OnPodConditions) > maxPodFailurePolicyOnPodConditionsPatterns {
			return fail(rp+".onPodConditions", "%d patterns (accepted: at most %d)", len(r.OnPodConditions), maxPodFailurePolicyOnPodConditionsPatterns)
		}
		for j, pat := range r.OnPodConditions {
			pp := fmt.Sprintf("%s.onPodConditions[%d]", rp, j)
			if !model.ValidLabelKey(pat.Type) {
				return fail(pp+".type", "%q (accepted: a qualified name such as DisruptionTarget)", pat.Type)
			}
			status := pat.Status
			switch status {
			case "":
				status = "True"
			case "True", "False", "Unknown":
			default:
				return fail(pp+".status", "%q (accepted: True, False, Unknown)", pat.Status)
			}
			if pat.Type == "DisruptionTarget" && status == "True" {
				rule.OnDisruptionTarget = true
				continue
			}
			*warns = append(*warns, a.warning(o.path(base+pp), "the pattern %s %s never matches in the model: the only pod condition it records is DisruptionTarget True (set by preemption, eviction and the taint manager)", pat.Type, status))
		}
		out.Rules = append(out.Rules, rule)
	}
	return out, nil
}
