package compose

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
)

// A custom controller (Options.Controllers) may declare two things about
// itself that the reductions then trust: its symmetry facts
// (model.SymmetryBreaker: where its steps depend on which of several alike
// nodes or pod slots is which) and its footprints (model.Footprinter: what
// its steps read and write). A declaration that leaves something out makes
// a reduction unsound without a word: a "holds" that a search without the
// reduction would have refuted. CheckDeclarations tests both against the
// controller's own steps on reachable states, as the built-in controllers
// are tested (package reduction).

// DeclarationCheck bounds Problem.CheckDeclarations.
type DeclarationCheck struct {
	// States is how many distinct reachable states to check (0: 2 000):
	// up to half of them breadth-first from the initial state, the rest
	// along random runs, which reach deeper.
	States int
	// Permutations is how many symmetries of each state to try (0: 3).
	Permutations int
	// Seed seeds the random runs and permutations.
	Seed uint64
}

// DeclarationProblem is a custom controller's declaration that its own
// steps contradict on a reachable state.
type DeclarationProblem struct {
	// Controller is the controller's Name.
	Controller string
	// Declaration is "SymmetryFacts" (model.SymmetryBreaker),
	// "Footprint" (model.Footprinter) or "Determinism" (the contract of
	// every model.Process: Step and Enabled are pure and deterministic).
	Declaration string
	// Detail says what the steps do that the declaration does not allow.
	Detail string
	// State is the reachable state where it shows (model.Describe).
	State string
}

// String is the problem for people, the state last.
func (d DeclarationProblem) String() string {
	if d.Declaration == "Determinism" {
		return fmt.Sprintf("controller %s is not pure and deterministic: %s\nin this reachable state:\n%s", d.Controller, d.Detail, d.State)
	}
	return fmt.Sprintf("controller %s: its %s declaration is wrong: %s\nin this reachable state:\n%s", d.Controller, d.Declaration, d.Detail, d.State)
}

