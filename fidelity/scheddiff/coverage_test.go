package scheddiff

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// feature is something a snapshot exercises that a closed disagreement
// class was about; scored features only count where scores are compared
// (two or more feasible nodes).
type feature struct {
	name   string
	scored bool
	has    func(*Snapshot) bool
}

var closedClassFeatures = []feature{
	{"pending pod with required pod affinity", false, func(s *Snapshot) bool {
		return s.Pending.PodAffinity != nil && len(s.Pending.PodAffinity.Required) > 0
	}},
	{"pending pod with required pod anti-affinity", false, func(s *Snapshot) bool {
		return s.Pending.PodAntiAffinity != nil && len(s.Pending.PodAntiAffinity.Required) > 0
	}},
	{"pending pod with preferred inter-pod terms, scores compared", true, func(s *Snapshot) bool {
		return hasPreferred(s.Pending.PodAffinity) || hasPreferred(s.Pending.PodAntiAffinity)
	}},
	{"existing pod with required anti-affinity", false, func(s *Snapshot) bool {
		return slices.ContainsFunc(s.Existing, func(p Pod) bool { return p.PodAntiAffinity != nil && len(p.PodAntiAffinity.Required) > 0 })
	}},
	{"existing pod with inter-pod terms, scores compared", true, func(s *Snapshot) bool {
		return slices.ContainsFunc(s.Existing, func(p Pod) bool { return p.PodAffinity != nil || p.PodAntiAffinity != nil })
	}},
	{"a not-Ready node whose not-ready taints the pod tolerates", false, func(s *Snapshot) bool {
		if !slices.ContainsFunc(s.Nodes, func(n Node) bool { return !n.Ready }) {
			return false
		}
		for _, taint := range model.NotReadyTaints() {
			if !slices.ContainsFunc(s.Pending.Tolerations, func(t model.Toleration) bool { return t.Tolerates(taint) }) {
				return false
			}
		}
		return true
	}},
	{"a missing request, scores compared", true, func(s *Snapshot) bool {
		missing := func(r Requests) bool { return !r.ExplicitZero && (r.MilliCPU == 0 || r.MemMiB == 0) }
		return missing(s.Pending.Req) || slices.ContainsFunc(s.Existing, func(p Pod) bool { return missing(p.Req) })
	}},
	{"a label value of invalid syntax", false, func(s *Snapshot) bool { return s.hasValue(InvalidValue) }},
}

func hasPreferred(d *model.PodAffinityDecl) bool { return d != nil && len(d.Preferred) > 0 }

// features lists the features s has.
func (s *Snapshot) features() []feature {
	var out []feature
	for _, f := range closedClassFeatures {
		if f.has(s) {
			out = append(out, f)
		}
	}
	return out
}

func featureNames() []string {
	var out []string
	for _, f := range closedClassFeatures {
		out = append(out, f.name)
	}
	return out
}
