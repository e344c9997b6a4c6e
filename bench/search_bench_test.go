package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// BenchmarkSearch is the exhaustive search alone of BenchmarkModel's
// symmetric rows: the engine on the problem's system and properties, as
// a verification's exhaustive phase runs it, without the quick pass, the
// report or the problem's construction. Its instructions per iteration
// (valgrind --tool=cachegrind, several iterations minus one) divided by
// the states are the search's cost per stored state.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{6, 10, 20} {
		for _, sh := range []struct {
			name  string
			nodes []int
			nv    bool
		}{
			{"c3", []int{(n + 1) / 2, n / 2}, true},
			{"c8", []int{max(1, n/3), n - max(1, n/3)}, false},
		} {
			b.Run(fmt.Sprintf("case=%s/nodes=%d/pods=%d", sh.name, n, 2*n), func(b *testing.B) {
				c, err := cases.Get(sh.name, 3, sh.nv)
				if err != nil {
					b.Fatal(err)
				}
				u, s, err := scaling.Build(c, scaling.Setup{Nodes: sh.nodes, Replicas: []int{2 * n}})
				if err != nil {
					b.Fatal(err)
				}
				p, err := compose.NewProblemFrom(c.Name, u, s, c.Intents, kivi.Options{})
				if err != nil {
					b.Fatal(err)
				}
				opts := checker.Options{Workers: 1, MaxStates: 200_000, CollectAll: true, NoLines: true}
				var st checker.Stats
				for b.Loop() {
					res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties, opts)
					if err != nil {
						b.Fatal(err)
					}
					st = res.Stats
				}
				report(b, st)
				b.ReportMetric(float64(st.Transitions), "transitions")
			})
		}
	}
}
