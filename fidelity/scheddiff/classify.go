package scheddiff

import (
	"fmt"
	"slices"
	"strings"

	kivisched "github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/model"
)

// Answer is one scheduler's decision on a snapshot: the feasible nodes and
// the top-scoring feasible nodes (the nodes the scheduler may pick), by
// name, sorted.
type Answer struct {
	Feasible, Top []string
	// Detail explains the answer for reports (the model's Explain, or the
	// real framework's rejections and scores).
	Detail string
}

// Same reports whether two answers pick from the same nodes after the same
// filtering.
func (a Answer) Same(b Answer) bool {
	return slices.Equal(a.Feasible, b.Feasible) && slices.Equal(a.Top, b.Top)
}

func (a Answer) String() string {
	return fmt.Sprintf("feasible %v top %v", a.Feasible, a.Top)
}

// Variation is a counterfactual run: the changes one or more disagreement
// classes make to show that their cause explains a disagreement. The zero
// value is the faithful comparison.
type Variation struct {
	API   APIOptions
	Model ModelOptions
	// Without are real score plugins left out of the real total.
	Without []string
	// ValidValues renames the invalid label value on both sides.
	ValidValues bool
}

// merge returns the union of v and w.
func (v Variation) merge(w Variation) Variation {
	v.API.HostnameAlias = v.API.HostnameAlias || w.API.HostnameAlias
	v.API.ExplicitZeros = v.API.ExplicitZeros || w.API.ExplicitZeros
	v.Model.NotReadyAsTaints = v.Model.NotReadyAsTaints || w.Model.NotReadyAsTaints
	v.Without = append(slices.Clone(v.Without), w.Without...)
	v.ValidValues = v.ValidValues || w.ValidValues
	return v
}

// Answers runs both schedulers on s under variation v.
func Answers(r *Real, s *Snapshot, v Variation) (model, real Answer, err error) {
	if v.ValidValues {
		s = s.MapValues(func(x string) string {
			if x == InvalidValue {
				return "ssd-x"
			}
			return x
		})
	}
	model, err = modelAnswer(s, v.Model)
	if err != nil {
		return model, real, err
	}
	real, err = realAnswer(r, s, v)
	return model, real, err
}

// modelAnswer is the model's decision (controllers/scheduler.Decide).
func modelAnswer(s *Snapshot, o ModelOptions) (Answer, error) {
	u, st, pod, err := s.ToModel(o)
	if err != nil {
		return Answer{}, err
	}
	feasible, top := kivisched.Decide(u, st, pod)
	names := func(ns []int) []string {
		var out []string
		for _, n := range ns {
			out = append(out, NodeName(n))
		}
		slices.Sort(out)
		return out
	}
	return Answer{Feasible: names(feasible), Top: names(top), Detail: kivisched.Explain(u, st, pod)}, nil
}

// realAnswer is kube-scheduler's decision. A framework error (an invalid
// selector makes PodTopologySpread's PreFilter fail) schedules the pod
// nowhere, as in the real scheduler's cycle.
func realAnswer(r *Real, s *Snapshot, v Variation) (Answer, error) {
	nodes, pods, pending := s.ToAPI(v.API)
	ra, err := r.Decide(nodes, pods, pending)
	if err != nil {
		return Answer{Detail: "framework error: " + err.Error()}, nil
	}
	return Answer{Feasible: ra.Feasible, Top: ra.Top(v.Without...), Detail: realDetail(ra)}, nil
}

// Class is a known cause of disagreement: Applies says whether the
// snapshot has the feature at fault, Fix is the counterfactual that
// removes exactly that cause. A disagreement belongs to the class if the
// class applies and its counterfactual makes the answers agree. Every
// class is written up in docs/divergences.md, section "Measured against
// kube-scheduler v1.36".
type Class struct {
	Name    string
	Applies func(*Snapshot) bool
	Fix     Variation
}

