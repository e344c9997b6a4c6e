package model

import (
	"testing"

	"pgregory.net/rapid"
)

// footprintParts are the per-index components of a footprint, drawn
// beyond the bits a Footprint has so that some share a bit.
type footprintParts struct {
	nodes, nodesWithoutReadiness, deps, events, owners []int
}

func drawFootprintParts(t *rapid.T, label string) footprintParts {
	ints := func(name string, hi int) []int {
		return rapid.SliceOfN(rapid.IntRange(0, hi), 0, 4).Draw(t, label+" "+name)
	}
	return footprintParts{
		nodes:                 ints("nodes", 3*footprintNodes),
		nodesWithoutReadiness: ints("nodes without readiness", 3*footprintNodes),
		deps:                  ints("deployments", 3*footprintDeps),
		events:                ints("events", 3*footprintEvents),
		owners:                ints("owners", 3*footprintDeps),
	}
}

func (p footprintParts) footprint() Footprint {
	var f Footprint
	for _, n := range p.nodes {
		f.AddNode(n)
	}
	for _, n := range p.nodesWithoutReadiness {
		f.AddNodeWithoutReadiness(n)
	}
	for _, d := range p.deps {
		f.AddDeployment(d)
	}
	for _, e := range p.events {
		f.AddEvent(e)
	}
	for _, o := range p.owners {
		f.AddReadiness(o + 1)
	}
	return f
}

// set is the exact set of components p names, by kind and index.
func (p footprintParts) set() map[[2]int]bool {
	s := map[[2]int]bool{}
	readinessAll := len(p.nodes) > 0
	for _, n := range p.nodes {
		s[[2]int{0, n}] = true
	}
	for _, n := range p.nodesWithoutReadiness {
		s[[2]int{0, n}] = true
	}
	for _, d := range p.deps {
		s[[2]int{1, d}] = true
	}
	for _, e := range p.events {
		s[[2]int{2, e}] = true
	}
	for _, o := range p.owners {
		s[[2]int{3, o}] = true
	}
	if readinessAll {
		for o := range 3*footprintDeps + 1 {
			s[[2]int{3, o}] = true
		}
	}
	return s
}

// TestFootprintSharedBitsOverApproximate: nodes, deployments, events and
// owners beyond a Footprint's bits share bits, which may only add
// conflicts: components that meet exactly still meet as footprints, and an
// exact subset is still a subset. Partial-order reduction's soundness
// rests on this for universes of more than 128 nodes.
func TestFootprintSharedBitsOverApproximate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := drawFootprintParts(t, "a"), drawFootprintParts(t, "b")
		fa, fb := a.footprint(), b.footprint()
		sa, sb := a.set(), b.set()
		meet, subset := false, true
		for c := range sa {
			if sb[c] {
				meet = true
			} else {
				subset = false
			}
		}
		if meet && !fa.Intersects(fb) {
			t.Fatalf("%+v and %+v share a component, their footprints do not intersect", a, b)
		}
		if subset && !fa.Subset(fb) {
			t.Fatalf("%+v is within %+v, its footprint is not", a, b)
		}
	})
}

// TestFootprintBeyondItsBits: a node, deployment, event or owner past the
// last bit shares the bit of a lower one instead of being lost (a shift
// past 63 would give no bit at all, and the component would commute with
// everything).
func TestFootprintBeyondItsBits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		hi, lo func(*Footprint)
	}{
		{"node", func(f *Footprint) { f.AddNode(footprintNodes + 1) }, func(f *Footprint) { f.AddNode(1) }},
		{"node without readiness", func(f *Footprint) { f.AddNodeWithoutReadiness(2*footprintNodes + 1) }, func(f *Footprint) { f.AddNodeWithoutReadiness(1) }},
		{"deployment", func(f *Footprint) { f.AddDeployment(footprintDeps) }, func(f *Footprint) { f.AddDeployment(0) }},
		{"event", func(f *Footprint) { f.AddEvent(footprintEvents + 2) }, func(f *Footprint) { f.AddEvent(2) }},
		{"owner readiness", func(f *Footprint) { f.AddReadiness(footprintDeps + 1) }, func(f *Footprint) { f.AddReadiness(1) }},
	} {
		var hi, lo Footprint
		tc.hi(&hi)
		tc.lo(&lo)
		if hi.Empty() || !hi.Intersects(lo) {
			t.Errorf("%s past the last bit: %v, which does not meet the low one's %v", tc.name, hi, lo)
		}
	}
}

// TestEveryComponentIsTheUnionOfItsOwn: a footprint of every node,
// deployment, event or owner's readiness at once has exactly the bits of
// one that names each of them, whatever the build's widths (with the
// kivi_narrowfootprint tag, one readiness bit: a node's footprint, which
// names every owner's readiness, was not within the same node's without
// readiness plus each owner's).
func TestEveryComponentIsTheUnionOfItsOwn(t *testing.T) {
	var all, each Footprint
	all.AddNodes()
	all.AddDeployments()
	all.AddEvents()
	for n := range footprintNodes {
		each.AddNodeWithoutReadiness(n)
	}
	for d := range footprintDeps {
		each.AddDeployment(d)
		each.AddReadiness(d + 1)
	}
	for e := range footprintEvents {
		each.AddEvent(e)
	}
	if all != each {
		t.Errorf("every component at once %x, each on its own %x", all, each)
	}
	var node, parts Footprint
	node.AddNode(5)
	parts.AddNodeWithoutReadiness(5)
	for o := range footprintDeps {
		parts.AddReadiness(o + 1)
	}
	if node != parts {
		t.Errorf("a node %x, the node without readiness and every owner's readiness %x", node, parts)
	}
}
