package reduction_test

import (
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
)

// TestAmpleSetsCommuteWithTheRest checks the ample sets the reduction
// actually picks, on the first reachable states of every problem, against
// the first step of the stubborn-set conditions, on the states
// themselves: for every actor x in the set and every enabled actor y left
// out, y's step keeps x enabled (D2), and every run "y then x" is also a
// run "x then y" to the same state (D1). A footprint that under-declares,
// or a closure that leaves out an actor it must take in, shows up as a
// left-out actor that disables or does not commute with a chosen one.
func TestAmpleSetsCommuteWithTheRest(t *testing.T) {
	pairs, sets := 0, 0
	for _, pp := range porProblems(t) {
		sys, r := pp.p.System, pp.p.System.Reduction
		if r == nil {
			continue
		}
		forStates(sys, 3000, func(s *model.State) {
			var succ []checker.Successor[*model.State]
			sys.Next(s, func(st checker.Step, t2 *model.State) {
				succ = append(succ, checker.Successor[*model.State]{Step: st, State: t2.Clone()})
			})
			sel := r.Ample(s, succ)
			if sel == nil {
				return
			}
			sets++
			chosen := map[int]bool{}
			for _, i := range sel {
				chosen[int(succ[i].Step.Actor)] = true
			}
			byActor := map[int][]*model.State{}
			for _, x := range succ {
				byActor[int(x.Step.Actor)] = append(byActor[int(x.Step.Actor)], x.State)
			}
			for x := range chosen {
				for y, ys := range byActor {
					if chosen[y] {
						continue
					}
					pairs++
					nx, ny := sys.Actors[x].Process.Name(), sys.Actors[y].Process.Name()
					yx, ok := exactlyAfter(sys, ys, x)
					if !ok {
						t.Fatalf("%s: %s, left out of the ample set, disables %s, in it\n%s", pp.name, ny, nx, model.Describe(sys.U, s))
					}
					xy, _ := exactlyAfter(sys, byActor[x], y)
					for k := range yx {
						if !xy[k] {
							t.Fatalf("%s: %s then %s reaches a state %s then %s does not (%s is in the ample set, %s is not)\n%s",
								pp.name, ny, nx, nx, ny, nx, ny, model.Describe(sys.U, s))
						}
					}
				}
			}
		})
	}
	if pairs == 0 {
		t.Fatal("no ample set left an enabled actor out: the test checked nothing")
	}
	t.Logf("%d ample sets, %d (chosen, left-out) pairs checked", sets, pairs)
}

// exactlyAfter returns the exact encodings (no symmetry) of actor a's
// successors of every state of from, and false when a is disabled in one
// of them.
func exactlyAfter(sys *compose.System, from []*model.State, a int) (map[string]bool, bool) {
	out := map[string]bool{}
	ok := true
	for _, s := range from {
		n := 0
		sys.Next(s, func(st checker.Step, t *model.State) {
			if int(st.Actor) == a {
				n++
				out[string(sys.AppendEncoding(nil, t))] = true
			}
		})
		if n == 0 {
			ok = false
		}
	}
	return out, ok
}
