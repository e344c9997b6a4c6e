package manifest

import (
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// podAffinity converts a pod template's podAffinity or podAntiAffinity at
// path, with its namespaces and namespaceSelector (the pod's own
// namespace when it has neither: model.NamespaceDecl). matchLabelKeys and mismatchLabelKeys are read and validated as the API
// server validates the Deployment's pods (labelKeys).
func (tc templateConv) podAffinity(path string, meta ObjectMeta, a *PodAffinity) (*model.PodAffinityDecl, error) {
	if a == nil || len(a.Required)+len(a.Preferred) == 0 {
		return nil, nil
	}
	d := &model.PodAffinityDecl{}
	for i, t := range a.Required {
		term, err := tc.podAffinityTerm(index(path+".requiredDuringSchedulingIgnoredDuringExecution", i), meta, t)
		if err != nil {
			return nil, err
		}
		d.Required = append(d.Required, term)
	}
	for i, w := range a.Preferred {
		p := index(path+".preferredDuringSchedulingIgnoredDuringExecution", i)
		if w.Weight < 1 || w.Weight > 100 {
			return nil, tc.errorf(p+".weight", "%d (accepted: 1..100)", w.Weight)
		}
		term, err := tc.podAffinityTerm(p+".podAffinityTerm", meta, w.PodAffinityTerm)
		if err != nil {
			return nil, err
		}
		d.Preferred = append(d.Preferred, model.WeightedPodAffinityTermDecl{Weight: int(w.Weight), Term: term})
	}
	return d, nil
}

func (tc templateConv) podAffinityTerm(path string, meta ObjectMeta, t PodAffinityTerm) (model.PodAffinityTermDecl, error) {
	term := model.PodAffinityTermDecl{TopologyKey: t.TopologyKey}
	if t.TopologyKey == "" {
		return term, tc.errorf(path+".topologyKey", "required (accepted: a node label key such as kubernetes.io/hostname or topology.kubernetes.io/zone)")
	}
	if !tc.nodes.has(t.TopologyKey) {
		tc.warn(path+".topologyKey", "%q is a label of no node (node label keys: %s): %s", t.TopologyKey, tc.nodeKeys(), missingKeyEffect(path))
	}
	for i, ns := range t.Namespaces {
		if !validNamespace(ns) {
			return term, tc.errorf(index(path+".namespaces", i), "%q is not a namespace name (accepted: lower-case letters, digits and '-', at most 63 characters, alphanumeric at both ends)", ns)
		}
	}
	term.Namespaces = slices.Clone(t.Namespaces)
	if t.NamespaceSelector != nil {
		sel, err := tc.labelSelector(path+".namespaceSelector", t.NamespaceSelector)
		if err != nil {
			return term, err
		}
		if err := checkSelectorValues(tc.o.at(), tc.o.path(join(tc.path, path+".namespaceSelector")), t.NamespaceSelector); err != nil {
			return term, err
		}
		term.NamespaceSelector = &sel
	}
	if t.LabelSelector == nil {
		// Kubernetes: a nil selector matches no pod.
		return term, tc.labelKeys(path, nil, t.MatchLabelKeys, t.MismatchLabelKeys, meta)
	}
	sel, err := tc.labelSelector(path+".labelSelector", t.LabelSelector)
	if err != nil {
		return term, err
	}
	if err := tc.labelKeys(path, &sel, t.MatchLabelKeys, t.MismatchLabelKeys, meta); err != nil {
		return term, err
	}
	term.LabelSelector = &sel
	term.MatchLabelKeys, term.MismatchLabelKeys = t.MatchLabelKeys, t.MismatchLabelKeys
	return term, nil
}

// missingKeyEffect says what kube-scheduler's InterPodAffinity does with
// the term at path on a node without its topology key: a required
// affinity term fails the node (every term's key must be on it), an
// anti-affinity term finds no pod in the node's domain and lets it pass,
// a preferred term adds nothing to its score.
func missingKeyEffect(path string) string {
	switch {
	case strings.Contains(path, "preferredDuringScheduling"):
		return "the preferred term adds nothing to any node's score"
	case strings.Contains(path, "podAntiAffinity"):
		return "the anti-affinity term never applies: kube-scheduler lets every node pass it"
	}
	return "kube-scheduler fails every node for the required affinity term: the pods stay Pending"
}

// labelKeys validates the matchLabelKeys and mismatchLabelKeys of the
// constraint or term at path with its converted selector (nil: none), as
// the API server validates a pod of the template after merging them: its
// labels and the pod-template-hash the Deployment controller adds
// (model.CheckLabelKeys).
func (tc templateConv) labelKeys(path string, sel *model.Selector, match, mismatch []string, meta ObjectMeta) error {
	err := model.CheckLabelKeys(sel, match, mismatch, meta.Labels, true)
	if e, ok := err.(*model.LabelKeysError); ok {
		return tc.errorf(path+"."+e.Field, "%s", e.Msg)
	}
	return err
}

// namespace is the namespace of the pods of the template: the template's
// own, else its object's, else "default".
func (tc templateConv) namespace(meta ObjectMeta) string {
	if meta.Namespace != "" {
		return meta.Namespace
	}
	if m, ok := workloadMeta(tc.o); ok && m.Namespace != "" {
		return m.Namespace
	}
	return "default"
}