// Real score plugins of the default profile: BalancedAllocation, which the
// model has had since the "balanced-allocation-not-modelled" class was
// closed (docs/divergences.md), and the two the model does not have.
const (
	BalancedAllocation = "NodeResourcesBalancedAllocation"
	ImageLocality      = "ImageLocality"
	InterPodAffinity   = "InterPodAffinity"
)

// Classes are the known causes, in the order they are tried.
var Classes = []Class{
	{
		// ImageLocality (weight 1): no node reports images, so it scores
		// 0 everywhere; listed so that the report shows it costs nothing.
		Name:    "image-locality-not-modelled",
		Applies: func(*Snapshot) bool { return true },
		Fix:     Variation{Without: []string{ImageLocality}},
	},
	{
		// InterPodAffinity (weight 2): no pod has (anti-)affinity, so it
		// skips; listed for the same reason.
		Name:    "inter-pod-affinity-not-modelled",
		Applies: func(*Snapshot) bool { return true },
		Fix:     Variation{Without: []string{InterPodAffinity}},
	},
	{
		// For Kivi's inputs the model labels every node hostname=<name>
		// (Kivi's alias, model.Options.KiviHostnameAlias); a real node
		// only has kubernetes.io/hostname. Inputs read from manifests
		// have no alias, so the class does not apply to them.
		Name:    "hostname-alias-label",
		Applies: func(s *Snapshot) bool { return s.KiviInput && s.usesKey(model.KiviHostnameKey) },
		Fix:     Variation{API: APIOptions{HostnameAlias: true}},
	},
	{
		// The model's NodeReady filter rejects a not-Ready node whatever
		// the pod tolerates; upstream the node is only tainted not-ready,
		// and a pod tolerating the taints may land there.
		Name:    "not-ready-taint-tolerated",
		Applies: (*Snapshot).notReadyTolerated,
		Fix:     Variation{Model: ModelOptions{NotReadyAsTaints: true}},
	},
	{
		// Upstream scores a missing request as 100m CPU / 200Mi memory
		// (LeastAllocated uses non-zero requests); the model scores 0.
		Name:    "missing-request-scored-as-default",
		Applies: (*Snapshot).hasMissingRequest,
		Fix:     Variation{API: APIOptions{ExplicitZeros: true}},
	},
	{
		// A label value of invalid syntax: upstream's selector parsing
		// rejects it where the model compares strings.
		Name:    "invalid-label-value",
		Applies: func(s *Snapshot) bool { return s.hasValue(InvalidValue) },
		Fix:     Variation{ValidValues: true},
	},
}

// Verdict is the outcome of one comparison.
type Verdict struct {
	// Class is "" when the answers agree, a class name, several joined by
	// "+" when only their causes together explain the disagreement, or
	// Unexplained.
	Class       string
	Model, Real Answer
}

// Unexplained is the verdict class of a disagreement no known cause
// explains.
const Unexplained = "UNEXPLAINED"

// Classify compares the two schedulers on s and names the cause of a
// disagreement: the first class whose counterfactual alone makes the
// answers agree, else the applicable classes together if their
// counterfactuals together do, else Unexplained.
func Classify(r *Real, s *Snapshot) (Verdict, error) {
	m, re, err := Answers(r, s, Variation{})
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{Model: m, Real: re}
	if m.Same(re) {
		return v, nil
	}
	var all Variation
	var names []string
	for _, c := range Classes {
		if !c.Applies(s) {
			continue
		}
		m2, r2, err := Answers(r, s, c.Fix)
		if err != nil {
			return v, err
		}
		if m2.Same(r2) {
			v.Class = c.Name
			return v, nil
		}
		all = all.merge(c.Fix)
		names = append(names, c.Name)
	}
	m2, r2, err := Answers(r, s, all)
	if err != nil {
		return v, err
	}
	if m2.Same(r2) {
		v.Class = strings.Join(minimalSet(r, s, names), "+")
		return v, nil
	}
	v.Class = Unexplained
	return v, nil
}

