package compose

import (
	"fmt"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/por"
	"github.com/kivi-go/kivi/reduction/symmetry"
	"github.com/kivi-go/kivi/tracenames"
)

// Gate says when an actor may move, by the init process's phase (Kivi's
// start-up sequence: First commands, then the controllers and Main events,
// then the after-stable events).
type Gate uint8

const (
	// GateAlways: the init process itself and First-slot events (which
	// gate themselves).
	GateAlways Gate = iota
	// GateMain: controllers, enabled once the First commands have run.
	GateMain
)

// Actor is one process of the System with its gate.
type Actor struct {
	Process model.Process
	Gate    Gate
}

// Observer is updated after every step with the new state; tx carries the
// step's action marks and, when tracing, collects the observer's lines.
// Intent monitors are observers (a synchronous product with the cluster):
// their memory is part of the state, but they add no interleavings.
type Observer interface {
	Observe(tx *model.Tx, s *model.State)
}

// System is the cluster model as a checker.System: a Universe, the
// initial State, the actors and the observers. It keeps scratch memory
// (decoded states, Next's transition context, the scheduler's remembered
// decisions, the reductions' buffers), so one System serves one goroutine
// at a time: the engine gives each of its goroutines its own
// (checker.WorkerSystem, ForWorker).
type System struct {
	// states are decoded states the engine released, for Decode to reuse;
	// scratches are idle Next scratch spaces.
	states    []*model.State
	scratches []*scratchSpace
	// guards caches guarded.
	guards []por.Actor
	// represented is the last representative DecodeRepresentative
	// returned, while it is not released or decoded into again, and
	// representedOrbits its node orbits, which its encoding carried.
	represented       *model.State
	representedOrbits []int
	// nodeOrbits is Symmetry.NodeOrbits as a func value, made once: a
	// method value made per expansion escapes into the Tx and costs an
	// allocation each time.
	nodeOrbits model.NodeOrbits

	U         *model.Universe
	Init      *model.State
	Actors    []Actor
	Observers []Observer
	// Symmetry, when set and not trivial, makes CheckerSystem offer node
	// symmetry reduction (checker.Canonicalizer) to the engine.
	Symmetry *symmetry.Canonicalizer
	// Reduction, when set, makes CheckerSystem offer partial-order
	// reduction (checker.AmpleSetter) to the engine (reduction/por).
	Reduction *por.Reduction
	// marks gives the marks the cycle intents watch their bits of
	// checker.Step.Marks (marks.go).
	marks markTable
}

// symmetricSystem is a System that is also a checker.Canonicalizer: the
// engine stores one representative per orbit of interchangeable nodes
// and explores the representatives (checker.RepresentativeEncoder);
// traces are still concrete runs (checker.Options.NoSymmetry turns it
// off).
type symmetricSystem struct{ *System }

var _ checker.Canonicalizer[*model.State] = symmetricSystem{}

// Canonical returns the representative of s's orbit.
func (sys symmetricSystem) Canonical(s *model.State) *model.State { return sys.Symmetry.Canonical(s) }

// NextUpToSymmetry emits the successors of s with one branch per orbit
// of interchangeable nodes (checker.SymmetricSuccessors): the branches it
// leaves out have the canonical form of one it emits.
func (sys symmetricSystem) NextUpToSymmetry(s *model.State, emit func(checker.Step, *model.State)) {
	sys.next(s, emit, true)
}

// AppendCanonical appends the encoding of s's representative
// (checker.CanonicalEncoder).
func (sys symmetricSystem) AppendCanonical(dst []byte, s *model.State) []byte {
	return sys.Symmetry.AppendCanonical(dst, s)
}

// ExploreRepresentatives: the engine explores representatives where a
// state and its representative step to states with the same keys
// (symmetry.Canonicalizer.ExactRepresentatives).
func (sys symmetricSystem) ExploreRepresentatives() bool { return sys.Symmetry.ExactRepresentatives() }

// AppendRepresentative appends the encoding of s's representative to
// key and, to enc, that encoding followed by the representative's node
// orbits (checker.RepresentativeEncoder): the engine then explores
// representatives, and their expansion, which branches over one node per
// orbit, need not compute the orbits again.
func (sys symmetricSystem) AppendRepresentative(key, enc []byte, s *model.State) ([]byte, []byte) {
	return sys.Symmetry.AppendRepresentative(key, enc, s)
}

