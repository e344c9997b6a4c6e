package compose

import (
	"context"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/report"
)

// A verification runs in up to three phases: the quick pass, the
// depth-first phase (deep.go) when a probe shows the exhaustive search
// to be large, and the exhaustive search; a probe runs between the
// quick pass's first glance and the rest of it. The quick pass keeps
// nodes in place (its tie-break reads their indices), so on clusters of
// alike nodes it may be thousands of times larger than the exhaustive
// search, which symmetry reduces (a 20-node input of ~200 canonical
// states took the quick pass 180 000 states and 8 s). When its first
// glance (glanceStates, glanceBudget) neither finishes nor finds a
// violation, the probe runs the exhaustive search within
// DefaultProbeStates and probeBudget; when that finishes, or finds a
// violation (the first one a breadth-first search finds is a shortest
// counterexample), its verdicts are final and nothing else runs; when it
// shows the exhaustive search to be large, the depth-first phase, if on,
// takes the rest of the quick pass's time. The
// quick pass explores the cluster with the scheduler taking the lowest-index node among equally
// scored ones (Kivi's tie-break, one of the choices the real scheduler
// may make) and the commands that precede the controllers (the
// Deployments' creation) run in the order written, as one `kubectl apply
// -f` runs them, rather than in every order (model.Options.FirstInOrder):
// that cuts the interleavings of a large cluster by orders of magnitude
// (n Deployments have n! creation orders), and every violation it finds
// is on a real path of the full model, so it is reported as found. Only
// the searches that branch over every tie (the exhaustive search, or a
// depth-first search of the depth-first phase that explores everything)
// can show that an intent holds. Once the quick pass or the depth-first
// phase has found a violation, the exhaustive search looks for a shortest
// counterexample for at most ShortenFor; what it finds replaces the quick
// pass's trace (the quick pass's steps drain the scheduling queue at
// once, so its trace length bounds nothing in the full model). Asked to
// settle every intent (CollectAll), the exhaustive search has the whole
// run's budget: the intents the quick pass did not break are its to
// settle. A loop intent the exhaustive search left Unknown because its
// lasso, found up to symmetry, has no concrete run is searched for once
// more without symmetry (settleUnreplayable).

// DefaultShortenFor is how long the exhaustive search looks for a shorter
// counterexample after the quick pass found one, when Options.ShortenFor
// is 0.
const DefaultShortenFor = time.Second

// DefaultProbeStates bounds the probe (the exhaustive search's first
// run) when Options.ProbeStates is 0: about a second at the rates of a
// 20-node cluster (docs/performance.md).
const DefaultProbeStates = 100_000

// probeBudget is the time the probe may take: a fifth of the timeout, at
// most two seconds.
func probeBudget(timeout time.Duration) time.Duration {
	if timeout > 0 {
		return max(min(timeout/5, 2*time.Second), time.Nanosecond) // 0 would be no bound
	}
	return 2 * time.Second
}

// glanceStates and glanceBudget bound the quick pass's first glance,
// which tells a quick pass that finishes at once (most inputs: tens of
// states) from one that does not.
const glanceStates = 10_000

func glanceBudget(quick time.Duration) time.Duration { return min(quick, 500*time.Millisecond) }

// quickBudget is the share of the run the quick pass may take: a quarter
// of the timeout, or ten seconds without one.
func quickBudget(timeout time.Duration) time.Duration {
	if timeout > 0 {
		return max(timeout/4, min(timeout, time.Second))
	}
	return 10 * time.Second
}

// Check verifies the problem: the quick pass first when the problem has
// one, then the depth-first phase when the exhaustive search is large,
// then the exhaustive search (see the comment at the top of phases.go),
// and last, when a loop found up to symmetry did not replay concretely, a
// search without symmetry for those intents (settleUnreplayable).
// opts.Timeout bounds them together.
func (p *Problem) Check(ctx context.Context, opts checker.Options) (*report.Report, error) {
	start := time.Now()
	r, err := p.check(ctx, opts)
	if err != nil {
		return nil, err
	}
	return p.settleUnreplayable(ctx, r, opts, start)
}

