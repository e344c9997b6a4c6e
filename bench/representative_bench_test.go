package bench

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// BenchmarkRepresentative is the cost of one AppendRepresentative as the
// engine asks for it when it explores representatives: on successors of
// canonical states (BenchmarkCanonical's successors are those of the
// concrete states an exploration reached first, whose pods are in no
// canonical order). The successors are copies, so their encoding does
// not reuse their parent's (model.State.DeriveInto), which the engine's
// does: the encoding part costs more here than in a run.
func BenchmarkRepresentative(b *testing.B) {
	for _, n := range []int{6, 20} {
		for _, sh := range []struct {
			name  string
			nodes []int
		}{
			{"c3", []int{(n + 1) / 2, n / 2}},
			{"c8", []int{max(1, n/3), n - max(1, n/3)}},
		} {
			sys, _, _ := successorsOf(b, sh.name, true, sh.nodes, 2*n, 0)
			canon := sys.Symmetry
			next := sys.CheckerSystem().(checker.SymmetricSuccessors[*model.State])
			// Breadth-first over the representatives, as the engine
			// explores them.
			seen := map[string]bool{}
			var queue, succs []*model.State
			sys.Initial(func(s *model.State) {
				if k := string(canon.AppendCanonical(nil, s)); !seen[k] {
					seen[k] = true
					queue = append(queue, canon.Canonical(s).Clone())
				}
			})
			for len(queue) > 0 && len(succs) < 20000 {
				s := queue[0]
				queue = queue[1:]
				next.NextUpToSymmetry(s, func(_ checker.Step, t *model.State) {
					t = t.Clone()
					succs = append(succs, t)
					if k := string(canon.AppendCanonical(nil, t)); !seen[k] {
						seen[k] = true
						queue = append(queue, canon.Canonical(t).Clone())
					}
				})
			}
			succs = sample(succs, 256)
			b.Run(fmt.Sprintf("case=%s/nodes=%d/pods=%d", sh.name, n, 2*n), func(b *testing.B) {
				var key, enc []byte
				i := 0
				for b.Loop() {
					key, enc = canon.AppendRepresentative(key[:0], enc[:0], succs[i])
					if i++; i == len(succs) {
						i = 0
					}
				}
				b.ReportMetric(float64(len(succs)), "successors")
			})
		}
	}
}
