package descheduler

import (
	"slices"

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
// and minDomains are not part of it). The model compares the same fields
// by meaning: which templates the selector matches, and on which nodes
// the captured affinity and tolerations pass.
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
	// A merged pod-template-hash selects the declaring pod's revision.
	if x.Revision != y.Revision || x.Revision != model.AnyRevision && !model.OfSameRevision(&a.decl, &b.decl) {
		return false
	}
	for t := range x.MatchesTemplate {
		if x.MatchesTemplate[t] != y.MatchesTemplate[t] {
			return false
		}
	}
	fa, fb := c.u.Templates[a.template].Fit, c.u.Templates[b.template].Fit
	for n := range fa {
		if x.HonorNodeAffinity && fa[n].Affinity != fb[n].Affinity {
			return false
		}
		if x.HonorNodeTaints && (fa[n].NoSchedule != fb[n].NoSchedule || fa[n].NoExecute != fb[n].NoExecute) {
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
