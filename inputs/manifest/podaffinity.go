package manifest

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// podAffinity converts a pod template's podAffinity or podAntiAffinity at
// path. The model has one namespace (model.PodAffinityTerm): a term's
// default namespaces (the pod's own) are read as written, other
// namespaces, a namespaceSelector, matchLabelKeys and mismatchLabelKeys
// are warned about and left out.
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
		tc.warn(path+".topologyKey", "%q is a label of no node (node label keys: %s): a required affinity term then fits no node, other terms never apply", t.TopologyKey, tc.nodeKeys())
	}
	if len(t.Namespaces) > 0 && !slices.Equal(t.Namespaces, []string{tc.namespace(meta)}) {
		tc.warn(path+".namespaces", "ignored: the model has one namespace, the term matches pods of every modelled deployment")
	}
	if t.NamespaceSelector != nil {
		tc.warn(path+".namespaceSelector", "ignored: the model has one namespace, the term matches pods of every modelled deployment")
	}
	if len(t.MatchLabelKeys) > 0 {
		tc.warn(path+".matchLabelKeys", "ignored: matchLabelKeys is not modelled (pods of every revision are matched)")
	}
	if len(t.MismatchLabelKeys) > 0 {
		tc.warn(path+".mismatchLabelKeys", "ignored: mismatchLabelKeys is not modelled")
	}
	if t.LabelSelector == nil {
		// Kubernetes: a nil selector matches no pod.
		return term, nil
	}
	sel, err := tc.labelSelector(path+".labelSelector", t.LabelSelector)
	if err != nil {
		return term, err
	}
	term.LabelSelector = &sel
	return term, nil
}

// namespace is the namespace of the pods of the template: the template's
// own, else its object's, else "default".
func (tc templateConv) namespace(meta ObjectMeta) string {
	if meta.Namespace != "" {
		return meta.Namespace
	}
	if d, ok := tc.o.Value.(*Deployment); ok && d.Metadata.Namespace != "" {
		return d.Metadata.Namespace
	}
	return "default"
}
