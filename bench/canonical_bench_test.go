package bench

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// successorsOf explores the setup breadth-first up to symmetry (as the
// engine does, without partial-order reduction) and returns every
// successor the exploration canonicalised, and the states it expanded.
func successorsOf(b *testing.B, name string, nv bool, nodes []int, replicas int, limit int) (sys *compose.System, succs, expanded []*model.State) {
	b.Helper()
	c, err := cases.Get(name, 3, nv)
	if err != nil {
		b.Fatal(err)
	}
	u, s, err := scaling.Build(c, scaling.Setup{Nodes: nodes, Replicas: []int{replicas}})
	if err != nil {
		b.Fatal(err)
	}
	p, err := compose.NewProblemFrom(c.Name, u, s, c.Intents, kivi.Options{})
	if err != nil {
		b.Fatal(err)
	}
	sys = p.System
	seen := map[string]bool{}
	var queue []*model.State
	sys.Initial(func(s *model.State) {
		s = s.Clone()
		if k := string(sys.Symmetry.AppendCanonical(nil, s)); !seen[k] {
			seen[k] = true
			queue = append(queue, s)
		}
	})
	for len(queue) > 0 && len(succs) < limit {
		s := queue[0]
		queue = queue[1:]
		expanded = append(expanded, s)
		sys.CheckerSystem().(checker.SymmetricSuccessors[*model.State]).NextUpToSymmetry(s, func(_ checker.Step, t *model.State) {
			t = t.Clone()
			succs = append(succs, t)
			if k := string(sys.Symmetry.AppendCanonical(nil, t)); !seen[k] {
				seen[k] = true
				queue = append(queue, t)
			}
		})
	}
	return sys, succs, expanded
}

// BenchmarkCanonical is the cost of one canonicalisation (the encoding
// of a successor's representative, as the engine asks for it) and of one
// state's node orbits (as the scheduler asks for them), over the
// successors of a breadth-first exploration of C3 and C8 setups.
func BenchmarkCanonical(b *testing.B) {
	for _, n := range []int{6, 20} {
		for _, sh := range []struct {
			name  string
			nv    bool
			nodes []int
		}{
			{"c3", true, []int{(n + 1) / 2, n / 2}},
			{"c8", true, []int{max(1, n/3), n - max(1, n/3)}},
		} {
			sys, succs, expanded := successorsOf(b, sh.name, sh.nv, sh.nodes, 2*n, 20000)
			// A sample spread over the exploration, small enough to stay in
			// the cache as the engine's freshly built successor does.
			succs, expanded = sample(succs, 256), sample(expanded, 256)
			b.Run(fmt.Sprintf("case=%s/nodes=%d/pods=%d/op=canonical", sh.name, n, 2*n), func(b *testing.B) {
				var buf []byte
				i := 0
				for b.Loop() {
					buf = sys.Symmetry.AppendCanonical(buf[:0], succs[i])
					if i++; i == len(succs) {
						i = 0
					}
				}
				b.ReportMetric(float64(len(succs)), "successors")
			})
			b.Run(fmt.Sprintf("case=%s/nodes=%d/pods=%d/op=orbits", sh.name, n, 2*n), func(b *testing.B) {
				var dst []int
				i := 0
				for b.Loop() {
					dst = sys.Symmetry.NodeOrbits(expanded[i], dst)
					if i++; i == len(expanded) {
						i = 0
					}
				}
				b.ReportMetric(float64(len(expanded)), "states")
			})
		}
	}
}

// sample returns at most n elements of x, evenly spaced.
func sample[T any](x []T, n int) []T {
	if len(x) <= n {
		return x
	}
	out := make([]T, n)
	for i := range out {
		out[i] = x[i*len(x)/n]
	}
	return out
}