// settleUnreplayable runs the exhaustive search again without the
// symmetry reduction when r left an intent Unknown because its loop,
// found among representatives, has no concrete run
// (checker.ReasonUnreplayable): without symmetry every state is concrete,
// so that search settles the intent unless its own bounds (the time left,
// the same state and memory bounds) stop it first. Its verdicts replace
// only those Unknowns; it is recorded as its own phase. It does not run
// when the run stops at its first violation (!CollectAll) and one was
// found: that violation is the run's answer.
func (p *Problem) settleUnreplayable(ctx context.Context, r *report.Report, opts checker.Options, start time.Time) (*report.Report, error) {
	var names []string
	for _, x := range r.Results {
		if x.Verdict == checker.Unknown && x.Reason == checker.ReasonUnreplayable {
			names = append(names, x.Name)
		}
	}
	if len(names) == 0 || opts.NoSymmetry || (!opts.CollectAll && len(r.Violated()) > 0) {
		return r, nil
	}
	if opts.Timeout > 0 && time.Since(start) >= opts.Timeout {
		return r, nil
	}
	o := remaining(opts, start)
	o.NoSymmetry, o.Resumable = true, false
	plain, _, err := p.search(ctx, nil, o)
	if err != nil {
		return nil, err
	}
	markFoundBy(plain, report.PhaseSymmetryOff)
	for _, name := range names {
		if x := plain.Result(name); x != nil && x.Verdict != checker.Unknown {
			*r.Result(name) = *x
		}
	}
	r.Phases = append(r.Phases, phase(plain, report.PhaseSymmetryOff, symmetryOffDescription))
	r.Elapsed = time.Since(start)
	return r, nil
}

