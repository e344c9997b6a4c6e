package model

import "fmt"

// Namespaces. Kubernetes scopes the label selection of pods by namespace:
// a topology spread constraint counts the pods of the incoming pod's
// namespace, an inter-pod affinity term those of its `namespaces` and of
// the namespaces its `namespaceSelector` selects (the pod's own when it
// has neither), and a PodDisruptionBudget those of its own namespace. A
// template's Namespace is its Deployment's; the match tables Compile
// builds (MatchesTemplate) leave out the templates of the namespaces a
// selector does not reach, so the controllers never see namespaces.
// Inputs without namespaces (Kivi's, case files) put everything in ""
// and select as before.

// NamespaceDecl is a Namespace object: its name and labels, which an
// inter-pod affinity term's namespaceSelector reads.
type NamespaceDecl struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
}

// NamespaceNameLabel is the label the API server gives every namespace,
// its name (NamespaceDefaultLabelName): a namespaceSelector may select
// namespaces by name with it, whether or not a Namespace object is given.
const NamespaceNameLabel = "kubernetes.io/metadata.name"

// namespaceLabels returns namespace ns's labels, the name label included.
func (u *Universe) namespaceLabels(ns string) map[string]string {
	labels := map[string]string{NamespaceNameLabel: ns}
	for k, v := range u.Namespaces[ns] {
		labels[k] = v
	}
	return labels
}

// termNamespaces returns, for an inter-pod affinity term of a template in
// namespace own, which templates' namespaces it reaches: reach[t] for
// template t.
func (u *Universe) termNamespaces(k *PodAffinityTerm, own string) ([]bool, error) {
	reach := make([]bool, len(u.Templates))
	if len(k.Namespaces) == 0 && k.NamespaceSelector == nil {
		for t := range u.Templates {
			reach[t] = u.Templates[t].Namespace == own
		}
		return reach, nil
	}
	if sel := k.NamespaceSelector; sel != nil {
		if !validValues(sel) {
			return nil, fmt.Errorf("namespaceSelector: a value is not a valid label value: %w", ErrInvalid)
		}
		var in Interner
		if _, err := in.compileSelector(sel); err != nil {
			return nil, fmt.Errorf("namespaceSelector: %w", err)
		}
	}
	selected := map[string]bool{}
	for t := range u.Templates {
		ns := u.Templates[t].Namespace
		got, seen := selected[ns]
		if !seen {
			got = k.NamespaceSelector != nil && k.NamespaceSelector.MatchesLabels(u.namespaceLabels(ns))
			for _, name := range k.Namespaces {
				got = got || name == ns
			}
			selected[ns] = got
		}
		reach[t] = got
	}
	return reach, nil
}
