package reduction_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/controllers/kubelet"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/por"
)

// The checks of this file hold the partial-order reduction to the
// definition of a strong stubborn set on the states themselves, rather
// than to the footprints it is computed from: a closure rule left out, or
// a footprint that under-declares, shows up as a run the stubborn set
// does not account for.

// stubbornDepth is how many steps of actors outside the stubborn set
// checkStubborn follows; stubbornFan bounds the states it visits per
// checked state.
const (
	stubbornDepth = 2
	stubbornFan   = 400
)

// outsideRun is a state reached from the checked one by steps of actors
// outside the stubborn set, with those actors in order.
type outsideRun struct {
	s     *model.State
	steps []int
}

// checkStubborn checks, at s, the stubborn set the reduction picks
// (por.Reduction.StubbornSet) against the definition (Valmari's strong
// stubborn sets), for every run of up to depth steps of actors
// outside the set:
//   - every actor of the set disabled at s is still disabled (a run outside
//     the set cannot enable it: what the DisabledBy rule ensures);
//   - every actor of the set enabled at s is still enabled (D2);
//   - its steps after the run reach only states that its step first, then
//     the same actors' steps, reach (D1: what the conflict rules ensure).
//
// It returns "" or the violation, naming the actors, and whether the
// reduction picked a set at s.
func checkStubborn(sys *compose.System, r *por.Reduction, s *model.State, depth int) (string, bool) {
	var succ []checker.Successor[*model.State]
	sys.Next(s, func(st checker.Step, t *model.State) {
		succ = append(succ, checker.Successor[*model.State]{Step: st, State: t.Clone()})
	})
	inT := r.StubbornSet(s, succ)
	if inT == nil {
		return "", false
	}
	byActor := map[int][]*model.State{}
	for _, x := range succ {
		byActor[int(x.Step.Actor)] = append(byActor[int(x.Step.Actor)], x.State)
	}
	name := func(a int) string { return fmt.Sprintf("%s#%d", sys.Actors[a].Process.Name(), a) }
	names := func(as []int) string {
		var out []string
		for _, a := range as {
			out = append(out, name(a))
		}
		return strings.Join(out, ", ")
	}
	var enabledIn, disabledIn []int
	for a, in := range inT {
		if !in {
			continue
		}
		if len(byActor[a]) > 0 {
			enabledIn = append(enabledIn, a)
		} else {
			disabledIn = append(disabledIn, a)
		}
	}
	// after[x][path]: the exact encodings x's step then the path's actors
	// reach from s.
	after := map[int]map[string]map[string]bool{}
	afterPath := func(x int, steps []int) map[string]bool {
		key := fmt.Sprint(steps)
		if m, ok := after[x][key]; ok {
			return m
		}
		cur := byActor[x]
		for _, a := range steps {
			var next []*model.State
			for _, c := range cur {
				sys.Next(c, func(st checker.Step, t *model.State) {
					if int(st.Actor) == a {
						next = append(next, t.Clone())
					}
				})
			}
			cur = next
		}
		m := map[string]bool{}
		for _, c := range cur {
			m[string(sys.AppendEncoding(nil, c))] = true
		}
		if after[x] == nil {
			after[x] = map[string]map[string]bool{}
		}
		after[x][key] = m
		return m
	}
	frontier := []outsideRun{{s: s}}
	seen := map[string]bool{}
	visited := 0
	for range depth {
		var next []outsideRun
		for _, w := range frontier {
			sys.Next(w.s, func(st checker.Step, t *model.State) {
				a := int(st.Actor)
				if inT[a] || visited >= stubbornFan {
					return
				}
				steps := append(append([]int(nil), w.steps...), a)
				k := fmt.Sprint(steps) + string(sys.AppendEncoding(nil, t))
				if seen[k] {
					return
				}
				seen[k] = true
				visited++
				next = append(next, outsideRun{s: t.Clone(), steps: steps})
			})
		}
		for _, w := range next {
			for _, z := range disabledIn {
				if r.Enabled(z, w.s) {
					return fmt.Sprintf("%s, outside the stubborn set, enable %s, disabled in it", names(w.steps), name(z)), true
				}
			}
			if w.s.Failed != model.NoFailure {
				// The run ends in a violation, where the model stops: no
				// actor has a step there. The steps of the set's enabled
				// actors are invisible (they change no failure and write
				// nothing a monitor reads), so taking one of them first
				// and then the run's steps reaches the same violation.
				continue
			}
			succ := stepsOf(sys, w.s)
			for _, x := range enabledIn {
				xs, ok := succ[x]
				if !ok {
					return fmt.Sprintf("%s, outside the stubborn set, disable %s, enabled in it (D2)", names(w.steps), name(x)), true
				}
				want := afterPath(x, w.steps)
				for _, u := range xs {
					if !want[string(sys.AppendEncoding(nil, u))] {
						return fmt.Sprintf("%s then %s reach a state %s then %s do not (D1: %s is in the stubborn set)",
							names(w.steps), name(x), name(x), names(w.steps), name(x)), true
					}
				}
			}
		}
		frontier = next
	}
	return "", true
}

