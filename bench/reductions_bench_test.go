package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/scaling"
)

// reductionShape is a scaling setup of a built-in case with n nodes split
// over its node types (one or two) and the given replicas (the reduction
// table uses 2n).
func reductionShape(b testing.TB, name string, nv bool, n, replicas int) *kivi.Problem {
	b.Helper()
	c, err := cases.Get(name, 3, nv)
	if err != nil {
		b.Fatal(err)
	}
	bounds, err := scaling.BoundsOf(c)
	if err != nil {
		b.Fatal(err)
	}
	var nodes []int
	switch {
	case len(bounds.NodeTypes) == 1:
		nodes = []int{n}
	case name == "c8":
		nodes = []int{max(1, n/3), n - max(1, n/3)}
	default:
		nodes = []int{(n + 1) / 2, n / 2}
	}
	u, s, err := scaling.Build(c, scaling.Setup{Nodes: nodes, Replicas: []int{replicas}})
	if err != nil {
		b.Fatal(err)
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("%s%v[%d]", name, nodes, replicas), u, s, c.Intents, kivi.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// reductionBound caps the unreduced runs of the table; a row that
// reaches it reports a lower bound (bounded=1).
const reductionBound = 1_000_000

// BenchmarkReductions is the reduction table of docs/performance.md:
// C3, C5 and C8, violation and non-violation variants, at 3, 6, 10 and 20
// nodes (2 replicas per node), with no reduction, partial-order reduction
// only, symmetry only and both; one engine worker, every intent settled.
//
//	go test -run XXX -bench Reductions -benchtime 1x ./bench/
func BenchmarkReductions(b *testing.B) {
	modes := []struct {
		name         string
		noSym, noPOR bool
	}{{"none", true, true}, {"por", true, false}, {"symmetry", false, true}, {"both", false, false}}
	for _, name := range []string{"c3", "c5", "c8"} {
		for _, nv := range []bool{false, true} {
			for _, n := range []int{3, 6, 10, 20} {
				for _, m := range modes {
					b.Run(fmt.Sprintf("case=%s/no-violation=%v/nodes=%d/reduction=%s", name, nv, n, m.name), func(b *testing.B) {
						p := reductionShape(b, name, nv, n, 2*n)
						var st checker.Stats
						for b.Loop() {
							rep, err := p.Check(context.Background(), checker.Options{Workers: 1, CollectAll: true,
								MaxStates: reductionBound, NoSymmetry: m.noSym, NoPOR: m.noPOR})
							if err != nil {
								b.Fatal(err)
							}
							st = rep.Stats
						}
						b.ReportMetric(float64(st.States), "states")
						b.ReportMetric(float64(st.AmpleExpansions), "ample")
						bounded := 0.0
						if st.States >= reductionBound {
							bounded = 1
						}
						b.ReportMetric(bounded, "bounded")
					})
				}
			}
		}
	}
}

// BenchmarkFiftyNodes times the non-violation variants of C3 and C8 at 50
// nodes (100 replicas) and 100 nodes (100 replicas: the HPA may double
// them, and a model holds at most 250 pod slots), exhaustively, with both
// reductions (target: 50 nodes in at most 10 minutes and 16 GB).
func BenchmarkFiftyNodes(b *testing.B) {
	for _, name := range []string{"c3", "c8"} {
		for _, n := range []int{50, 100} {
			b.Run(fmt.Sprintf("case=%s/nodes=%d/pods=100", name, n), func(b *testing.B) {
				p := reductionShape(b, name, true, n, 100)
				var st checker.Stats
				for b.Loop() {
					rep, err := p.Check(context.Background(), checker.Options{CollectAll: true})
					if err != nil {
						b.Fatal(err)
					}
					if !rep.Complete || rep.Verdict() != checker.Holds {
						b.Fatalf("%s: complete=%v verdict=%v", p.Name, rep.Complete, rep.Verdict())
					}
					st = rep.Stats
				}
				report(b, st)
			})
		}
	}
}