// DecodeRepresentative decodes an encoding of AppendRepresentative: the
// state, whose orbits the System keeps for its expansion.
func (sys symmetricSystem) DecodeRepresentative(enc []byte) (*model.State, error) {
	state, orbits, err := sys.Symmetry.SplitRepresentative(enc, sys.representedOrbits)
	sys.representedOrbits = orbits
	if err != nil {
		return nil, err
	}
	s, err := sys.Decode(state)
	if err != nil {
		return nil, err
	}
	sys.represented = s
	return s, nil
}

// ForWorker returns a System of the same model with its own scratch
// memory and its own copies of the actors that keep some
// (model.WorkerLocal) and of the reductions, for one goroutine.
func (sys *System) ForWorker() *System {
	w := &System{U: sys.U, Init: sys.Init, Observers: sys.Observers, marks: sys.marks}
	w.Actors = make([]Actor, len(sys.Actors))
	for i, a := range sys.Actors {
		if wl, ok := a.Process.(model.WorkerLocal); ok {
			a.Process = wl.ForWorker()
		}
		w.Actors[i] = a
	}
	if sys.Symmetry != nil {
		w.Symmetry = sys.Symmetry.ForWorker()
	}
	if sys.Reduction != nil {
		w.Reduction = sys.Reduction.ForWorker()
	}
	return w
}

// CheckerSystem is the system to hand to checker.Check: sys itself, or
// sys with its symmetry reduction when some nodes or pods are
// interchangeable, and with its partial-order reduction when it has one.
// checker.Options.NoSymmetry and NoPOR switch either off.
func (sys *System) CheckerSystem() checker.System[*model.State] {
	sym := sys.Symmetry != nil && !sys.Symmetry.Trivial()
	switch {
	case sym && sys.Reduction != nil:
		return symmetricReducedSystem{symmetricSystem{sys}, sys.Reduction}
	case sym:
		return symmetricSystem{sys}
	case sys.Reduction != nil:
		return reducedSystem{sys, sys.Reduction}
	}
	return plainSystem{sys}
}

// The forms of CheckerSystem, each a checker.WorkerSystem whose workers
// get the same form around their own System.
type plainSystem struct{ *System }

func (sys plainSystem) ForWorker() checker.System[*model.State] {
	return plainSystem{sys.System.ForWorker()}
}

func (sys symmetricSystem) ForWorker() checker.System[*model.State] {
	return symmetricSystem{sys.System.ForWorker()}
}

func (sys reducedSystem) ForWorker() checker.System[*model.State] {
	w := sys.System.ForWorker()
	return reducedSystem{w, w.Reduction}
}

func (sys symmetricReducedSystem) ForWorker() checker.System[*model.State] {
	w := sys.System.ForWorker()
	return symmetricReducedSystem{symmetricSystem{w}, w.Reduction}
}

var (
	_ checker.System[*model.State]    = (*System)(nil)
	_ checker.Explainer[*model.State] = (*System)(nil)
	_ checker.Copier[*model.State]    = (*System)(nil)
)

// Initial emits the initial state.
func (sys *System) Initial(emit func(*model.State)) {
	s := sys.Init.Clone()
	tx := model.NewTx(sys.U)
	tx.Begin(nil, false)
	for _, o := range sys.Observers {
		o.Observe(tx, s)
	}
	emit(s)
}

// guarded lists the actors as their guards see them (por.Actor: the gate,
// the atomic section of a model.AtomicProcess, the process), found once:
// states inside a section ask it of every actor, and an interface
// assertion per actor and state showed in profiles. The actors must not
// change once the System is in use.
func (sys *System) guarded() []por.Actor {
	if sys.guards == nil {
		sys.guards = make([]por.Actor, len(sys.Actors))
		for i, a := range sys.Actors {
			g := por.Actor{Process: a.Process, MainGate: a.Gate == GateMain}
			if ap, ok := a.Process.(model.AtomicProcess); ok {
				g.Atomic = ap.AtomicID()
			}
			sys.guards[i] = g
		}
	}
	return sys.guards
}

// enabled reports whether actor i may move in s: its gate, the atomic
// section s is in, and its guard.
func (sys *System) enabled(i int, s *model.State) bool {
	return sys.guarded()[i].Enabled(sys.U, s)
}

// Next emits every successor of s: for each enabled actor in order, every
// combination of its choices in depth-first order. Step.Choice is the
// combination's rank in that order, so replay re-runs the enumeration.
func (sys *System) Next(s *model.State, emit func(checker.Step, *model.State)) {
	sys.next(s, emit, false)
}

// upToSymmetry is the bit of Step.Choice that says the choices were
// enumerated with one node per orbit (NextUpToSymmetry): Replay must
// enumerate them the same way.
const upToSymmetry = 1 << 31