// check is Check's phases before settleUnreplayable.
func (p *Problem) check(ctx context.Context, opts checker.Options) (*report.Report, error) {
	if p.quick == nil {
		r, err := p.checkOnce(ctx, opts)
		if err == nil {
			r.Phases = []report.Phase{phase(r, report.PhaseExhaustive, exhaustiveDescription)}
			if len(r.Hints) == 0 && budgetEnded(r) {
				r.Hints = append(r.Hints, sizeHint(p.System.U))
			}
		}
		return r, err
	}
	start := time.Now()
	qp, err := p.quick()
	if err != nil {
		return nil, err
	}
	qopts := opts
	qopts.Timeout = quickBudget(opts.Timeout)
	// The glance is shorter than the quick pass unless the caller's
	// bounds are tighter still (then it is the quick pass).
	gopts := qopts
	if p.probeStates >= 0 {
		gopts.Timeout = glanceBudget(qopts.Timeout)
		if g := p.glance(); qopts.MaxStates == 0 || qopts.MaxStates > g {
			gopts.MaxStates = g
		}
	}
	glance := gopts.Timeout != qopts.Timeout || gopts.MaxStates != qopts.MaxStates
	quick, err := qp.checkOnce(ctx, gopts)
	if err != nil {
		return nil, err
	}
	probed, large := false, false
	// probeTook is how long the probe's exhaustive search ran.
	var probeTook time.Duration
	// cont is the probe's exhaustive search, which the exhaustive phase
	// goes on with instead of exploring its states again.
	var cont *continuation
	defer func() { cont.Release() }()
	if glance && !quick.Complete && len(quick.Violated()) == 0 {
		var r *report.Report
		probeStart := time.Now()
		r, large, cont, err = p.probe(ctx, opts)
		probeTook = time.Since(probeStart)
		if err != nil {
			return nil, err
		}
		if r != nil {
			r.Elapsed = time.Since(start)
			return r, nil
		}
		probed = p.probes(opts)
		// The rest of the quick pass runs unless the depth-first phase
		// follows: once the exhaustive search is large, the quick pass,
		// which symmetry does not reduce, is larger still, and a
		// breadth-first search of it reaches no deeper than its glance
		// did; the depth-first phase searches deep in the whole model
		// instead, and its time would be the quick pass's.
		if !(large && p.deepPhase(opts)) {
			if quick, err = qp.checkOnce(ctx, qopts); err != nil {
				return nil, err
			}
		}
	}
	quickPhase := phase(quick, report.PhaseQuick, quickDescription)
	phases := []report.Phase{quickPhase}
	markFoundBy(quick, report.PhaseQuick)
	found := len(quick.Violated()) > 0

	// The depth-first phase (deep.go) runs once a probe has shown the
	// exhaustive search to be large; after a quick pass that finished
	// at once, the probe runs now.
	var deep *report.Report
	if p.deepPhase(opts) && (!found || opts.CollectAll) {
		if !probed && p.probes(opts) {
			var r *report.Report
			probeStart := time.Now()
			r, large, cont, err = p.probe(ctx, remaining(opts, start))
			probeTook = time.Since(probeStart)
			if err != nil {
				return nil, err
			}
			if r != nil {
				r = merge(r, opts.CollectAll, quick, nil)
				r.Phases = append(phases, r.Phases...)
				r.Elapsed = time.Since(start)
				return r, nil
			}
			probed = true
		}
		if probed && large {
			budget := deepBudget(opts.Timeout, probeTook)
			if opts.Timeout > 0 {
				budget = min(budget, opts.Timeout-time.Since(start))
			}
			var seeds int
			dopts := opts
			if dopts.MaxMemory > 0 && cont != nil {
				// The probe's states stay in memory for the exhaustive
				// phase.
				dopts.MaxMemory = max(dopts.MaxMemory-cont.MemoryInUse(), 1)
			}
			deep, seeds, err = p.deepSearch(ctx, dopts, budget)
			if err != nil {
				return nil, err
			}
			if deep != nil {
				markFoundBy(deep, report.PhaseDepthFirst)
				phases = append(phases, phase(deep, report.PhaseDepthFirst, deepDescription(seeds)))
				if settled(deep) && len(deep.Violated()) == 0 {
					deep.Phases = phases
					deep.Elapsed = time.Since(start)
					return deep, nil
				}
				found = found || len(deep.Violated()) > 0
			}
		}
	}

	fopts := remaining(opts, start)
	if found {
		shorten := p.shortenFor
		if shorten == 0 {
			shorten = DefaultShortenFor
		}
		if shorten < 0 {
			r := merge(quick, opts.CollectAll, nil, deep)
			r.Phases = phases
			r.Elapsed = time.Since(start)
			return r, nil
		}
		// Stopping at the first violation, the exhaustive search only
		// looks for a shorter trace; asked to settle every intent
		// (CollectAll), it runs as long as the run may.
		if !opts.CollectAll && (fopts.Timeout == 0 || fopts.Timeout > shorten) {
			fopts.Timeout = shorten
		}
	}
	full, _, err := p.search(ctx, cont, fopts)
	cont = nil // used up
	if err != nil {
		return nil, err
	}
	fullPhase := phase(full, report.PhaseExhaustive, exhaustiveDescription)
	markFoundBy(full, report.PhaseExhaustive)
	r := full
	if found || deep != nil {
		r = merge(full, opts.CollectAll, quick, deep)
	}
	r.Phases = append(phases, fullPhase)
	if quickPhase.Complete && quickPhase.Violations == 0 && budgetEnded(r) {
		r.Hints = append(r.Hints, tiesHint(quickPhase))
	}
	if len(r.Hints) == 0 && budgetEnded(r) {
		r.Hints = append(r.Hints, sizeHint(p.System.U))
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// glance is the state bound of the quick pass's first glance.
func (p *Problem) glance() int64 {
	if p.glanceStates > 0 {
		return p.glanceStates
	}
	return glanceStates
}

// deepPhase reports whether the depth-first phase may run under opts:
// it is on, and the search is breadth-first (a depth-first one needs no
// such phase).
func (p *Problem) deepPhase(opts checker.Options) bool {
	return p.depthFirst && opts.Strategy == checker.BFS
}

// probe runs the exhaustive search within the probe's bounds and
// returns its report when that is final: the search finished, or found a
// violation and not every intent is to be settled (opts.CollectAll). It
// returns nil when the quick pass and the exhaustive search are to run,
// and then large when a budget of the probe (states, time, memory) ended
// it rather than a bound of the model; cont, when not nil, is the search
// as the probe left it, for the exhaustive phase to go on with.
// A caller's own state bound at or below the probe's makes the probe the
// exhaustive search itself, which then runs once, after the quick pass,
// as without a probe.
func (p *Problem) probe(ctx context.Context, opts checker.Options) (final *report.Report, large bool, cont *continuation, err error) {
	if !p.probes(opts) {
		return nil, false, nil, nil
	}
	popts := opts
	popts.MaxStates = int64(p.probeBound())
	popts.Timeout = probeBudget(opts.Timeout)
	popts.Resumable = true
	r, cont, err := p.search(ctx, nil, popts)
	if err != nil {
		return nil, false, nil, err
	}
	if !r.Complete && (opts.CollectAll || len(r.Violated()) == 0) {
		return nil, budgetEnded(r), cont, nil
	}
	cont.Release()
	r.Phases = []report.Phase{phase(r, report.PhaseExhaustive, exhaustiveDescription)}
	markFoundBy(r, report.PhaseExhaustive)
	return r, false, nil, nil
}

// probeBound is the probe's state bound (Options.ProbeStates).
func (p *Problem) probeBound() int {
	if p.probeStates == 0 {
		return DefaultProbeStates
	}
	return p.probeStates
}

// probes reports whether probe runs the exhaustive search under opts: a
// probe is asked for, and the caller's own state bound is above it.
func (p *Problem) probes(opts checker.Options) bool {
	states := p.probeBound()
	return states >= 0 && (opts.MaxStates == 0 || opts.MaxStates > int64(states))
}

const (
	quickDescription       = "ties broken as Kivi does: lowest-index node, lowest pod slots; first commands in the order written"
	exhaustiveDescription  = "every tie and interleaving"
	symmetryOffDescription = "every tie and interleaving, alike nodes and pods told apart, for the loops the symmetry reduction could not replay"
)

func phase(r *report.Report, name, description string) report.Phase {
	return report.Phase{Name: name, Description: description, Stats: r.Stats, Elapsed: r.Elapsed,
		Complete: r.Complete, Violations: len(r.Violated())}
}

func markFoundBy(r *report.Report, phase string) {
	for i := range r.Results {
		if r.Results[i].Verdict == checker.Violated {
			r.Results[i].FoundBy = phase
		}
	}
}

// merge takes the exhaustive search's verdicts, and the violations of
// the other phases (the quick pass's, then the depth-first search's)
// wherever the exhaustive search did not find that intent violated: a
// violation on a real path stands whatever the other phase could not
// settle. A depth-first search that explored everything (deep.Complete)
// settles what the exhaustive search left unknown; the quick pass never
// does (it explores one choice per tie). Unless every intent was to be
// settled (collectAll), the run stops at its first violations, and the
// intents the shortening search left open are reported as such
// (ReasonStopped), not as timed out.
func merge(full *report.Report, collectAll bool, quick, deep *report.Report) *report.Report {
	violated := func(_ *report.Report, x *report.IntentResult) bool { return x.Verdict == checker.Violated }
	for i := range full.Results {
		fr := &full.Results[i]
		if fr.Verdict == checker.Violated {
			continue
		}
		if x := settledBy(fr.Name, []*report.Report{quick, deep}, violated); x != nil {
			*fr = *x
			continue
		}
		if fr.Verdict == checker.Unknown && deep != nil && deep.Complete {
			if x := deep.Result(fr.Name); x != nil && x.Verdict == checker.Holds {
				*fr = *x
				continue
			}
		}
	}
	if !collectAll && len(full.Violated()) > 0 {
		for i := range full.Results {
			if fr := &full.Results[i]; fr.Verdict == checker.Unknown && fr.Bound == "" {
				fr.Reason = checker.ReasonStopped
			}
		}
	}
	if deep != nil && deep.Complete {
		full.Complete = true
	}
	return full
}

// settledBy returns the first result named name, among the reports
// (nil ones skipped), that ok accepts.
func settledBy(name string, reps []*report.Report, ok func(*report.Report, *report.IntentResult) bool) *report.IntentResult {
	for _, o := range reps {
		if o == nil {
			continue
		}
		if x := o.Result(name); x != nil && ok(o, x) {
			return x
		}
	}
	return nil
}

// remaining is opts with the time left of a run started at start.
func remaining(opts checker.Options, start time.Time) checker.Options {
	if opts.Timeout > 0 {
		opts.Timeout = max(opts.Timeout-time.Since(start), time.Nanosecond) // 0 would be no bound
	}
	return opts
}
