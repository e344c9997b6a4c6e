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
