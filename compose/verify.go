package compose

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/events"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
	"github.com/kivi-go/kivi/report"
)

// ErrModelBound marks a topology larger than the model holds
// (model.MaxObjects): NewProblem returns it, and BoundReport turns it
// into a report whose every intent is Unknown.
var ErrModelBound = model.ErrModelBound

// BoundReport is the report of a cluster that NewProblem found too large
// for the model (err wraps ErrModelBound): every intent it declares, and
// the built-in ones, is Unknown with err as the bound reached.
func BoundReport(c *model.Cluster, err error) *report.Report {
	bound := "model bound: " + err.Error()
	var size *model.SizeError
	if errors.As(err, &size) {
		bound = "model bound: " + size.Error()
	}
	r := &report.Report{Name: c.Name, Bound: bound}
	names := []string{}
	for _, d := range c.Intents {
		name := d.Name
		if n, ok := intents.UserName(d.Name); ok {
			name = n
		}
		names = append(names, name)
	}
	if !slices.Contains(names, "pod_always_schedulable") {
		names = append(names, "pod_always_schedulable")
	}
	for _, n := range append(names, ModelAssertion, ValidEndState) {
		r.Results = append(r.Results, report.IntentResult{Name: n, Internal: n, Verdict: checker.Unknown, Bound: bound})
	}
	return r
}

// ErrInput marks errors in what the user gave (case files, manifests,
// intents, options): the CLI exits with status 2 on them.
var ErrInput = errors.New("input error")

// Options configure a verification.
type Options struct {
	// Checker passes engine options through (workers, bounds, storage).
	Checker checker.Options
	// Intents tune how intents are checked (Kivi's eviction counter).
	Intents intents.Options
	// ExtraIntents are added to the cluster's own intents (Go users'
	// predicates and cycles).
	ExtraIntents []intents.Intent
	// Controllers are custom controllers (models of a team's own
	// operators) that run next to the built-in ones. Each is a
	// model.Process: a named, pure, deterministic transition function with
	// a guard; see docs/library.md for the contract. Node symmetry stays
	// on only if every one implements model.SymmetryBreaker.
	Controllers []model.Process
	// NoQuickPass turns off the quick pass of Problem.Check (phases.go):
	// the exhaustive search alone decides every verdict.
	NoQuickPass bool
	// NoDepthFirst turns off the depth-first phase of Problem.Check
	// (deep.go): seeded depth-first searches between the quick pass and
	// the exhaustive search, when a probe shows the exhaustive search to
	// be large.
	NoDepthFirst bool
	// ShortenFor bounds how long the exhaustive search may look for a
	// shorter counterexample once the quick pass has found a violation
	// (0: DefaultShortenFor; below 0: report the quick pass's). It is
	// within Checker.Timeout, never beyond.
	ShortenFor time.Duration
	// ProbeStates bounds the exhaustive search's first, short run, made
	// before the quick pass (phases.go): when it finishes within this
	// many states, or finds a violation, its verdicts are final and no
	// other phase runs. 0: DefaultProbeStates; below 0: no probe.
	ProbeStates int
	// NoSnapshots leaves the counterexamples' cluster snapshots
	// (report.Trace.Initial and TraceStep.Cluster) empty, for a caller
	// that reads the steps' lines only, as the text report does. A
	// snapshot draws every node and pod, once per step, so on a large
	// cluster a long trace costs more in snapshots than the search
	// itself (docs/performance.md, "Counterexamples of large clusters").
	NoSnapshots bool
	// ApplyInOrder creates the Deployments that exist before the
	// controllers start (the First-slot commands) in the order written,
	// as one `kubectl apply -f` does, in the exhaustive search too
	// (model.Options.FirstInOrder), instead of in every order. n
	// Deployments have n! creation orders, each placing their pods
	// differently, which is what makes inputs with many Deployments
	// large; with this option a verdict covers the written order only,
	// and the report says so (report.Report.Assumptions).
	ApplyInOrder bool
	// CronJobRuns assumes that a CronJob with concurrencyPolicy Allow
	// never has more runs active than this (1 or 2; 0: no assumption),
	// as model.Options.CronJobRuns; the report says so.
	CronJobRuns int
	// MergeOldRevisions lets a Deployment whose pod template changes
	// while two older revisions still have pods go on with the two merged
	// into one ReplicaSet (model.Options.MergeOldRevisions), instead of
	// the run reaching the model's bound of two ReplicaSets per
	// Deployment; the report says so.
	MergeOldRevisions bool
	// ReadyAtStart assumes that every readiness probe, readiness gate and
	// minReadySeconds is passed as the pod starts (model.Universe.ReadyAtStart):
	// the windows in which a Running pod is not yet Ready, and their
	// interleavings with everything else, are not explored; the report
	// says so.
	ReadyAtStart bool

	// quickPass marks the quick pass's own problem (phases.go).
	quickPass bool
	_         struct{}
}