// minimalSet drops from names every class the others explain the
// disagreement without, so that a combination names only the causes it
// needs.
func minimalSet(r *Real, s *Snapshot, names []string) []string {
	for i := 0; i < len(names); {
		rest := slices.Delete(slices.Clone(names), i, i+1)
		var v Variation
		for _, c := range Classes {
			if slices.Contains(rest, c.Name) {
				v = v.merge(c.Fix)
			}
		}
		if m, re, err := Answers(r, s, v); err == nil && m.Same(re) {
			names = rest
			continue
		}
		i++
	}
	return names
}

// usesKey reports whether the pending pod refers to node label key k.
func (s *Snapshot) usesKey(k string) bool {
	p := &s.Pending
	if _, ok := p.NodeSelector[k]; ok {
		return true
	}
	terms := slices.Clone(p.Required)
	for _, t := range p.Preferred {
		terms = append(terms, t.Term)
	}
	for _, t := range terms {
		for _, r := range t.MatchExpressions {
			if r.Key == k {
				return true
			}
		}
	}
	return slices.ContainsFunc(p.Spread, func(c Spread) bool { return c.Key == k })
}

// notReadyTolerated reports whether a node is not Ready and the pending
// pod tolerates one of the not-ready taints.
func (s *Snapshot) notReadyTolerated() bool {
	if !slices.ContainsFunc(s.Nodes, func(n Node) bool { return !n.Ready }) {
		return false
	}
	for _, t := range s.Pending.Tolerations {
		for _, e := range []model.TaintEffect{model.NoSchedule, model.NoExecute} {
			if t.Tolerates(model.Taint{Key: notReadyTaint, Effect: e}) {
				return true
			}
		}
	}
	return false
}

// hasMissingRequest reports whether a pod leaves a request out.
func (s *Snapshot) hasMissingRequest() bool {
	missing := func(r Requests) bool { return !r.ExplicitZero && (r.MilliCPU == 0 || r.MemMiB == 0) }
	return missing(s.Pending.Req) || slices.ContainsFunc(s.Existing, func(p Pod) bool { return missing(p.Req) })
}

// hasValue reports whether label value x occurs anywhere in s.
func (s *Snapshot) hasValue(x string) bool {
	found := false
	s.MapValues(func(v string) string {
		found = found || v == x
		return v
	})
	return found
}

// MapValues returns a deep copy of s with every label value (node and pod
// labels, node selector, affinity and spread selector values) mapped by f.
func (s *Snapshot) MapValues(f func(string) string) *Snapshot {
	labels := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		out := map[string]string{}
		for k, v := range m {
			out[k] = f(v)
		}
		return out
	}
	sel := func(x model.Selector) model.Selector {
		y := model.Selector{MatchLabels: labels(x.MatchLabels)}
		for _, r := range x.MatchExpressions {
			var vs []string
			for _, v := range r.Values {
				vs = append(vs, f(v))
			}
			y.MatchExpressions = append(y.MatchExpressions, model.Requirement{Key: r.Key, Operator: r.Operator, Values: vs})
		}
		return y
	}
	out := &Snapshot{KiviInput: s.KiviInput}
	for _, n := range s.Nodes {
		n.Labels = labels(n.Labels)
		out.Nodes = append(out.Nodes, n)
	}
	for _, p := range s.Existing {
		p.Labels = labels(p.Labels)
		out.Existing = append(out.Existing, p)
	}
	p := s.Pending
	p.Labels, p.NodeSelector = labels(p.Labels), labels(p.NodeSelector)
	p.Required, p.Preferred, p.Spread = nil, nil, nil
	for _, t := range s.Pending.Required {
		p.Required = append(p.Required, sel(t))
	}
	for _, t := range s.Pending.Preferred {
		p.Preferred = append(p.Preferred, model.PreferredTerm{Weight: t.Weight, Term: sel(t.Term)})
	}
	for _, c := range s.Pending.Spread {
		if c.Selector != nil {
			x := sel(*c.Selector)
			c.Selector = &x
		}
		p.Spread = append(p.Spread, c)
	}
	out.Pending = p
	return out
}
