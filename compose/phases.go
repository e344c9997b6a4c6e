package compose

import (
	"context"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/report"
)

// A verification runs in up to two phases, with a probe between the
// quick pass's first glance and the rest of it. The quick pass keeps
// nodes in place (its tie-break reads their indices), so on clusters of
// alike nodes it may be thousands of times larger than the exhaustive
// search, which symmetry reduces (a 20-node input of ~200 canonical
// states took the quick pass 180 000 states and 8 s). When its first
// glance (glanceStates, glanceBudget) neither finishes nor finds a
// violation, the probe runs the exhaustive search within
// DefaultProbeStates and probeBudget; when that finishes, or finds a
// violation (the first one a breadth-first search finds is a shortest
// counterexample), its verdicts are final and nothing else runs. The quick pass explores the
// cluster with the scheduler taking the lowest-index node among equally
// scored ones (Kivi's tie-break, one of the choices the real scheduler
// may make) and the commands that precede the controllers (the
// Deployments' creation) run in the order written, as one `kubectl apply
// -f` runs them, rather than in every order (model.Options.FirstInOrder):
// that cuts the interleavings of a large cluster by orders of magnitude
// (n Deployments have n! creation orders), and every violation it finds
// is on a real path of the full model, so it is reported as found. Only the exhaustive search, which
// branches over every tie, can show that an intent holds. Once the quick
// pass has found a violation, the exhaustive search looks for a shortest
// counterexample for at most ShortenFor; what it finds replaces the quick
// pass's trace (the quick pass's steps drain the scheduling queue at
// once, so its trace length bounds nothing in the full model). Asked to
// settle every intent (CollectAll), the exhaustive search has the whole
// run's budget: the intents the quick pass did not break are its to
// settle.

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
// one, then the exhaustive search (see the comment at the top of
// phases.go). opts.Timeout bounds both together.
func (p *Problem) Check(ctx context.Context, opts checker.Options) (*report.Report, error) {
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
		if qopts.MaxStates == 0 || qopts.MaxStates > glanceStates {
			gopts.MaxStates = glanceStates
		}
	}
	glance := gopts.Timeout != qopts.Timeout || gopts.MaxStates != qopts.MaxStates
	quick, err := qp.checkOnce(ctx, gopts)
	if err != nil {
		return nil, err
	}
	if glance && !quick.Complete && len(quick.Violated()) == 0 {
		r, err := p.probe(ctx, opts)
		if err != nil {
			return nil, err
		}
		if r != nil {
			r.Elapsed = time.Since(start)
			return r, nil
		}
		if quick, err = qp.checkOnce(ctx, qopts); err != nil {
			return nil, err
		}
	}
	quickPhase := phase(quick, report.PhaseQuick, quickDescription)

	fopts := opts
	found := len(quick.Violated()) > 0
	if opts.Timeout > 0 {
		fopts.Timeout = opts.Timeout - time.Since(start)
		if fopts.Timeout <= 0 {
			fopts.Timeout = time.Nanosecond
		}
	}
	if found {
		shorten := p.shortenFor
		if shorten == 0 {
			shorten = DefaultShortenFor
		}
		if shorten < 0 {
			quick.Phases = []report.Phase{quickPhase}
			quick.Elapsed = time.Since(start)
			markFoundBy(quick, report.PhaseQuick)
			return quick, nil
		}
		// Stopping at the first violation, the exhaustive search only
		// looks for a shorter trace; asked to settle every intent
		// (CollectAll), it runs as long as the run may.
		if !opts.CollectAll && (fopts.Timeout == 0 || fopts.Timeout > shorten) {
			fopts.Timeout = shorten
		}
	}
	full, err := p.checkOnce(ctx, fopts)
	if err != nil {
		return nil, err
	}
	fullPhase := phase(full, report.PhaseExhaustive, exhaustiveDescription)
	markFoundBy(full, report.PhaseExhaustive)
	r := full
	if found {
		r = merge(full, quick, opts.CollectAll)
	}
	r.Phases = []report.Phase{quickPhase, fullPhase}
	if quickPhase.Complete && quickPhase.Violations == 0 && budgetEnded(r) {
		r.Hints = append(r.Hints, tiesHint(quickPhase))
	}
	if len(r.Hints) == 0 && budgetEnded(r) {
		r.Hints = append(r.Hints, sizeHint(p.System.U))
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// probe runs the exhaustive search within the probe's bounds and
// returns its report when that is final: the search finished, or found a
// violation and not every intent is to be settled (opts.CollectAll). It
// returns nil when the quick pass and the exhaustive search are to run.
// A caller's own state bound at or below the probe's makes the probe the
// exhaustive search itself, which then runs once, after the quick pass,
// as without a probe.
func (p *Problem) probe(ctx context.Context, opts checker.Options) (*report.Report, error) {
	states := p.probeStates
	if states == 0 {
		states = DefaultProbeStates
	}
	if states < 0 || opts.MaxStates > 0 && opts.MaxStates <= int64(states) {
		return nil, nil
	}
	popts := opts
	popts.MaxStates = int64(states)
	popts.Timeout = probeBudget(opts.Timeout)
	r, err := p.checkOnce(ctx, popts)
	if err != nil {
		return nil, err
	}
	if !r.Complete && (opts.CollectAll || len(r.Violated()) == 0) {
		return nil, nil
	}
	r.Phases = []report.Phase{phase(r, report.PhaseExhaustive, exhaustiveDescription)}
	markFoundBy(r, report.PhaseExhaustive)
	return r, nil
}

const (
	quickDescription      = "ties broken as Kivi does: lowest-index node, lowest pod slots; first commands in the order written"
	exhaustiveDescription = "every tie and interleaving"
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

// merge takes the exhaustive search's verdicts, and the quick pass's
// violation wherever the exhaustive search did not find that intent
// violated: a violation on a real path stands whatever the other phase
// could not settle. Unless every intent was to be settled (collectAll),
// the run stops at its first violations, and the intents the shortening
// search left open are reported as such (ReasonStopped), not as timed
// out.
func merge(full, quick *report.Report, collectAll bool) *report.Report {
	for i := range full.Results {
		fr := &full.Results[i]
		if fr.Verdict == checker.Violated {
			continue
		}
		if qr := quick.Result(fr.Name); qr != nil && qr.Verdict == checker.Violated {
			*fr = *qr
			fr.FoundBy = report.PhaseQuick
			continue
		}
		if fr.Verdict == checker.Unknown && fr.Bound == "" && !collectAll {
			fr.Reason = checker.ReasonStopped
		}
	}
	return full
}