// Problem is one topology ready to verify: the compiled system, the
// checker properties and the intents they came from.
type Problem struct {
	Name       string
	System     *System
	Properties checker.Properties[*model.State]
	Intents    []intents.Intent
	// quick builds the quick pass's problem (nil: no quick pass);
	// rebuild builds the same topology with other options.
	quick   func() (*Problem, error)
	rebuild func(Options) (*Problem, error)
	// twin builds the same problem again: a System serves one Check at
	// a time (its canonicaliser's and encoders' scratch), so the
	// depth-first phase gives each concurrent search its own.
	twin       func() (*Problem, error)
	shortenFor time.Duration
	// probeStates: Options.ProbeStates.
	probeStates int
	// depthFirst: not Options.NoDepthFirst.
	depthFirst bool
	// glanceStates bounds the quick pass's first glance (0:
	// glanceStates; tests set it smaller).
	glanceStates int64
	// noSnapshots: Options.NoSnapshots.
	noSnapshots bool
	// customFrom is the index of the first custom controller's actor
	// (Options.Controllers come last).
	customFrom int
}

// With returns the same topology and intents built with other options
// (reductions, phases, extra intents and controllers).
func (p *Problem) With(opts Options) (*Problem, error) { return p.rebuild(opts) }

// NewProblem builds the Problem of a cluster's original topology.
func NewProblem(c *model.Cluster, opts Options) (*Problem, error) {
	u, s, err := c.Build()
	if errors.Is(err, model.ErrModelBound) {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", c.Name, ErrInput, err)
	}
	switch {
	case len(u.Deployments) == 0 && len(u.DeploymentTemplates) == 0:
		return nil, fmt.Errorf("%s: nothing to verify: no deployment (accepted: at least one deployment or deployment template): %w", c.Name, ErrInput)
	case len(u.Nodes) == 0:
		return nil, fmt.Errorf("%s: nothing to verify: no node (accepted: at least one node): %w", c.Name, ErrInput)
	}
	return NewProblemFrom(c.Name, u, s, c.Intents, opts)
}

// withRunOptions returns u with the model options a run's Options ask
// for (one copy, or u itself when they change nothing): the creation
// order (ApplyInOrder), the CronJob runs assumed (CronJobRuns), old
// revisions merged (MergeOldRevisions), going on
// past a violation when every intent is settled
// (model.Options.ContinueAfterViolation: one intent's violation must not
// cut the runs that break another one later; not under Kivi's
// lifecycle), and the readiness delays dropped (ReadyAtStart).
func withRunOptions(u *model.Universe, opts Options) (*model.Universe, error) {
	if opts.CronJobRuns < 0 || opts.CronJobRuns > model.MaxCronJobRuns {
		return nil, fmt.Errorf("CronJobRuns %d (accepted: 0 for no assumption, or 1..%d): %w", opts.CronJobRuns, model.MaxCronJobRuns, ErrInput)
	}
	want := u.Options
	want.FirstInOrder = want.FirstInOrder || opts.ApplyInOrder
	want.MergeOldRevisions = want.MergeOldRevisions || opts.MergeOldRevisions
	if opts.CronJobRuns != 0 {
		want.CronJobRuns = opts.CronJobRuns
	}
	want.ContinueAfterViolation = want.ContinueAfterViolation || opts.Checker.CollectAll && !want.KiviLifecycle
	if want != u.Options {
		c := *u
		c.Options = want
		u = &c
	}
	if opts.ReadyAtStart {
		u = u.ReadyAtStart()
	}
	return u, nil
}

