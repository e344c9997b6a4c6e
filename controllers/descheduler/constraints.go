package descheduler

import (
	"maps"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// spreadConstraint is one topology spread constraint as the descheduler
// sees it: the constraint of a declaring template, whose required node
// affinity and tolerations it captures when its inclusion policies honour
// them (newTopologySpreadConstraint upstream).
type spreadConstraint struct {
	c *model.SpreadConstraint
	// template declares the constraint.
	template int
	// decl is the declaring pod, whose pod-template-hash a merged
	// matchLabelKeys compares (model.SpreadConstraint.Revision); only its
	// owner and template are set.
	decl model.PodState
}

// matches reports whether the constraint's merged selector matches pod ps.
func (sc *spreadConstraint) matches(ps *model.PodState) bool {
	return sc.c.Matches(&sc.decl, ps)
}

// allowed reports whether the profile's `constraints` argument selects a
// constraint with this whenUnsatisfiable.
func allowed(p *model.DeschedulerProfile, w model.WhenUnsatisfiable) bool {
	switch p.Constraints {
	case model.HardConstraints:
		return w == model.DoNotSchedule
	case model.SoftConstraints:
		return w == model.ScheduleAnyway
	}
	return true
}

// collectConstraints returns the distinct allowed constraints declared by
// the listed pods, in order of first declaration (pods by slot, then the
// template's constraint order). Upstream compares its internal constraint
// struct by deep equality: maxSkew, topology key, selector, inclusion
// policies and the captured affinity and tolerations (whenUnsatisfiable
// and minDomains are not part of it). The model compares them as
// written too: the selector (sameSelector) with the values matchLabelKeys
// merges into it (sameMergedLabels), the nodeSelector and required
// affinity terms, and the tolerations.
func (c *cycle) collectConstraints(p *model.DeschedulerProfile, listed []int) []spreadConstraint {
	var out []spreadConstraint
	// The pods declaring constraints: one per template, or per owner and
	// template where a merged pod-template-hash tells revisions apart.
	var seen []model.PodState
	revisions := c.u.HasRevisionMatch()
	for _, pod := range listed {
		ps := &c.s.Pods[pod]
		decl := model.PodState{Template: ps.Template}
		if revisions {
			decl.Owner = ps.Owner
		}
		if slices.Contains(seen, decl) {
			continue
		}
		seen = append(seen, decl)
		t := ps.Template
		tmpl := &c.u.Templates[t]
		for i := range tmpl.Spread {
			sc := spreadConstraint{c: &tmpl.Spread[i], template: int(t), decl: decl}
			if !allowed(p, sc.c.When) {
				continue
			}
			dup := false
			for _, o := range out {
				if c.sameConstraint(o, sc) {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, sc)
			}
		}
	}
	return out
}

func (c *cycle) sameConstraint(a, b spreadConstraint) bool {
	x, y := a.c, b.c
	if x.MaxSkew != y.MaxSkew || x.Key != y.Key || x.HonorNodeAffinity != y.HonorNodeAffinity || x.HonorNodeTaints != y.HonorNodeTaints {
		return false
	}
	if !sameSelector(x.Selector, y.Selector) || !c.sameMergedLabels(x.MatchLabelKeys, a.template, y.MatchLabelKeys, b.template) {
		return false
	}
	// A merged pod-template-hash selects the declaring pod's revision.
	if x.Revision != y.Revision || x.Revision != model.AnyRevision && !model.OfSameRevision(&a.decl, &b.decl) {
		return false
	}
	for t := range x.MatchesTemplate {
		if x.MatchesTemplate[t] != y.MatchesTemplate[t] {
			return false
		}
	}
	// The declaring pods' required node affinity and tolerations, as
	// written, when the policies capture them.
	ta, tb := &c.u.Templates[a.template], &c.u.Templates[b.template]
	if x.HonorNodeAffinity && (!maps.Equal(ta.NodeSelector, tb.NodeSelector) || !slices.EqualFunc(ta.Required, tb.Required, func(p, q model.Selector) bool {
		return sameSelector(&p, &q)
	})) {
		return false
	}
	return !x.HonorNodeTaints || slices.EqualFunc(ta.Tolerations, tb.Tolerations, sameToleration)
}

// sameToleration reports whether two tolerations are written alike.
func sameToleration(a, b model.Toleration) bool {
	if (a.TolerationSeconds == nil) != (b.TolerationSeconds == nil) ||
		a.TolerationSeconds != nil && *a.TolerationSeconds != *b.TolerationSeconds {
		return false
	}
	a.TolerationSeconds, b.TolerationSeconds = nil, nil
	return a == b
}

// sameSelector reports whether two label selectors are written alike, as
// upstream's deep equality of the parsed selectors sees them: the same
// matchLabels and the same matchExpressions, each expression's values in
// any order. Selectors that select the same pods but are written
// otherwise (matchLabels against an In expression, another label that
// only the same pods carry) make two constraints upstream, each balanced
// on its own.
func sameSelector(a, b *model.Selector) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !maps.Equal(a.MatchLabels, b.MatchLabels) || len(a.MatchExpressions) != len(b.MatchExpressions) {
		return false
	}
	norm := func(rs []model.Requirement) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			vals := slices.Sorted(slices.Values(r.Values))
			out[i] = r.Key + "\x00" + string(r.Operator) + "\x00" + strings.Join(vals, "\x00")
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(norm(a.MatchExpressions), norm(b.MatchExpressions))
}

// sameMergedLabels reports whether two constraints' matchLabelKeys merge
// the same requirements into their selectors: the same keys, and for
// each key but pod-template-hash (a revision, compared by sameConstraint)
// the same value, or none, on the declaring templates ta and tb.
func (c *cycle) sameMergedLabels(ka []string, ta int, kb []string, tb int) bool {
	if !slices.Equal(ka, kb) {
		return false
	}
	la, lb := c.u.Templates[ta].Labels, c.u.Templates[tb].Labels
	for _, k := range ka {
		if k == model.PodTemplateHashKey {
			continue
		}
		va, oka := la[k]
		vb, okb := lb[k]
		if oka != okb || va != vb {
			return false
		}
	}
	return true
}

// includes is matchNodeInclusionPolicies: with nodeAffinityPolicy Honor
// the declaring template's nodeSelector and required affinity must match
// node n, with nodeTaintsPolicy Honor its tolerations must cover the
// node's NoSchedule and NoExecute taints.
func (c *cycle) includes(sc spreadConstraint, n int) bool {
	f := c.u.Templates[sc.template].Fit[n]
	if sc.c.HonorNodeAffinity && !f.Affinity {
		return false
	}
	return !sc.c.HonorNodeTaints || (!f.NoSchedule && !f.NoExecute)
}
