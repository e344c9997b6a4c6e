package model_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestEmptyAffinityTerms: an empty required node-affinity term matches no
// node, and an empty preferred term adds no weight (the API's rules for
// NodeSelectorTerm and PreferredSchedulingTerm; upstream's nodeaffinity
// skips such terms). A non-empty term beside an empty one still matches.
func TestEmptyAffinityTerms(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().Zone("a"))
	b.AddNodes(1, build.Node().Zone("b"))
	b.AddTemplate(build.Template("empty-required").Required())
	b.AddTemplate(build.Template("empty-and-zone-a").Required().Required("zone", "a"))
	b.AddTemplate(build.Template("empty-preferred").Preferred(10))
	u, _ := b.MustBuild()
	fit := func(tmpl, node int) model.NodeFit { return u.Templates[tmpl].Fit[node] }
	for n := range 2 {
		if fit(0, n).Affinity {
			t.Errorf("an empty required term matched node %d", n)
		}
		if fit(2, n).Preferred != 0 || !fit(2, n).Affinity {
			t.Errorf("an empty preferred term on node %d: %+v, want weight 0 and a match", n, fit(2, n))
		}
	}
	if !fit(1, 0).Affinity || fit(1, 1).Affinity {
		t.Errorf("empty + zone=a terms: node a %v, node b %v; want only node a", fit(1, 0).Affinity, fit(1, 1).Affinity)
	}
}

// TestAddedAffinityFit: the profile's addedAffinity goes into every
// template's NodeFit apart from the pod's own affinity (which the kubelet
// and the descheduler read): a node no required term matches is rejected
// (the reader's spelling of a Gt or Lt that no node passes matches none),
// and the matching preferred weights add up; an empty term or a weight
// below 1 is refused.
func TestAddedAffinityFit(t *testing.T) {
	in := func(k string, v ...string) model.Selector {
		return model.Selector{MatchExpressions: []model.Requirement{{Key: k, Operator: model.OpIn, Values: v}}}
	}
	b := build.New()
	b.AddNodes(1, build.Node().Zone("a"))
	b.AddNodes(1, build.Node().Zone("b"))
	b.AddTemplate(build.Template("app").NodeSelector("zone", "b"))
	b.U.Scheduler.Profile.AddedAffinity = &model.AddedAffinity{Required: true,
		Terms:     []model.Selector{in("zone", "a"), in("zone", "Gt 3 (no node)")},
		Preferred: []model.PreferredTerm{{Weight: 7, Term: in("zone", "a")}, {Weight: 300, Term: in("zone", "a", "b")}}}
	u, _ := b.MustBuild()
	want := []model.NodeFit{{AddedAffinityRejects: false, AddedPreferred: 307}, {Affinity: true, AddedAffinityRejects: true, AddedPreferred: 300}}
	for n, w := range want {
		f := u.Templates[0].Fit[n]
		if f.Affinity != w.Affinity || f.AddedAffinityRejects != w.AddedAffinityRejects || f.AddedPreferred != w.AddedPreferred {
			t.Errorf("node %d: %+v, want Affinity %t, AddedAffinityRejects %t, AddedPreferred %d", n, f, w.Affinity, w.AddedAffinityRejects, w.AddedPreferred)
		}
	}
	for _, bad := range []*model.AddedAffinity{
		{Required: true, Terms: []model.Selector{{}}},
		{Preferred: []model.PreferredTerm{{Weight: 0, Term: in("zone", "a")}}},
		{Preferred: []model.PreferredTerm{{Weight: 5}}},
	} {
		b := build.New()
		b.AddNodes(1, build.Node())
		b.AddTemplate(build.Template("app"))
		b.U.Scheduler.Profile.AddedAffinity = bad
		if _, _, err := b.Build(0); err == nil {
			t.Errorf("%+v: compiled, want an error", bad)
		}
	}
}
