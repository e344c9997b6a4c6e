package model

import "slices"

// PodFilter is a descheduler plugin's own pod filter (the `namespaces`
// and `labelSelector` args of its plugin config): the plugin lists, and
// so counts and evicts, only the pods it admits, as upstream's
// podutil.NewOptions().WithNamespaces/WithoutNamespaces/WithLabelSelector
// filter does. The zero value admits every pod.
type PodFilter struct {
	// IncludeNamespaces, when not empty, are the only namespaces admitted;
	// ExcludeNamespaces are never admitted (at most one of them is set).
	IncludeNamespaces, ExcludeNamespaces []string
	// LabelSelector, when set, must match the pod's labels.
	LabelSelector *Selector
}

// Admits reports whether the filter admits the pods of template t.
func (f *PodFilter) Admits(t *PodTemplate) bool {
	if len(f.IncludeNamespaces) > 0 && !slices.Contains(f.IncludeNamespaces, t.Namespace) {
		return false
	}
	if slices.Contains(f.ExcludeNamespaces, t.Namespace) {
		return false
	}
	return f.LabelSelector == nil || f.LabelSelector.MatchesLabels(t.Labels)
}

// MatchesLabels evaluates the selector on a label map (the compiled
// form, CompiledSelector, needs a Universe's interned labels).
func (s *Selector) MatchesLabels(labels map[string]string) bool {
	for k, v := range s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		v, ok := labels[r.Key]
		switch r.Operator {
		case OpIn:
			if !ok || !slices.Contains(r.Values, v) {
				return false
			}
		case OpNotIn:
			if ok && slices.Contains(r.Values, v) {
				return false
			}
		case OpExists:
			if !ok {
				return false
			}
		case OpDoesNotExist:
			if ok {
				return false
			}
		}
	}
	return true
}
