package manifest

import (
	"maps"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// Label values have a syntax, and the API server rejects an object that
// carries or selects a value outside it (model.ValidLabelValue); so does
// the reader, naming the field. kube-scheduler would otherwise read such a
// value in its own way (model/labelvalues.go).

const labelValueSyntax = "a label value of at most 63 characters, empty or alphanumeric at both ends with '-', '_' or '.' between"

// checkLabelValues checks every label value a pod template carries or
// selects: its labels, nodeSelector, node-affinity terms, spread
// constraints' selectors and inter-pod affinity selectors.
func (tc templateConv) checkLabelValues(meta ObjectMeta, spec PodSpec) error {
	if err := tc.checkMap("metadata.labels", meta.Labels); err != nil {
		return err
	}
	if err := tc.checkMap("spec.nodeSelector", spec.NodeSelector); err != nil {
		return err
	}
	if a := spec.Affinity; a != nil {
		if na := a.NodeAffinity; na != nil {
			base := "spec.affinity.nodeAffinity"
			if na.Required != nil {
				for i, t := range na.Required.NodeSelectorTerms {
					if err := tc.checkRequirements(index(base+".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", i), t.MatchExpressions); err != nil {
						return err
					}
				}
			}
			for i, p := range na.Preferred {
				if err := tc.checkRequirements(index(base+".preferredDuringSchedulingIgnoredDuringExecution", i)+".preference", p.Preference.MatchExpressions); err != nil {
					return err
				}
			}
		}
		for _, g := range []struct {
			path string
			a    *PodAffinity
		}{{"spec.affinity.podAffinity", a.PodAffinity}, {"spec.affinity.podAntiAffinity", a.PodAntiAffinity}} {
			if g.a == nil {
				continue
			}
			for i, t := range g.a.Required {
				if err := tc.checkSelector(index(g.path+".requiredDuringSchedulingIgnoredDuringExecution", i)+".labelSelector", t.LabelSelector); err != nil {
					return err
				}
			}
			for i, w := range g.a.Preferred {
				if err := tc.checkSelector(index(g.path+".preferredDuringSchedulingIgnoredDuringExecution", i)+".podAffinityTerm.labelSelector", w.PodAffinityTerm.LabelSelector); err != nil {
					return err
				}
			}
		}
	}
	for i, c := range spec.TopologySpreadConstraints {
		if err := tc.checkSelector(index("spec.topologySpreadConstraints", i)+".labelSelector", c.LabelSelector); err != nil {
			return err
		}
	}
	return nil
}

func (tc templateConv) checkMap(path string, m map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !model.ValidLabelValue(m[k]) {
			return tc.errorf(join(path, k), "%q is not a valid label value (accepted: %s)", m[k], labelValueSyntax)
		}
	}
	return nil
}

func (tc templateConv) checkSelector(path string, s *LabelSelector) error {
	if s == nil {
		return nil
	}
	if err := tc.checkMap(path+".matchLabels", s.MatchLabels); err != nil {
		return err
	}
	return tc.checkRequirements(path, s.MatchExpressions)
}

func (tc templateConv) checkRequirements(path string, rs []LabelSelectorRequirement) error {
	for i, r := range rs {
		for j, v := range r.Values {
			if !model.ValidLabelValue(v) {
				return tc.errorf(index(index(path+".matchExpressions", i)+".values", j), "%q is not a valid label value (accepted: %s)", v, labelValueSyntax)
			}
		}
	}
	return nil
}

// checkNodeLabels checks a Node's label values.
func checkNodeLabels(o Object, labels map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if !model.ValidLabelValue(labels[k]) {
			return o.at().errorf(o.path(join("metadata.labels", k)), "%q is not a valid label value (accepted: %s)", labels[k], labelValueSyntax)
		}
	}
	return nil
}