// NewProblemFrom builds a Problem from a compiled Universe and State (the
// scaling search materialises setups this way) and the intents' specs.
// pod_always_schedulable is always checked, as in Kivi.
func NewProblemFrom(name string, u *model.Universe, s *model.State, decls []model.IntentDecl, opts Options) (*Problem, error) {
	written := s
	u, err := withRunOptions(u, opts)
	if err != nil {
		return nil, err
	}
	var ins []intents.Intent
	hasSchedulable := false
	for i, d := range decls {
		in, err := intents.New(u, d.Name, intents.Params(d.Params), opts.Intents)
		if err != nil {
			return nil, fmt.Errorf("%s: intents[%d]: %w: %w", name, i, ErrInput, err)
		}
		if in.Name == "pod_always_schedulable" {
			hasSchedulable = true
		}
		ins = append(ins, in)
	}
	if !hasSchedulable {
		in, _ := intents.New(u, "pod_always_schedulable", nil, opts.Intents)
		ins = append(ins, in)
	}
	ins = append(ins, opts.ExtraIntents...)
	s = s.Clone()
	s.Init = events.InitialPhase(u)
	seedPeriodicControllers(u, s)
	sys := &System{U: u, Init: s}
	assertPanic := false
	for _, in := range ins {
		if in.Name == "no_kernel_panic" {
			assertPanic = true
		}
	}
	sys.Actors = Actors(u, s, ActorOptions{AssertKernelPanic: assertPanic})
	customFrom := len(sys.Actors)
	for _, p := range opts.Controllers {
		sys.Actors = append(sys.Actors, Actor{Process: p, Gate: GateMain})
	}
	props, err := compose(sys, ins)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", name, ErrInput, err)
	}
	if nodeSymmetric(opts) {
		facts := symmetryFacts(u, sys.Actors)
		if len(opts.Controllers) > 0 {
			// A fact has no way to promise that a custom controller
			// reads completion indexes only by their order.
			facts = append(facts, model.SymmetryFact{Rule: "CustomControllerJobIndexes", Reason: "a custom controller may read Indexed Jobs' completion indexes by value", JobIndexesByValue: true})
		}
		if opts.quickPass {
			facts = quickPassFacts(facts)
		}
		sys.Symmetry = symmetry.New(u, facts)
	}
	// Go predicates and custom monitors read what they like: no
	// partial-order reduction can know what is invisible to them.
	sys.Reduction = newReduction(sys, props, !nodeSymmetric(Options{ExtraIntents: opts.ExtraIntents}))
	p := &Problem{Name: name, System: sys, Properties: props, Intents: ins, shortenFor: opts.ShortenFor,
		probeStates: opts.ProbeStates, noSnapshots: opts.NoSnapshots, depthFirst: !opts.NoDepthFirst, customFrom: customFrom,
		rebuild: func(o Options) (*Problem, error) { return NewProblemFrom(name, u, written, decls, o) }}
	p.twin = func() (*Problem, error) { return NewProblemFrom(name, u, written, decls, opts) }
	if !opts.NoQuickPass && u.Options.TieBreak == model.BranchOnTies {
		p.quick = func() (*Problem, error) {
			qu := *u
			qu.Options.TieBreak = model.LowestIndex
			qu.Options.FirstInOrder = true
			qopts := opts
			qopts.NoQuickPass, qopts.quickPass = true, true
			return NewProblemFrom(name, &qu, written, decls, qopts)
		}
	}
	return p, nil
}

