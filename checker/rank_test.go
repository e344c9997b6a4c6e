package checker

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// rankGrid is n counters climbing from 0 to k, one step at a time, until
// their sum reaches top: most states have several parents of the same
// depth, so parent ranks tie and groups of one parent sort by ordinal.
type rankGrid struct{ n, k, top int }

func (g rankGrid) Initial(emit func([]byte)) {
	emit(make([]byte, g.n))
	s := make([]byte, g.n)
	s[g.n-1] = 1
	emit(s)
}

func (g rankGrid) Next(s []byte, emit func(Step, []byte)) {
	sum := 0
	for _, c := range s {
		sum += int(c)
	}
	if sum >= g.top {
		return
	}
	t := make([]byte, len(s))
	for i := range s {
		if int(s[i]) < g.k {
			copy(t, s)
			t[i]++
			emit(Step{Actor: uint16(i), Choice: uint32(t[i])}, t)
		}
	}
}

func (g rankGrid) AppendEncoding(dst []byte, s []byte) []byte { return append(dst, s...) }

func (g rankGrid) Decode(enc []byte) ([]byte, error) { return append([]byte(nil), enc...), nil }

// TestParallelRankingAsSerial: with the level ranking done by all workers
// (rankLevelParallel, forced for every level), parallel runs report what
// a one-worker run reports (and so what rankLevel gives): every verdict,
// counterexample and count, for grids of random shapes and worker counts.
func TestParallelRankingAsSerial(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		g := rankGrid{n: rapid.IntRange(2, 6).Draw(rt, "n"), k: rapid.IntRange(1, 5).Draw(rt, "k")}
		g.top = rapid.IntRange(1, g.n*g.k).Draw(rt, "top")
		bad := rapid.IntRange(1, g.top).Draw(rt, "bad sum")
		props := Properties[[]byte]{
			Invariants: []Invariant[[]byte]{
				{Name: "sum", Holds: func(s []byte) bool {
					sum := 0
					for _, c := range s {
						sum += int(c)
					}
					return sum != bad
				}},
				{Name: "first below k", Holds: func(s []byte) bool { return int(s[0]) < g.k }},
			},
			EndConditions: []EndCondition[[]byte]{{Name: "never stuck", Holds: func([]byte) bool { return false }}},
		}
		run := func(workers, rankMin int) string {
			res, err := Check(context.Background(), System[[]byte](g), props,
				Options{Workers: workers, CollectAll: true, rankParallelMin: rankMin})
			if err != nil {
				rt.Fatal(err)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%d states %d transitions\n", res.Stats.States, res.Stats.Transitions)
			for _, p := range res.Properties {
				fmt.Fprintf(&b, "%s %v %v\n", p.Name, p.Verdict, p.Reason)
				if p.Trace != nil {
					fmt.Fprintf(&b, "  %x\n", p.Trace.Initial)
					for _, st := range p.Trace.Steps {
						fmt.Fprintf(&b, "  %d/%d %x\n", st.Step.Actor, st.Step.Choice, st.State)
					}
				}
			}
			return b.String()
		}
		want := run(1, 0)
		for _, workers := range []int{2, 3, 4, 8} {
			for range 3 {
				if got := run(workers, -1); got != want {
					rt.Fatalf("%d workers, parallel ranking:\n%s\none worker:\n%s", workers, got, want)
				}
			}
		}
	})
}
