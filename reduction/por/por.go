// Package por is the partial-order reduction of a composed cluster
// model: at a state where several actors are enabled it picks a strong
// stubborn set of actors (Valmari) from the footprints the controllers and
// events declare (model.Footprinter), and the engine explores only their
// steps (checker.AmpleSetter).
package por

import (
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// Reduction is the partial-order reduction of a System: at a state where
// several actors are enabled it picks a strong stubborn set of actors
// (Valmari) and the engine explores only their steps. Footprints
// (model.Footprinter) say what actors may read and write; an actor
// without one reads and writes everything.
//
// The set T starts from one enabled actor and is closed under two rules:
//   - an enabled actor in T brings in every actor whose steps, in any
//     state (static footprint), may conflict with its step here (step
//     footprint): one writes what the other reads or writes;
//   - a disabled actor in T brings in every actor that may write one of
//     the components keeping it disabled (DisabledBy).
//
// Every step outside T is then independent of every step of T's enabled
// actors, before and after any number of other steps outside T, and
// cannot enable an actor of T. T is used only when its enabled actors'
// steps are invisible here: they change no failure (all invariants of a
// Problem read State.Failed) and carry no mark a cycle property requires.
// The engine adds the cycle proviso (checker.AmpleSetter), which with
// invisibility keeps deadlocks, invariant violations and marked cycles:
// the three kinds of property a Problem checks.
//
// Intent monitors observe every step: an actor whose writes reach what
// monitors read is treated as also reading that and writing the monitor
// memory and the failure. Problems with Go predicates or custom monitors,
// whose reads are unknown, get no reduction.
type Reduction struct {
	u      *model.Universe
	actors []Actor
	// static footprints per actor, with gate, atomic and monitor effects.
	reads, writes []model.Footprint
	fp            []model.Footprinter
	// cycleMarks are the marks some cycle property requires.
	cycleMarks uint32
	monitored  bool
	obsReads   model.Footprint
	// free holds idle porScratch values: a Reduction serves one goroutine
	// at a time (ForWorker gives each of the engine's goroutines its own).
	free []*porScratch
}

// Actor is one process of the composed system as the reduction sees it.
type Actor struct {
	Process model.Process
	// MainGate: the actor waits for the init process's main phase
	// (model.InitMain), as the controllers do.
	MainGate bool
	// Atomic is the atomic section the actor runs (model.AtomicProcess),
	// 0 for none.
	Atomic uint8
}

// Enabled reports whether the actor may move in s: its gate, the atomic
// section s is in, and its guard.
func (a *Actor) Enabled(u *model.Universe, s *model.State) bool {
	if a.MainGate && s.Init < model.InitMain {
		return false
	}
	if s.Atomic != 0 && a.Atomic != s.Atomic {
		return false
	}
	return a.Process.Enabled(u, s)
}

// Config is what the reduction needs to know of a composed system.
type Config struct {
	U      *model.Universe
	Actors []Actor
	// Monitored: intent monitors observe every step (the monitors read
	// pods, deployments, action marks and their own memory);
	// MonitorsReadQueues: one of them also reads the controllers' queues
	// (a quiescence condition).
	Monitored, MonitorsReadQueues bool
	// CycleMarks are the action marks some cycle property requires: a
	// step carrying one is visible.
	CycleMarks uint32
	// UnknownReads: some property reads what no footprint says (a Go
	// predicate or custom monitor); no reduction applies.
	UnknownReads bool
	// MonitorReadiness, when MonitorReadinessKnown, holds the readiness
	// components (model.Footprint.AddReadiness) the monitors read; the
	// other owners' pods' readiness is none of theirs. Unknown: every
	// owner's.
	MonitorReadiness      model.Footprint
	MonitorReadinessKnown bool
}

// New returns the reduction of a system, or nil when none applies (fewer
// than two actors or unknown reads).
func New(cfg Config) *Reduction {
	if cfg.UnknownReads || len(cfg.Actors) < 2 {
		return nil
	}
	r := &Reduction{u: cfg.U, actors: cfg.Actors, monitored: cfg.Monitored, cycleMarks: cfg.CycleMarks}
	if r.monitored {
		r.obsReads.AddPods()
		r.obsReads.AddDeployments()
		r.obsReads.Add(model.CompMarks)
		r.obsReads.Add(model.CompMonitors)
		r.obsReads.Add(model.CompFailed)
		if cfg.MonitorsReadQueues {
			r.obsReads.AddQueues()
			r.obsReads.Add(model.CompDeschedulerPending)
		}
		if cfg.MonitorReadinessKnown {
			r.obsReads.SetReadiness(cfg.MonitorReadiness)
		}
	}
	for i := range r.actors {
		a := &r.actors[i]
		fp, _ := a.Process.(model.Footprinter)
		r.fp = append(r.fp, fp)
		reads, writes := model.AllComponents(), model.AllComponents()
		if fp != nil {
			reads, writes = fp.StaticFootprint(r.u)
		}
		reads, writes = r.adjust(a, reads, writes)
		r.reads = append(r.reads, reads)
		r.writes = append(r.writes, writes)
	}
	return r
}

// adjust adds what the System adds to every step of actor a: the gate
// (init phase) and atomic-section reads, and the monitors' effect; marks
// are not state, so they only matter through the monitors.
func (r *Reduction) adjust(a *Actor, reads, writes model.Footprint) (model.Footprint, model.Footprint) {
	reads.Add(model.CompAtomic)
	if a.MainGate {
		reads.Add(model.CompInit)
	}
	if r.monitored && writes.Intersects(r.obsReads) {
		reads.Union(r.obsReads)
		writes.Add(model.CompMonitors)
		writes.Add(model.CompFailed)
	}
	writes[0] &^= 1 << model.CompMarks
	return reads, writes
}

// StaticFootprint is what actor i may read and write in any state, with
// what the composition adds (gate, atomic section, monitors).
func (r *Reduction) StaticFootprint(i int) (reads, writes model.Footprint) {
	return r.reads[i], r.writes[i]
}

// StepFootprint is what actor i's steps read and write at s, where it is
// enabled, with what the composition adds.
func (r *Reduction) StepFootprint(i int, s *model.State) (reads, writes model.Footprint) {
	reads, writes = model.AllComponents(), model.AllComponents()
	if fp := r.fp[i]; fp != nil {
		reads, writes = fp.StepFootprint(r.u, s)
	}
	return r.adjust(&r.actors[i], reads, writes)
}

// Enabled reports whether actor i may move in s.
func (r *Reduction) Enabled(i int, s *model.State) bool { return r.actors[i].Enabled(r.u, s) }

// DisabledBy is what keeps actor i, disabled at s, disabled.
func (r *Reduction) DisabledBy(i int, s *model.State) model.Footprint {
	a := &r.actors[i]
	var f model.Footprint
	switch {
	case a.MainGate && s.Init < model.InitMain:
		f.Add(model.CompInit)
	case s.Atomic != 0 && a.Atomic != s.Atomic:
		f.Add(model.CompAtomic)
	case r.fp[i] != nil:
		f = r.fp[i].DisabledBy(r.u, s)
	default:
		f = model.AllComponents()
	}
	return f
}

// MayReduce (checker.AmpleFilter) reports whether some stubborn set of s leaves out an enabled
// actor (visibility aside, which needs the successors): the engine
// collects successors for ample only then.
func (r *Reduction) MayReduce(s *model.State) bool {
	if s.Failed != model.NoFailure {
		return false
	}
	// Most states enable one actor (inside an atomic section, only its
	// owner): count before taking a scratch.
	if s.Atomic != 0 {
		// Only the section's owners may move: one owner, nothing to
		// reduce, and no guard to evaluate.
		owners := 0
		for i := range r.actors {
			if r.actors[i].Atomic == s.Atomic {
				owners++
			}
		}
		if owners < 2 {
			return false
		}
	}
	// Each guard once, into a stack buffer for the usual actor counts.
	var onBuf [32]bool
	on := onBuf[:0]
	n := 0
	for i := range r.actors {
		e := r.actors[i].Enabled(r.u, s)
		on = append(on, e)
		if e {
			n++
		}
	}
	if n < 2 {
		return false
	}
	sc := r.scratchFor(len(r.actors))
	defer r.put(sc)
	copy(sc.enabled, on)
	r.stepFootprints(s, sc)
	for start := range sc.enabled {
		if sc.enabled[start] && r.closure(s, sc, start, n) && sc.enabledIn < n {
			return true
		}
	}
	return false
}

// porScratch is one state's working set.
type porScratch struct {
	enabled, visible, inT []bool
	count                 []int
	stepR, stepW          []model.Footprint
	// disabledBy[i] is DisabledBy(i, s) once known (known[i]): the
	// closures grown from each enabled actor meet the same disabled ones.
	disabledBy   []model.Footprint
	known        []bool
	stack, later []int
	enabledIn    int // enabled actors in inT after closure
}

// ForWorker returns the same reduction with its own scratch, for one
// goroutine.
func (r *Reduction) ForWorker() *Reduction {
	d := *r
	d.free = nil
	return &d
}

func (r *Reduction) put(sc *porScratch) { r.free = append(r.free, sc) }

// scratchFor returns a cleared scratch for A actors.
func (r *Reduction) scratchFor(A int) *porScratch {
	if n := len(r.free); n > 0 {
		sc := r.free[n-1]
		r.free = r.free[:n-1]
		clear(sc.enabled)
		clear(sc.visible)
		clear(sc.count)
		clear(sc.known)
		return sc
	}
	return &porScratch{
		enabled: make([]bool, A), visible: make([]bool, A), inT: make([]bool, A),
		count: make([]int, A), stepR: make([]model.Footprint, A), stepW: make([]model.Footprint, A),
		disabledBy: make([]model.Footprint, A), known: make([]bool, A),
		stack: make([]int, 0, A), later: make([]int, 0, A),
	}
}

func (r *Reduction) stepFootprints(s *model.State, sc *porScratch) {
	for i, en := range sc.enabled {
		if en {
			sc.stepR[i], sc.stepW[i] = r.StepFootprint(i, s)
		}
	}
}

// closure computes the stubborn set grown from actor start into sc.inT;
// it reports false when the set takes in a visible enabled actor. Once
// the set holds every one of the n enabled actors it reduces nothing,
// and closure stops there (reporting true, sc.enabledIn == n): the
// callers skip such a set whatever else it would take in. The enabled
// actors the set takes in are grown from first, so that a set bound to
// take in every enabled actor gets there before the DisabledBy of the
// disabled ones is computed.
func (r *Reduction) closure(s *model.State, sc *porScratch, start, n int) bool {
	if sc.visible[start] {
		return false
	}
	clear(sc.inT)
	sc.inT[start] = true
	sc.enabledIn = 1
	if n == 1 {
		return true
	}
	// Two stacks: enabled actors are grown from before disabled ones.
	stack := append(sc.stack[:0], start)
	later := sc.later[:0]
	defer func() { sc.stack, sc.later = stack[:0], later[:0] }()
	for len(stack) > 0 || len(later) > 0 {
		var x int
		if len(stack) > 0 {
			x, stack = stack[len(stack)-1], stack[:len(stack)-1]
		} else {
			x, later = later[len(later)-1], later[:len(later)-1]
		}
		var rx, wx, d model.Footprint
		en := sc.enabled[x]
		if en {
			rx, wx = sc.stepR[x], sc.stepW[x]
		} else {
			if !sc.known[x] {
				sc.disabledBy[x], sc.known[x] = r.DisabledBy(x, s), true
			}
			d = sc.disabledBy[x]
		}
		for y := range sc.inT {
			if sc.inT[y] {
				continue
			}
			if en {
				if !wx.Intersects(r.reads[y]) && !wx.Intersects(r.writes[y]) && !rx.Intersects(r.writes[y]) {
					continue
				}
			} else if !d.Intersects(r.writes[y]) {
				continue
			}
			sc.inT[y] = true
			if !sc.enabled[y] {
				later = append(later, y)
				continue
			}
			if sc.visible[y] {
				return false
			}
			if sc.enabledIn++; sc.enabledIn == n {
				return true
			}
			stack = append(stack, y)
		}
	}
	return true
}

// Ample (checker.AmpleSetter) returns the successors of the smallest
// valid stubborn set, or nil.
func (r *Reduction) Ample(s *model.State, succ []checker.Successor[*model.State]) []int {
	best, n := r.pick(s, succ)
	if best == nil {
		return nil
	}
	sel := make([]int, 0, n)
	for i, x := range succ {
		if best[x.Step.Actor] {
			sel = append(sel, i)
		}
	}
	return sel
}

// StubbornSet returns the stubborn set whose enabled actors' successors
// Ample returns, disabled actors included, indexed by actor; nil when
// Ample returns nil. Tests check the stubborn-set conditions on the
// states themselves against it: no sequence of steps of actors outside
// the set enables a disabled actor of it, disables an enabled one, or
// fails to commute with one.
func (r *Reduction) StubbornSet(s *model.State, succ []checker.Successor[*model.State]) []bool {
	best, _ := r.pick(s, succ)
	return best
}

// pick returns the smallest valid stubborn set of s (by successors) and
// its number of successors, or nil.
func (r *Reduction) pick(s *model.State, succ []checker.Successor[*model.State]) ([]bool, int) {
	A := len(r.actors)
	sc := r.scratchFor(A)
	defer r.put(sc)
	nEnabled := 0
	for _, x := range succ {
		a := int(x.Step.Actor)
		if a >= A {
			return nil, 0
		}
		if !sc.enabled[a] {
			sc.enabled[a] = true
			nEnabled++
		}
		sc.count[a]++
		t := x.State
		if t.Failed != s.Failed || t.FailedArg != s.FailedArg || x.Step.Marks&r.cycleMarks != 0 {
			sc.visible[a] = true
		}
	}
	if nEnabled < 2 {
		return nil, 0
	}
	r.stepFootprints(s, sc)
	var best []bool
	bestCount := len(succ)
	for start := range A {
		if !sc.enabled[start] || !r.closure(s, sc, start, nEnabled) || sc.enabledIn == nEnabled {
			continue
		}
		n := 0
		for i := range A {
			if sc.inT[i] && sc.enabled[i] {
				n += sc.count[i]
			}
		}
		if n < bestCount {
			best, bestCount = append(best[:0], sc.inT...), n
		}
	}
	return best, bestCount
}

var (
	_ checker.AmpleSetter[*model.State] = (*Reduction)(nil)
	_ checker.AmpleFilter[*model.State] = (*Reduction)(nil)
)