// CheckDeclarations checks what each custom controller declares of
// itself against its steps, on reachable states of the problem's
// cluster (every process moving, no reduction), and returns at most one
// problem per controller and declaration:
//   - Determinism (every custom controller): expanding a state twice
//     gives the same successors in the same order (the order is what a
//     counterexample's replay follows), and leaves the state as it was;
//   - SymmetryFacts (when symmetry is on, which declaring them asks for):
//     for permutations g the symmetry reduction may apply to a state s
//     (alike nodes, interchangeable zones, pod slots), the controller's
//     successors of g(s) are exactly the g-images of its successors of s
//     (symmetry.Commutes);
//   - Footprint: its step footprint lies within its static one, its steps
//     change only what the step footprint writes, another process's step
//     that touches none of its reads or writes leaves it enabled with the
//     same effect, and a step that leaves its DisabledBy alone does not
//     enable it (System.CheckStepFootprint, System.CheckDisabledBy).
//
// It checks samples, not every state: a clean result is evidence, not
// proof. It stops with ctx's error when ctx ends.
func (p *Problem) CheckDeclarations(ctx context.Context, dc DeclarationCheck) ([]DeclarationProblem, error) {
	sys := p.System
	if dc.States <= 0 {
		dc.States = 2000
	}
	if dc.Permutations <= 0 {
		dc.Permutations = 3
	}
	custom := make([]int, 0, len(sys.Actors)-p.customFrom)
	for i := p.customFrom; i < len(sys.Actors); i++ {
		custom = append(custom, i)
	}
	if len(custom) == 0 {
		return nil, nil
	}
	r := rand.New(rand.NewPCG(dc.Seed, 0x6b697669))
	found := map[string]bool{}
	var out []DeclarationProblem
	report := func(i int, decl, detail string, s *model.State) {
		name := sys.Actors[i].Process.Name()
		if found[name+"/"+decl] {
			return
		}
		found[name+"/"+decl] = true
		out = append(out, DeclarationProblem{Controller: name, Declaration: decl, Detail: detail, State: model.Describe(sys.U, s)})
	}
	reportNondeterministic := func(i int, s *model.State, a, b int) {
		report(i, "Determinism", fmt.Sprintf("two expansions of this state gave different successors (%d, then %d, compared in order): "+
			"its steps depend on something besides the state (the order of a map's iteration, a clock, randomness, "+
			"memory kept between calls)", a, b), s)
	}
	check := func(s *model.State) {
		if s.Failed != model.NoFailure {
			return
		}
		before := s.AppendEncoding(sys.U, nil)
		succ := sys.StepsByActor(s)
		again := sys.StepsByActor(s)
		// Step runs on a copy (Next), Enabled on s itself: when s
		// changed, each guard runs again on the state as it was to find
		// whose it is.
		var changed map[int]bool
		if string(s.AppendEncoding(sys.U, nil)) != string(before) {
			changed = map[int]bool{}
			for _, i := range custom {
				if orig, err := sys.Decode(before); err == nil {
					sys.Actors[i].Process.Enabled(sys.U, orig)
					changed[i] = string(orig.AppendEncoding(sys.U, nil)) != string(before)
				}
			}
		}
		for _, i := range custom {
			pr := sys.Actors[i].Process
			// A process that is not deterministic fails the other checks
			// too, now and then: say only that, and once.
			if found[pr.Name()+"/Determinism"] {
				continue
			}
			if changed != nil {
				// The other checks at s would blame the others for it.
				if changed[i] {
					report(i, "Determinism", "expanding this state changed it: Enabled or Step must not modify the state they are given", s)
				}
				continue
			}
			if !sameSequence(sys.U, succ[i], again[i]) {
				reportNondeterministic(i, s, len(succ[i]), len(again[i]))
				continue
			}
			// wrong reports a declaration its steps contradict at s
			// (and at the states of also), unless more expansions show
			// the steps to depend on something besides the state.
			wrong := func(decl, detail string, also ...*model.State) {
				for _, t := range append([]*model.State{s}, also...) {
					first := sys.StepsByActor(t)[i]
					// Go's iteration over a small map starts at one of
					// eight places: an order that one start in eight
					// changes needs this many tries.
					for range 64 {
						if next := sys.StepsByActor(t)[i]; !sameSequence(sys.U, first, next) {
							reportNondeterministic(i, t, len(first), len(next))
							return
						}
					}
				}
				report(i, decl, detail, s)
			}
			if _, ok := pr.(model.SymmetryBreaker); ok && sys.Symmetry != nil && !sys.Symmetry.Trivial() {
				for range dc.Permutations {
					g := sys.Symmetry.RandomPermutation(r, s)
					ok, images, direct := symmetry.Commutes(sys.U, s, g, func(t *model.State) []*model.State { return sys.StepsByActor(t)[i] })
					if !ok {
						wrong("SymmetryFacts", sys.describePermuted(g, images, direct), g.Apply(sys.U, s))
						break
					}
				}
			}
			fp, ok := pr.(model.Footprinter)
			if !ok {
				continue
			}
			var msg string
			if mine, enabled := succ[i]; enabled {
				reads, writes := fp.StepFootprint(sys.U, s)
				sr, sw := fp.StaticFootprint(sys.U)
				msg = sys.CheckStepFootprint(s, i, mine, reads, writes, sr, sw, succ, func(t *model.State) []*model.State { return sys.StepsByActor(t)[i] })
			} else {
				msg = sys.CheckDisabledBy(s, fp.DisabledBy(sys.U, s), func(t *model.State) bool { return sys.enabled(i, t) }, succ)
			}
			if msg != "" {
				wrong("Footprint", msg)
			}
		}
	}
	seen := map[string]bool{}
	visit := func(s *model.State) bool {
		key := string(s.AppendEncoding(sys.U, nil))
		if seen[key] {
			return false
		}
		seen[key] = true
		check(s)
		return true
	}
	var frontier []*model.State
	sys.Initial(func(s *model.State) { frontier = append(frontier, s.Clone()) })
	initial := append([]*model.State(nil), frontier...)
	for len(frontier) > 0 && len(seen) < dc.States/2 {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		s := frontier[0]
		frontier = frontier[1:]
		// The frontier holds no more states than the check will visit.
		if visit(s) && len(frontier) < dc.States {
			frontier = append(frontier, successors(sys, s)...)
		}
	}
	for runs := 0; len(seen) < dc.States && runs < dc.States; runs++ {
		s := initial[r.IntN(len(initial))]
		for range 200 {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			next := successors(sys, s)
			if len(next) == 0 {
				break
			}
			s = next[r.IntN(len(next))]
			visit(s)
		}
	}
	return out, nil
}

// sameSequence reports whether as and bs are the same states in the
// same order.
func sameSequence(u *model.Universe, as, bs []*model.State) bool {
	if len(as) != len(bs) {
		return false
	}
	for i := range as {
		if string(as[i].AppendEncoding(u, nil)) != string(bs[i].AppendEncoding(u, nil)) {
			return false
		}
	}
	return true
}

// successors returns copies of every successor of s.
func successors(sys *System, s *model.State) []*model.State {
	var out []*model.State
	sys.Next(s, func(_ checker.Step, t *model.State) { out = append(out, t.Clone()) })
	return out
}

// StepsByActor returns copies of the successors of s, by actor index
// (Next, no reduction).
func (sys *System) StepsByActor(s *model.State) map[int][]*model.State {
	out := map[int][]*model.State{}
	sys.Next(s, func(st checker.Step, t *model.State) {
		out[int(st.Actor)] = append(out[int(st.Actor)], t.Clone())
	})
	return out
}