// checkFootprints checks the declared footprints of every actor at s
// against the steps themselves:
//   - every enabled actor's successors differ from s only in components
//     its step footprint writes, which lies within its static footprint;
//   - (reads) a step of another actor that changes none of the components
//     an enabled actor's step reads or writes leaves it enabled with the
//     same effect: each of its successors after that step differs from
//     one of its successors at s only in what that step changed, and back;
//   - a disabled actor stays disabled across every step that leaves the
//     components of its DisabledBy unchanged.
//
// It returns "" or the violation. A failed state is left alone: where a
// run goes on after a failure (an unschedulable pod under Kubernetes'
// lifecycle) every step clears it, which no footprint declares, and the
// reduction never reduces there (por.Reduction.MayReduce).
func checkFootprints(sys *compose.System, r *por.Reduction, s *model.State) string {
	if s.Failed != model.NoFailure {
		return ""
	}
	succ := stepsOf(sys, s)
	for i := range sys.Actors {
		name := fmt.Sprintf("%s#%d", sys.Actors[i].Process.Name(), i)
		var msg string
		if ts, ok := succ[i]; ok {
			reads, writes := r.StepFootprint(i, s)
			sr, sw := r.StaticFootprint(i)
			msg = sys.CheckStepFootprint(s, i, ts, reads, writes, sr, sw, succ, func(t *model.State) []*model.State { return stepsOf(sys, t)[i] })
		} else {
			msg = sys.CheckDisabledBy(s, r.DisabledBy(i, s), func(t *model.State) bool { return r.Enabled(i, t) }, succ)
		}
		if msg != "" {
			return name + ": " + msg
		}
	}
	return ""
}

// TestStubbornSetsOnStates: on the first reachable states of every
// problem, the stubborn set the reduction picks passes checkStubborn:
// runs of up to two steps of actors outside it neither enable a disabled
// actor of it nor disable or fail to commute with an enabled one.
func TestStubbornSetsOnStates(t *testing.T) {
	sets := 0
	for _, pp := range porProblems(t) {
		sys, r := pp.p.System, pp.p.System.Reduction
		if r == nil {
			continue
		}
		forStates(sys, 3000, func(s *model.State) {
			if !r.MayReduce(s) {
				return
			}
			msg, picked := checkStubborn(sys, r, s, stubbornDepth)
			if msg != "" {
				t.Fatalf("%s: %s\n%s", pp.name, msg, model.Describe(sys.U, s))
			}
			if picked {
				sets++
			}
		})
	}
	if sets == 0 {
		t.Fatal("the reduction picked no stubborn set: the test checked nothing")
	}
	t.Logf("%d stubborn sets checked", sets)
}

// processSteps returns the successors of a process alone at s, every
// combination of its choices (as compose.System.Next runs them).
func processSteps(u *model.Universe, p model.Process, s *model.State) []*model.State {
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	var out []*model.State
	for {
		next := s.Clone()
		p.Step(tx, next)
		out = append(out, next)
		if !tx.Advance() {
			return out
		}
		tx.Restart(false)
	}
}

