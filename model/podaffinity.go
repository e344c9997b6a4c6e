package model

import (
	"fmt"
	"slices"
)

// PodAffinityTerm is an inter-pod (anti-)affinity term: the pods its label
// selector matches, grouped by the domains of TopologyKey (the nodes that
// share the key's value). Kubernetes matches pods of the term's
// namespaces, by default the pod's own; the model has one namespace, so a
// term matches pods of every template whose labels its selector matches.
// A nil Selector matches no pod, an empty one every pod (metav1's rule).
type PodAffinityTerm struct {
	Selector    *Selector
	TopologyKey string
	// Namespaces and NamespaceSelector are the namespaces whose pods the
	// term selects, besides the declaring pod's own when both are unset
	// (namespace.go).
	Namespaces        []string
	NamespaceSelector *Selector
	// MatchLabelKeys and MismatchLabelKeys are labels of the declaring
	// pod whose values the matched pods must carry, respectively not
	// carry (labelkeys.go).
	MatchLabelKeys, MismatchLabelKeys []string

	// Key is TopologyKey interned; MatchesTemplate[t] says whether pods of
	// template t match Selector merged with the label keys but for
	// pod-template-hash, which is Revision (set by Compile).
	Key             KeyID
	MatchesTemplate []bool
	Revision        RevisionMatch
	// DeschedulerMatchesTemplate is MatchesTemplate as the descheduler
	// reads the term: it ignores namespaceSelector and reaches the
	// term's namespaces, else the declaring pod's own
	// (GetNamespacesFromPodAffinityTerm in sigs.k8s.io/descheduler v0.36).
	DeschedulerMatchesTemplate []bool
}

// WeightedPodAffinityTerm is a preferred inter-pod (anti-)affinity term.
type WeightedPodAffinityTerm struct {
	Weight int
	Term   PodAffinityTerm
}

// PodAffinityDecl is a template's podAffinity or podAntiAffinity as
// written: required terms (requiredDuringSchedulingIgnoredDuringExecution)
// and weighted preferred ones (preferredDuringScheduling…).
type PodAffinityDecl struct {
	Required  []PodAffinityTermDecl         `json:"required,omitempty"`
	Preferred []WeightedPodAffinityTermDecl `json:"preferred,omitempty"`
}

// PodAffinityTermDecl is one term as written.
type PodAffinityTermDecl struct {
	LabelSelector *Selector `json:"labelSelector,omitempty"`
	TopologyKey   string    `json:"topologyKey"`
	// Namespaces and NamespaceSelector: PodAffinityTerm's.
	Namespaces        []string  `json:"namespaces,omitempty"`
	NamespaceSelector *Selector `json:"namespaceSelector,omitempty"`
	// MatchLabelKeys and MismatchLabelKeys: PodAffinityTerm's.
	MatchLabelKeys    []string `json:"matchLabelKeys,omitempty"`
	MismatchLabelKeys []string `json:"mismatchLabelKeys,omitempty"`
}

// WeightedPodAffinityTermDecl is one preferred term as written.
type WeightedPodAffinityTermDecl struct {
	Weight int                 `json:"weight"`
	Term   PodAffinityTermDecl `json:"term"`
}

// compilePodAffinity copies the declared terms into pt.
func (td TemplateDecl) compilePodAffinity(pt *PodTemplate) {
	term := func(d PodAffinityTermDecl) PodAffinityTerm {
		return PodAffinityTerm{Selector: d.LabelSelector, TopologyKey: d.TopologyKey,
			Namespaces: d.Namespaces, NamespaceSelector: d.NamespaceSelector,
			MatchLabelKeys: d.MatchLabelKeys, MismatchLabelKeys: d.MismatchLabelKeys}
	}
	weighted := func(ds []WeightedPodAffinityTermDecl) []WeightedPodAffinityTerm {
		var out []WeightedPodAffinityTerm
		for _, d := range ds {
			out = append(out, WeightedPodAffinityTerm{Weight: d.Weight, Term: term(d.Term)})
		}
		return out
	}
	if a := td.PodAffinity; a != nil {
		for _, d := range a.Required {
			pt.PodAffinity = append(pt.PodAffinity, term(d))
		}
		pt.PreferredPodAffinity = weighted(a.Preferred)
	}
	if a := td.PodAntiAffinity; a != nil {
		for _, d := range a.Required {
			pt.PodAntiAffinity = append(pt.PodAntiAffinity, term(d))
		}
		pt.PreferredPodAntiAffinity = weighted(a.Preferred)
	}
}