// describePermuted says which permutation broke a symmetry declaration
// and how the two successor sets differ.
func (sys *System) describePermuted(g symmetry.Permutation, images, direct []*model.State) string {
	var moved []string
	for n, to := range g.Nodes {
		if to != n {
			moved = append(moved, sys.U.Nodes[n].Name+"→"+sys.U.Nodes[to].Name)
		}
	}
	var b strings.Builder
	renamed := "the pod slots"
	if len(moved) > 0 {
		renamed = "the nodes (" + strings.Join(moved, ", ") + ") and the pod slots"
	}
	fmt.Fprintf(&b, "its steps depend on which node or pod slot is which: renaming %s of this state, whose nodes the declared facts "+
		"let the symmetry reduction exchange, does not rename its successors (%d and %d successors)", renamed, len(images), len(direct))
	encoded := func(ts []*model.State) map[string]*model.State {
		m := map[string]*model.State{}
		for _, t := range ts {
			m[string(t.AppendEncoding(sys.U, nil))] = t
		}
		return m
	}
	im, di := encoded(images), encoded(direct)
	for k, t := range im {
		if di[k] == nil {
			fmt.Fprintf(&b, "\nthe renamed image of one of its successors, which it does not reach from the renamed state:\n%s", model.Describe(sys.U, t))
			break
		}
	}
	for k, t := range di {
		if im[k] == nil {
			fmt.Fprintf(&b, "\na successor of the renamed state that is no renamed successor:\n%s", model.Describe(sys.U, t))
			break
		}
	}
	return b.String()
}

// CheckStepFootprint checks the footprints a process declares at s,
// where it is enabled with successors mine (x is its actor index, -1 when
// it is none of sys's actors): reads and writes of its step at s within
// the static staticReads and staticWrites, every successor changing only
// what writes holds, and (reads) a step of another actor (succ: every
// actor's successors of s) that changes none of its reads or writes
// leaving it enabled with the same effect: each of its successors
// (stepsOfX) after that step differs from one of mine only in what that
// step changed, and back. It returns "" or what is wrong.
func (sys *System) CheckStepFootprint(s *model.State, x int, mine []*model.State, reads, writes, staticReads, staticWrites model.Footprint,
	succ map[int][]*model.State, stepsOfX func(*model.State) []*model.State) string {
	if !reads.Subset(staticReads) || !writes.Subset(staticWrites) {
		return fmt.Sprintf("its footprint at this state (reads: %s; writes: %s) is not within its static footprint (reads: %s; writes: %s)",
			sys.words(reads), sys.words(writes), sys.words(staticReads), sys.words(staticWrites))
	}
	for _, t := range mine {
		if ch := model.Changed(sys.U, s, t); !ch.Subset(writes) {
			return fmt.Sprintf("a step changed %s, but it declares writes of %s only", sys.words(ch), sys.words(writes))
		}
	}
	rw := reads
	rw.Union(writes)
	for y, ts := range succ {
		if y == x {
			continue
		}
		for _, t := range ts {
			ch := model.Changed(sys.U, s, t)
			if ch.Intersects(rw) || sys.stops(t) {
				continue
			}
			theirs := stepsOfX(t)
			if len(theirs) == 0 {
				return fmt.Sprintf("a step of %s disabled it by changing %s, none of what it declares to read (%s) or write (%s)",
					sys.Actors[y].Process.Name(), sys.words(ch), sys.words(reads), sys.words(writes))
			}
			if !coveredUpTo(sys.U, theirs, mine, ch) || !coveredUpTo(sys.U, mine, theirs, ch) {
				return fmt.Sprintf("a step of %s changed what it does by changing %s, none of what it declares to read (%s) or write (%s)",
					sys.Actors[y].Process.Name(), sys.words(ch), sys.words(reads), sys.words(writes))
			}
		}
	}
	return ""
}

// CheckDisabledBy checks, at s where a process is disabled, that no step
// of sys's actors (succ: their successors of s) that leaves the
// components of witness alone enables it. It returns "" or what is
// wrong.
func (sys *System) CheckDisabledBy(s *model.State, witness model.Footprint, enabled func(*model.State) bool, succ map[int][]*model.State) string {
	for a, ts := range succ {
		for _, t := range ts {
			if !model.Changed(sys.U, s, t).Intersects(witness) && enabled(t) {
				return fmt.Sprintf("a step of %s enabled it without changing what its DisabledBy names (%s)", sys.Actors[a].Process.Name(), sys.words(witness))
			}
		}
	}
	return ""
}

// words is model.DescribeFootprint in sys's universe.
func (sys *System) words(f model.Footprint) string { return model.DescribeFootprint(sys.U, f) }

// stops reports whether the run ends at t: an intent or assertion failed
// there and the model does not go on after it.
func (sys *System) stops(t *model.State) bool {
	return t.Failed != model.NoFailure && !sys.U.ContinuesAfterFailure(t)
}

// coveredUpTo reports whether every state of as differs from some state
// of bs only in components of ch.
func coveredUpTo(u *model.Universe, as, bs []*model.State, ch model.Footprint) bool {
	for _, a := range as {
		found := false
		for _, b := range bs {
			if model.Changed(u, b, a).Subset(ch) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