// next is Next; with orbits, choices among nodes take one node per orbit
// of s under its symmetries (model.Tx.ChooseNode, model.Tx.ChoosePods).
func (sys *System) next(s *model.State, emit func(checker.Step, *model.State), orbits bool) {
	// A failure ends the run, except an unschedulable pod's under
	// Kubernetes' lifecycle: that state's successors are those of the
	// state without the failure (unschedulable.go).
	resume := false
	if s.Failed != model.NoFailure {
		if !sys.U.ContinuesAfterFailure(s) {
			return
		}
		resume = true
	}
	sc := sys.scratch()
	defer func() { sys.scratches = append(sys.scratches, sc) }()
	tx, next := sc.tx, sc.next
	var flag uint32
	tx.SetNodeOrbits(nil, nil)
	if orbits {
		if sys.nodeOrbits == nil {
			sys.nodeOrbits = sys.Symmetry.NodeOrbits
		}
		if s == sys.represented {
			tx.SetKnownNodeOrbits(sys.nodeOrbits, s, sys.representedOrbits)
		} else {
			tx.SetNodeOrbits(sys.nodeOrbits, s)
		}
		flag = upToSymmetry
	}
	for i := range sys.Actors {
		a := &sys.Actors[i]
		if !sys.enabled(i, s) {
			continue
		}
		tx.Begin(nil, false)
		for rank := uint32(0); ; rank++ {
			// Derived: next's encoding copies the pods it shares with s.
			s.DeriveInto(next)
			if resume {
				sys.resume(s, next)
			}
			a.Process.Step(tx, next)
			if len(sys.marks.scaled) > 0 {
				sys.marks.markScaling(tx, s, next)
			}
			for _, o := range sys.Observers {
				o.Observe(tx, next)
			}
			var marks uint32
			if len(tx.Marks) > 0 {
				marks = sys.marks.bits(tx.Marks)
			}
			emit(checker.Step{Actor: uint16(i), Choice: rank | flag, Marks: marks}, next)
			if !tx.Advance() {
				break
			}
			tx.Restart(false)
		}
	}
}

// Replay re-executes one step from s with tracing on and returns the
// successor and the step's trace lines.
func (sys *System) Replay(s *model.State, step checker.Step) (*model.State, []model.Line, error) {
	if int(step.Actor) >= len(sys.Actors) {
		return nil, nil, fmt.Errorf("replay: actor %d of %d: %w", step.Actor, len(sys.Actors), model.ErrInvalid)
	}
	a := &sys.Actors[step.Actor]
	if (s.Failed != model.NoFailure && !sys.U.ContinuesAfterFailure(s)) || !sys.enabled(int(step.Actor), s) {
		return nil, nil, fmt.Errorf("replay: %s is not enabled: %w", a.Process.Name(), model.ErrInvalid)
	}
	tx := model.NewTx(sys.U)
	choice := step.Choice
	if choice&upToSymmetry != 0 {
		if sys.Symmetry == nil {
			return nil, nil, fmt.Errorf("replay: a step enumerated up to symmetry in a system without symmetry: %w", model.ErrInvalid)
		}
		tx.SetNodeOrbits(sys.Symmetry.NodeOrbits, s)
		choice &^= upToSymmetry
	}
	tx.Begin(nil, true)
	for rank := uint32(0); ; rank++ {
		next := s.Clone()
		sys.resume(s, next)
		a.Process.Step(tx, next)
		if rank == choice {
			if len(sys.marks.scaled) > 0 {
				sys.marks.markScaling(tx, s, next)
			}
			for _, o := range sys.Observers {
				o.Observe(tx, next)
			}
			return next, append([]model.Line(nil), tx.Lines...), nil
		}
		if !tx.Advance() {
			return nil, nil, fmt.Errorf("replay: %s has no choice %d: %w", a.Process.Name(), step.Choice, model.ErrInvalid)
		}
		tx.Restart(true)
	}
}

// Explain renders the lines a step prints (checker.Explainer). It sees
// one step, so its pod names hold within the step only; reports name the
// pods of a whole trace (snapshotTrace).
func (sys *System) Explain(s *model.State, step checker.Step) []checker.Line {
	next, lines, err := sys.Replay(s, step)
	if err != nil {
		return []checker.Line{{Component: "internal error", Message: err.Error()}}
	}
	nm := tracenames.New(sys.U)
	nm.Advance(s, false)
	lines = nm.Step(next, sys.ActorName(step) != deploymentActor, lines)
	out := make([]checker.Line, len(lines))
	for i, l := range lines {
		out[i] = checker.Line{Component: l.Component, Message: l.Message}
	}
	return out
}

