package manifest

import (
	"maps"
	"slices"
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// PodDisruptionBudget is policy/v1 PodDisruptionBudget: the spec the
// Eviction API checks the descheduler's evictions against. Its status is
// not read: the model computes it from the pods (model.Universe.Disruption).
type PodDisruptionBudget struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     struct {
		Selector                   *LabelSelector `json:"selector"`
		MinAvailable               IntOrString    `json:"minAvailable"`
		MaxUnavailable             IntOrString    `json:"maxUnavailable"`
		UnhealthyPodEvictionPolicy *string        `json:"unhealthyPodEvictionPolicy"`
	} `json:"spec"`
}

const unhealthyPolicies = "IfHealthyBudget, AlwaysAllow"

// pdbDecls converts every PodDisruptionBudget among objs, validated as
// the API server validates it (ValidatePodDisruptionBudgetSpec: at most
// one of minAvailable and maxUnavailable, each a non-negative integer or
// a percentage up to 100%, a valid selector, a supported
// unhealthyPodEvictionPolicy). A budget that selects no pod of a
// Deployment of its namespace in the input gets a warning.
func pdbDecls(objs []Object, warns *[]Warning) ([]model.PodDisruptionBudgetDecl, error) {
	type podLabels struct {
		ns, name string
		labels   map[string]string
	}
	var pods []podLabels
	var out []model.PodDisruptionBudgetDecl
	for _, o := range objs {
		if d, ok := o.Value.(*Deployment); ok {
			pods = append(pods, podLabels{namespaceOf(d.Metadata.Namespace), d.Metadata.Name, d.Spec.Template.Metadata.Labels})
		}
		if d, ok := o.Value.(*StatefulSet); ok {
			pods = append(pods, podLabels{namespaceOf(d.Metadata.Namespace), d.Metadata.Name, d.Spec.Template.Metadata.Labels})
		}
		if d, ok := o.Value.(*Job); ok {
			pods = append(pods, podLabels{namespaceOf(d.Metadata.Namespace), d.Metadata.Name, d.Spec.Template.Metadata.Labels})
		}
		if d, ok := o.Value.(*CronJob); ok {
			pods = append(pods, podLabels{namespaceOf(d.Metadata.Namespace), d.Metadata.Name, d.Spec.JobTemplate.Spec.Template.Metadata.Labels})
		}
	}
	seen := firstSeen{}
	names := map[string]int{}
	for _, o := range objs {
		p, ok := o.Value.(*PodDisruptionBudget)
		if !ok {
			continue
		}
		a := o.at()
		ns := namespaceOf(p.Metadata.Namespace)
		key := ns + "/" + p.Metadata.Name
		if err := seen.add(o, "PodDisruptionBudget", key, "namespace and name"); err != nil {
			return nil, err
		}
		if p.Metadata.Name == "" {
			return nil, a.errorf(o.path("metadata.name"), "empty (accepted: the budget's name)")
		}
		d := model.PodDisruptionBudgetDecl{Name: p.Metadata.Name, Namespace: ns}
		if names[p.Metadata.Name]++; names[p.Metadata.Name] > 1 {
			d.Name = key
		}
		if p.Spec.MinAvailable.Set && p.Spec.MaxUnavailable.Set {
			return nil, a.errorf(o.path("spec"), "minAvailable and maxUnavailable cannot be both set (accepted: one of them)")
		}
		for _, f := range []struct {
			field string
			v     IntOrString
			out   *string
		}{{"spec.minAvailable", p.Spec.MinAvailable, &d.MinAvailable}, {"spec.maxUnavailable", p.Spec.MaxUnavailable, &d.MaxUnavailable}} {
			if !f.v.Set {
				continue
			}
			v, err := intOrPercent(a, o.path(f.field), f.v)
			if err != nil {
				return nil, err
			}
			if n, isPct := percentValue(v); isPct && n > 100 {
				return nil, a.errorf(o.path(f.field), "%s must not be greater than 100%% (accepted: %s up to 100%%)", strconv.Quote(f.v.Raw), intOrPercentAccepted)
			}
			*f.out = v
		}
		if !p.Spec.MinAvailable.Set && !p.Spec.MaxUnavailable.Set {
			*warns = append(*warns, a.warning(o.path("spec"), "neither minAvailable nor maxUnavailable: the disruption controller expects no pod, so the budget allows no eviction of the pods it selects"))
		}
		if pol := p.Spec.UnhealthyPodEvictionPolicy; pol != nil {
			if *pol != "IfHealthyBudget" && *pol != "AlwaysAllow" {
				return nil, a.errorf(o.path("spec.unhealthyPodEvictionPolicy"), "%q (accepted: %s)", *pol, unhealthyPolicies)
			}
			d.UnhealthyPodEvictionPolicy = *pol
		}
		if p.Spec.Selector == nil {
			*warns = append(*warns, a.warning(o.path("spec.selector"), "missing: a policy/v1 PodDisruptionBudget without a selector selects no pod"))
			out = append(out, d)
			continue
		}
		sel, err := checkedSelector(o, "spec.selector", p.Spec.Selector)
		if err != nil {
			return nil, err
		}
		d.Selector = &sel
		matched := false
		for _, pl := range pods {
			if !sel.MatchesLabels(pl.labels) {
				continue
			}
			// A budget selects the pods of its own namespace only.
			matched = matched || pl.ns == ns
		}
		if !matched {
			*warns = append(*warns, a.warning(o.path("spec.selector"), "selects no pod of a Deployment in namespace %s of the input: the budget limits nothing", ns))
		}
		out = append(out, d)
	}
	return out, nil
}

func namespaceOf(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

// percentValue reads the model notation intOrPercent returns.
func percentValue(v string) (int, bool) {
	if n := len(v); n > 0 && v[n-1] == '%' {
		x, _ := strconv.Atoi(v[:n-1])
		return x, true
	}
	return 0, false
}

// checkedSelector converts the label selector at path of o and checks
// its values as the API server checks labels; errors name the field.
func checkedSelector(o Object, path string, ls *LabelSelector) (model.Selector, error) {
	a := o.at()
	sel, err := convertSelector(func(field, format string, args ...any) error {
		return a.errorf(o.path(join(path, field)), format, args...)
	}, ls)
	if err != nil {
		return sel, err
	}
	return sel, checkSelectorValues(a, o.path(path), ls)
}

// checkSelectorValues checks the label values a selector compares with.
func checkSelectorValues(a at, path string, s *LabelSelector) error {
	for _, k := range slices.Sorted(maps.Keys(s.MatchLabels)) {
		if !model.ValidLabelValue(s.MatchLabels[k]) {
			return a.errorf(join(path+".matchLabels", k), "%q is not a valid label value (accepted: %s)", s.MatchLabels[k], labelValueSyntax)
		}
	}
	for i, r := range s.MatchExpressions {
		for j, v := range r.Values {
			if !model.ValidLabelValue(v) {
				return a.errorf(index(index(path+".matchExpressions", i)+".values", j), "%q is not a valid label value (accepted: %s)", v, labelValueSyntax)
			}
		}
	}
	return nil
}
