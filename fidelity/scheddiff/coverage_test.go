package scheddiff

import (
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

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
	{"a not-Ready node whose lifecycle taints the pod tolerates", false, func(s *Snapshot) bool {
		return slices.ContainsFunc(s.Nodes, func(n Node) bool { return !n.Ready && s.Pending.toleratesAll(n.Down.taints()) })
	}},
	{"a not-Ready node whose condition decides the pod's toleration", false, func(s *Snapshot) bool {
		return slices.ContainsFunc(s.Nodes, func(n Node) bool {
			return !n.Ready && s.Pending.toleratesAll(n.Down.taints()) != s.Pending.toleratesAll(n.Down.otherCondition().taints())
		})
	}},
	{"a not-Ready node whose NoExecute taint is held back", false, func(s *Snapshot) bool {
		return slices.ContainsFunc(s.Nodes, func(n Node) bool {
			return !n.Ready && (n.Down == DownNotReadyHeld || n.Down == DownUnreachableHeld)
		})
	}},
	{"a missing request, scores compared", true, func(s *Snapshot) bool {
		missing := func(r Requests) bool { return !r.ExplicitZero && (r.MilliCPU == 0 || r.MemMiB == 0) }
		return missing(s.Pending.Req) || slices.ContainsFunc(s.Existing, func(p Pod) bool { return missing(p.Req) })
	}},
	{"a label value of invalid syntax", false, func(s *Snapshot) bool { return s.hasValue(InvalidValue) }},
	{"spread matchLabelKeys: pod-template-hash", false, func(s *Snapshot) bool {
		return slices.ContainsFunc(s.Pending.Spread, func(c Spread) bool { return slices.Contains(c.MatchLabelKeys, hashLabel) })
	}},
	{"spread matchLabelKeys: another label of the pod", false, func(s *Snapshot) bool {
		return slices.ContainsFunc(s.Pending.Spread, func(c Spread) bool {
			return slices.ContainsFunc(c.MatchLabelKeys, func(k string) bool { _, ok := s.Pending.Labels[k]; return ok && k != hashLabel })
		})
	}},
	{"inter-pod matchLabelKeys: pod-template-hash", false, func(s *Snapshot) bool {
		return s.anyTerm(func(t model.PodAffinityTermDecl) bool { return slices.Contains(t.MatchLabelKeys, hashLabel) })
	}},
	{"inter-pod mismatchLabelKeys: pod-template-hash", false, func(s *Snapshot) bool {
		return s.anyTerm(func(t model.PodAffinityTermDecl) bool { return slices.Contains(t.MismatchLabelKeys, hashLabel) })
	}},
	{"inter-pod label keys: another label", false, func(s *Snapshot) bool {
		other := func(k string) bool { return k != hashLabel }
		return s.anyTerm(func(t model.PodAffinityTermDecl) bool {
			return slices.ContainsFunc(t.MatchLabelKeys, other) || slices.ContainsFunc(t.MismatchLabelKeys, other)
		})
	}},
	{"an existing pod without an owner (no pod-template-hash)", false, func(s *Snapshot) bool {
		return slices.ContainsFunc(s.Existing, func(p Pod) bool { return p.Bare })
	}},
}

// anyTerm reports whether some inter-pod term of some pod satisfies f.
func (s *Snapshot) anyTerm(f func(model.PodAffinityTermDecl) bool) bool {
	decls := []*model.PodAffinityDecl{s.Pending.PodAffinity, s.Pending.PodAntiAffinity}
	for _, p := range s.Existing {
		decls = append(decls, p.PodAffinity, p.PodAntiAffinity)
	}
	for _, d := range decls {
		if d == nil {
			continue
		}
		for _, t := range d.Required {
			if f(t) {
				return true
			}
		}
		for _, w := range d.Preferred {
			if f(w.Term) {
				return true
			}
		}
	}
	return false
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

// toleratesAll reports whether the pending pod, with the tolerations the
// DefaultTolerationSeconds admission plugin adds (withDefaultTolerationSeconds),
// tolerates every one of taints.
func (pe *Pending) toleratesAll(taints []model.Taint) bool {
	var pod v1.Pod
	pe.applyTo(&pod)
	for _, taint := range taints {
		t := v1.Taint{Key: taint.Key, Value: taint.Value, Effect: v1.TaintEffect(taint.Effect)}
		if !slices.ContainsFunc(pod.Spec.Tolerations, func(tol v1.Toleration) bool { return tol.ToleratesTaint(klog.Background(), &t, false) }) {
			return false
		}
	}
	return true
}

// otherCondition is d with the other Ready condition (False for Unknown
// and back), its NoExecute taint placed or held back alike; an unhandled
// node is read as not-ready, so its other condition is unreachable.
func (d NodeDown) otherCondition() NodeDown {
	switch d {
	case DownUnhandled, DownNotReady:
		return DownUnreachable
	case DownUnreachable:
		return DownNotReady
	case DownNotReadyHeld:
		return DownUnreachableHeld
	}
	return DownNotReadyHeld
}

// readsNodeName reports whether the pending pod's required (or, with
// preferred, its preferred) node affinity has a matchFields requirement
// on the node's name.
func (pe *Pending) readsNodeName(preferred bool) bool {
	terms := pe.Required
	if preferred {
		terms = nil
		for _, p := range pe.Preferred {
			terms = append(terms, p.Term)
		}
	}
	return slices.ContainsFunc(terms, func(s model.Selector) bool {
		return slices.ContainsFunc(s.MatchExpressions, func(r model.Requirement) bool { return r.Key == model.NodeNameField })
	})
}