// HasPodAffinity reports whether t has any inter-pod (anti-)affinity term.
func (t *PodTemplate) HasPodAffinity() bool {
	return len(t.PodAffinity)+len(t.PodAntiAffinity)+len(t.PreferredPodAffinity)+len(t.PreferredPodAntiAffinity) > 0
}

// compilePodAffinity validates template t's inter-pod affinity terms and
// resolves their keys and the templates they match.
func (u *Universe) compilePodAffinity(t *PodTemplate) error {
	compile := func(field string, k *PodAffinityTerm) error {
		if k.TopologyKey == "" {
			return fmt.Errorf("%s.topologyKey is empty: %w", field, ErrInvalid)
		}
		if k.Selector != nil && !validValues(k.Selector) {
			// The API server rejects the pod, and kube-scheduler could
			// not parse the term.
			return fmt.Errorf("%s.labelSelector: a value is not a valid label value (at most 63 characters, alphanumeric at both ends, '-', '_' or '.' between): %w", field, ErrInvalid)
		}
		if err := CheckLabelKeys(k.Selector, k.MatchLabelKeys, k.MismatchLabelKeys, t.Labels, true); err != nil {
			return fmt.Errorf("%s.%w", field, err)
		}
		merged := mergeLabelKeys(k.Selector, k.MatchLabelKeys, k.MismatchLabelKeys, t.Labels)
		k.Revision = merged.revision
		u.revisionMatch = u.revisionMatch || k.Revision != AnyRevision
		sel, err := u.Labels.compileSelector(merged.sel)
		if err != nil {
			return fmt.Errorf("%s.labelSelector: %w", field, err)
		}
		k.Key = u.Labels.Key(k.TopologyKey)
		reach, err := u.termNamespaces(k, t.Namespace)
		if err != nil {
			return fmt.Errorf("%s.%w", field, err)
		}
		k.MatchesTemplate = make([]bool, len(u.Templates))
		k.DeschedulerMatchesTemplate = make([]bool, len(u.Templates))
		for i := range u.Templates {
			labels := sel.Matches(u.Labels.Compile(u.Templates[i].Labels))
			k.MatchesTemplate[i] = reach[i] && labels
			k.DeschedulerMatchesTemplate[i] = labels && deschedulerReaches(k, t.Namespace, u.Templates[i].Namespace)
		}
		return nil
	}
	for _, g := range []struct {
		field string
		terms []PodAffinityTerm
	}{{"podAffinity.required", t.PodAffinity}, {"podAntiAffinity.required", t.PodAntiAffinity}} {
		for i := range g.terms {
			if err := compile(fmt.Sprintf("%s[%d]", g.field, i), &g.terms[i]); err != nil {
				return err
			}
		}
	}
	for _, g := range []struct {
		field string
		terms []WeightedPodAffinityTerm
	}{{"podAffinity.preferred", t.PreferredPodAffinity}, {"podAntiAffinity.preferred", t.PreferredPodAntiAffinity}} {
		for i := range g.terms {
			f := fmt.Sprintf("%s[%d]", g.field, i)
			if w := g.terms[i].Weight; w < 1 || w > 100 {
				return fmt.Errorf("%s.weight %d (accepted 1..100): %w", f, w, ErrInvalid)
			}
			if err := compile(f+".term", &g.terms[i].Term); err != nil {
				return err
			}
		}
	}
	return nil
}

// deschedulerReaches reports whether the descheduler reads term k of a
// template in namespace own as reaching namespace ns: the term's
// namespaces, else own; namespaceSelector is not read.
func deschedulerReaches(k *PodAffinityTerm, own, ns string) bool {
	if len(k.Namespaces) == 0 {
		return ns == own
	}
	return slices.Contains(k.Namespaces, ns)
}

// DeschedulerMatches is Matches as the descheduler reads the term
// (DeschedulerMatchesTemplate).
func (k *PodAffinityTerm) DeschedulerMatches(decl, other *PodState) bool {
	return k.DeschedulerMatchesTemplate[other.Template] && k.Revision.Admits(decl, other)
}
