package scaling

import (
	"fmt"
	"time"

	"github.com/kivi-go/kivi/checker"
)

// Status is what became of one setup in a search.
type Status uint8

const (
	// NotRun: the setup comes after the minimal failure (without
	// Options.All), or the search was interrupted before it.
	NotRun Status = iota
	// Held: every intent holds in the setup's whole state space.
	Held
	// Failed: some intent is violated.
	Failed
	// Unknown: the verification was inconclusive (a per-setup timeout, a
	// bound, lossy storage). Never counted as passing.
	Unknown
)

func (s Status) String() string {
	switch s {
	case NotRun:
		return "not-run"
	case Held:
		return "held"
	case Failed:
		return "failed"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

func parseStatus(s string) (Status, error) {
	for _, st := range []Status{NotRun, Held, Failed, Unknown} {
		if st.String() == s {
			return st, nil
		}
	}
	return 0, fmt.Errorf("status %q (accepted: not-run, held, failed, unknown)", s)
}

// statusOf maps a verdict to a status.
func statusOf(v checker.Verdict) Status {
	switch v {
	case checker.Holds:
		return Held
	case checker.Violated:
		return Failed
	}
	return Unknown
}

// Outcome is what a VerifyFunc reports for one setup.
type Outcome struct {
	// Verdict is the overall verdict (Violated if any intent is).
	Verdict checker.Verdict
	// Violated names the violated intents, in the caller's order.
	Violated []string
	Stats    checker.Stats
	// Detail is the caller's own report (a trace, a rendered text); the
	// search never reads it. In shard files it is stored as JSON and comes
	// back from Merge as a json.RawMessage.
	Detail any
}

// SetupResult is the fate of one setup.
type SetupResult struct {
	// Index is the setup's position in the whole sorted setup list.
	Index  int
	Setup  Setup
	Status Status
	// Outcome is the verifier's report (zero for NotRun).
	Outcome Outcome
	// TimedOut is set when Options.Timeout cut the verification short.
	TimedOut bool
	Elapsed  time.Duration
}

// Result summarises a search; with the same setups and verdicts it is the
// same whatever the number of workers or shards (but for timings).
type Result struct {
	// Setups has one entry per setup of the list, in order.
	Setups []SetupResult
	// Held, Failed, Unknown, NotRun count the setups by status.
	Held, Failed, Unknown, NotRun int
	// First is the index of the minimal failing setup (the first in the
	// sorted order), -1 if none failed.
	First int
	// Failures are the indices of every failing setup, in order (at most
	// one without All).
	Failures []int
	// All is set when the search continued past failures (Kivi's -a).
	All bool
	// Interrupted is set when the caller's context ended the search
	// before it was complete.
	Interrupted bool
	// Stopped says, for people, what interrupted the search (the run's
	// time limit, say); empty when nothing did or nobody said.
	Stopped string
	// States is the sum of the states stored over all verified setups.
	States int64
	// Elapsed is the wall time of the search (of the slowest shard after
	// Merge).
	Elapsed time.Duration
}

// FirstFailure returns the minimal failing setup.
func (r *Result) FirstFailure() (SetupResult, bool) {
	if r.First < 0 {
		return SetupResult{}, false
	}
	return r.Setups[r.First], true
}

// Verified is how many setups were verified (held, failed or unknown).
func (r *Result) Verified() int { return r.Held + r.Failed + r.Unknown }

// String is a one-line summary, e.g. "58 of 264 setups verified: 57 held,
// 1 failed, 0 unknown; first failure #58 {node type 0: 1, ...}".
func (r *Result) String() string {
	s := fmt.Sprintf("%d of %d setups verified: %d held, %d failed, %d unknown", r.Verified(), len(r.Setups), r.Held, r.Failed, r.Unknown)
	if f, ok := r.FirstFailure(); ok {
		s += fmt.Sprintf("; first failure #%d %s", f.Index+1, f.Setup)
	}
	if r.Interrupted {
		s += " (interrupted)"
	}
	return s
}

// finish applies Kivi's stopping rule to per-setup results and counts
// them: without all, everything after the first failure is NotRun,
// whatever a parallel worker or another shard may have found there.
func finish(setups []SetupResult, all bool) Result {
	r := Result{Setups: setups, First: -1, All: all}
	for i := range r.Setups {
		sr := &r.Setups[i]
		if r.First >= 0 && !all {
			*sr = SetupResult{Index: sr.Index, Setup: sr.Setup}
		}
		switch sr.Status {
		case Held:
			r.Held++
		case Failed:
			r.Failed++
			r.Failures = append(r.Failures, i)
			if r.First < 0 {
				r.First = i
			}
		case Unknown:
			r.Unknown++
		default:
			r.NotRun++
		}
		r.States += sr.Outcome.Stats.States
	}
	return r
}
