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
	// Without are real score plugins left out of the real total.
	Without []string
}

// merge returns the union of v and w.
func (v Variation) merge(w Variation) Variation {
	v.Without = append(slices.Clone(v.Without), w.Without...)
	return v
}

// Answers runs both schedulers on s under variation v.
func Answers(r *Real, s *Snapshot, v Variation) (model, real Answer, err error) {
	model, err = modelAnswer(s)
	if err != nil {
		return model, real, err
	}
	real, err = realAnswer(r, s, v)
	return model, real, err
}

// modelAnswer is the model's decision (controllers/scheduler.Decide).
func modelAnswer(s *Snapshot) (Answer, error) {
	u, st, pod, err := s.ToModel()
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
	nodes, pods, pending := s.ToAPI()
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

// ImageLocality is the one real score plugin of the default profile the
// model does not have.
const ImageLocality = "ImageLocality"

// Classes are the known causes, in the order they are tried. The classes
// closed so far (docs/divergences.md, "Measured against kube-scheduler
// v1.36") are modelled now, so the answers must agree on their snapshots.
var Classes = []Class{
	{
		// ImageLocality (weight 1): no node reports images, so it scores
		// 0 everywhere; listed so that the report shows it costs nothing.
		Name:    "image-locality-not-modelled",
		Applies: func(*Snapshot) bool { return true },
		Fix:     Variation{Without: []string{ImageLocality}},
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