// quickPassFacts are the symmetry facts of the quick pass: those of its
// lowest-index tie-break keep the nodes in place but let pod slots move.
// Kivi's tie-break takes the lowest slots among tied pods, so two states
// that differ in slot order may then have different futures and the
// reduction may miss some of them: harmless for a pass that only looks
// for violations (whose traces are concrete runs, validated) and whose
// other verdicts the exhaustive search decides, and with slots fixed the
// pass grew from thousands of states to millions on a 20-node shape.
func quickPassFacts(facts []model.SymmetryFact) []model.SymmetryFact {
	out := make([]model.SymmetryFact, len(facts))
	for i, f := range facts {
		if f.Rule == model.LowestIndexTieBreakRule {
			f.PodSlotsInOrder = false
		}
		out[i] = f
	}
	return out
}

// checkOnce runs the engine on the problem and packages the outcome.
func (p *Problem) checkOnce(ctx context.Context, opts checker.Options) (*report.Report, error) {
	r, _, err := p.search(ctx, nil, opts)
	return r, err
}

// search runs the engine once, or goes on with cont when it is not nil
// (checker.Resume), and returns the run's Continuation when opts asks for
// one and the run can go on.
func (p *Problem) search(ctx context.Context, cont *continuation, opts checker.Options) (*report.Report, *continuation, error) {
	start := time.Now()
	// The report renders every step's lines from the trace's states,
	// naming pods across the whole run (snapshotTrace).
	opts.NoLines = true
	var res checker.Result[*model.State]
	var err error
	if cont != nil {
		res, err = checker.Resume(ctx, cont, opts)
	} else {
		res, err = checker.Check[*model.State](ctx, p.System.CheckerSystem(), p.Properties, opts)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", p.Name, err)
	}
	r := newReport(p, res, time.Since(start))
	r.Symmetry = !opts.NoSymmetry && p.System.Symmetry != nil && !p.System.Symmetry.Trivial()
	r.POR = !opts.NoPOR && p.System.Reduction != nil
	return r, res.Continuation, nil
}

// continuation is an exhaustive search cut by the probe's bounds, which
// the exhaustive phase goes on with.
type continuation = checker.Continuation[*model.State]

// Verify checks a cluster's original topology.
func Verify(ctx context.Context, c *model.Cluster, opts Options) (*report.Report, error) {
	p, err := NewProblem(c, opts)
	if err != nil {
		return nil, err
	}
	return p.Check(ctx, opts.Checker)
}

// nodeSymmetric reports whether the Go users' additions keep node
// symmetry (docs/divergences.md ("Node and pod-slot symmetry reduction")): built-in intents and cycle
// intents (whose marks name deployments) never tell nodes apart, but a
// predicate, a custom monitor or a custom controller may read any node by
// index; a custom controller that implements model.SymmetryBreaker
// declares where it does (its facts) and keeps symmetry otherwise.
func nodeSymmetric(opts Options) bool {
	for _, c := range opts.Controllers {
		// A custom controller may read nodes or pod slots by index,
		// unless it declares its symmetry facts (none: it never does).
		if _, ok := c.(model.SymmetryBreaker); !ok {
			return false
		}
	}
	for _, in := range opts.ExtraIntents {
		if in.Kind == intents.Predicate || in.Kind == intents.Monitor {
			return false
		}
	}
	return true
}

// seedPeriodicControllers queues every deployment for the HPA and requests
// a descheduling cycle, as Kivi's init process does once the controllers
// have started: the periodic controllers look at the cluster at least once
// even if nothing changes.
func seedPeriodicControllers(u *model.Universe, s *model.State) {
	if u.HasHPA {
		for d := range s.Deps {
			s.Enqueue(model.HPAQueue, d)
		}
	}
	if u.Descheduler != nil {
		s.DeschedulerPending = true
	}
}