// ActorName names the actor of a step, for traces and statistics.
func (sys *System) ActorName(step checker.Step) string {
	if int(step.Actor) < len(sys.Actors) {
		return sys.Actors[step.Actor].Process.Name()
	}
	return fmt.Sprintf("actor %d", step.Actor)
}

// AppendEncoding appends the canonical encoding of s.
func (sys *System) AppendEncoding(dst []byte, s *model.State) []byte {
	return s.AppendEncoding(sys.U, dst)
}

// Decode rebuilds a state from its encoding, reusing a state that the
// engine released.
func (sys *System) Decode(enc []byte) (*model.State, error) {
	var s *model.State
	if n := len(sys.states); n > 0 {
		s = sys.states[n-1]
		sys.states = sys.states[:n-1]
	} else {
		s = &model.State{}
	}
	if s == sys.represented {
		sys.represented = nil
	}
	if err := model.DecodeInto(s, sys.U, len(sys.Init.Monitors), enc); err != nil {
		return nil, err
	}
	return s, nil
}

// Release takes back a decoded state once the engine has expanded it
// (checker.Releaser): decoding is the one allocation per expansion, and
// reusing states takes it off the hot path.
func (sys *System) Release(s *model.State) {
	if s == sys.represented {
		sys.represented = nil
	}
	sys.states = append(sys.states, s)
}

// CopyState copies a successor for the engine (checker.Copier), reusing
// dst's slices.
func (sys *System) CopyState(dst, src *model.State) *model.State {
	if dst == nil {
		dst = &model.State{}
	}
	src.CopyTo(dst)
	return dst
}

// scratchSpace is what one Next call works in: a transition context and
// the successor it builds (emit must not retain it, so one suffices).
type scratchSpace struct {
	tx   *model.Tx
	next *model.State
}

func (sys *System) scratch() *scratchSpace {
	if n := len(sys.scratches); n > 0 {
		sc := sys.scratches[n-1]
		sys.scratches = sys.scratches[:n-1]
		return sc
	}
	return &scratchSpace{tx: model.NewTx(sys.U), next: &model.State{}}
}

// ValidEnd reports whether every actor that can be stuck may rest in s
// (Kivi's valid end states); when one may not, it names it, with what it
// waits for when it can say (model.StuckExplainer).
func (sys *System) ValidEnd(s *model.State) (bool, string) {
	for _, a := range sys.Actors {
		if ec, ok := a.Process.(model.EndChecker); ok && !ec.ValidEnd(sys.U, s) {
			who := a.Process.Name()
			if se, ok := a.Process.(model.StuckExplainer); ok {
				if why := se.StuckReason(sys.U, s); why != "" {
					who += " (" + why + ")"
				}
			}
			return false, who
		}
	}
	return true, ""
}

// reducedSystem offers the partial-order reduction to the engine
// (checker.AmpleSetter, checker.AmpleFilter); symmetricReducedSystem
// offers both reductions.
type (
	reducedSystem struct {
		*System
		*por.Reduction
	}
	symmetricReducedSystem struct {
		symmetricSystem
		*por.Reduction
	}
)

var (
	_ checker.WorkerSystem[*model.State]  = plainSystem{}
	_ checker.WorkerSystem[*model.State]  = symmetricSystem{}
	_ checker.WorkerSystem[*model.State]  = reducedSystem{}
	_ checker.WorkerSystem[*model.State]  = symmetricReducedSystem{}
	_ checker.AmpleSetter[*model.State]   = reducedSystem{}
	_ checker.AmpleFilter[*model.State]   = reducedSystem{}
	_ checker.AmpleSetter[*model.State]   = symmetricReducedSystem{}
	_ checker.AmpleFilter[*model.State]   = symmetricReducedSystem{}
	_ checker.Canonicalizer[*model.State] = symmetricReducedSystem{}
)

// newReduction returns the partial-order reduction of sys for the given
// properties, or nil when none applies; unknownReads: some property reads
// what no footprint declares.
func newReduction(sys *System, props checker.Properties[*model.State], unknownReads bool) *por.Reduction {
	cfg := por.Config{U: sys.U, Monitored: len(sys.Observers) > 0, UnknownReads: unknownReads}
	for _, c := range props.Cycles {
		cfg.CycleMarks |= c.Require
	}
	for _, o := range sys.Observers {
		if w, ok := o.(*watchObserver); ok && w.in.ReadsQuiescence {
			cfg.MonitorsReadQueues = true
		}
	}
	cfg.MonitorReadiness, cfg.MonitorReadinessKnown = monitorReadiness(sys.Observers)
	cfg.Actors = sys.guarded()
	return por.New(cfg)
}