// checkProcessFootprints is checkFootprints for a process that is not
// one of sys's actors (u is sys's universe): its footprints at s against
// its own steps and sys's steps succ.
func checkProcessFootprints(sys *compose.System, p model.Process, s *model.State, succ map[int][]*model.State) string {
	u := sys.U
	fp := p.(model.Footprinter)
	if !p.Enabled(u, s) {
		return sys.CheckDisabledBy(s, fp.DisabledBy(u, s), func(t *model.State) bool { return p.Enabled(u, t) }, succ)
	}
	reads, writes := fp.StepFootprint(u, s)
	sr, sw := fp.StaticFootprint(u)
	return sys.CheckStepFootprint(s, -1, processSteps(u, p, s), reads, writes, sr, sw, succ, func(t *model.State) []*model.State {
		if !p.Enabled(u, t) {
			return nil
		}
		return processSteps(u, p, t)
	})
}

// hpaReadinessProblem is a cluster with an HPA whose pods wait for their
// readiness probes: web (HPA 1..3) and api, two pods each starting at
// once, with a CPU change of web and a kubectl scale of api by one. Every
// readiness step queues the HPA (model.ReadinessChanged), and the scale
// queues the deployment controller while readiness steps are pending.
func hpaReadinessProblem(t testing.TB) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().CPU(20).Mem(64))
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web").ReadinessProbe()), 2)
	api := b.AddDeployment("api", b.AddTemplate(build.Template("api").Requests(4, 4).Label("app", "api").ReadinessProbe().MinReadySeconds(5)), 2)
	b.WithHPA(web, b.AddHPA(1, 3, 50))
	b.PendingPod(web, 0).PendingPod(web, 1).PendingPod(api, 0).PendingPod(api, 1)
	b.AddEvent(model.Event{Kind: model.CPUChange, Deployment: web, MaxDelta: 2, DeltaUnit: 2})
	b.AddEvent(model.Event{Kind: model.ScaleDeployment, Deployment: api, MaxDeployment: api + 1, MaxDelta: 1})
	b.Slots = 8
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitMain
	for i := range 4 {
		s.Enqueue(model.KubeletQueue, i)
	}
	p, err := compose.NewProblemFrom("readiness-hpa-owners", u, s, nil, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOwnerReadinessFootprints: the readiness process of each owner
// (kubelet.OwnerReadiness) keeps its Footprinter contract where an HPA
// runs, although the composition runs the one PodReadiness process there
// (compose readinessActors): on the reachable states of the readiness
// clusters, its steps change only what it declares (the HPA queue every
// step wakes among them), another actor's step that touches none of its
// reads or writes (a kubectl scale queueing the deployment controller:
// the queues its quiescence guard reads) leaves it enabled with the same
// effect, and its DisabledBy keeps it disabled.
func TestOwnerReadinessFootprints(t *testing.T) {
	problems := []*compose.Problem{hpaReadinessProblem(t)}
	for _, pp := range readinessProblems(t) {
		problems = append(problems, pp.p)
	}
	enabled := 0
	for _, p := range problems {
		sys := p.System
		var owners []*kubelet.OwnerReadiness
		var init *model.State
		sys.Initial(func(x *model.State) {
			if init == nil {
				init = x.Clone()
			}
		})
		for o := range len(sys.U.Deployments) + 1 {
			owners = append(owners, kubelet.NewOwnerReadiness(o, o > 0 && model.ReadinessMayWakeDeployment(sys.U, init, o-1)))
		}
		forStates(sys, 3000, func(s *model.State) {
			succ := stepsOf(sys, s)
			for _, or := range owners {
				if or.Enabled(sys.U, s) {
					enabled++
				}
				if msg := checkProcessFootprints(sys, or, s, succ); msg != "" {
					t.Fatalf("%s: readiness of owner %d %s\n%s", p.Name, or.Owner, msg, model.Describe(sys.U, s))
				}
			}
		})
	}
	if enabled == 0 {
		t.Fatal("no owner's readiness step was enabled: the test checked nothing")
	}
	t.Logf("%d enabled owner readiness steps checked", enabled)
}
