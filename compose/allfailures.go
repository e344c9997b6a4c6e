package compose

import (
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/events"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

// Settling every intent (model.Options.ContinueAfterViolation, under
// Kubernetes' lifecycle), a run goes on past every failure after which
// the cluster is still a Kubernetes cluster, so that each intent is
// judged on the whole of every run:
//
//   - an intent monitor's violation (properties.go, unschedulable.go);
//   - `kubectl create` of a Deployment that exists (model_assertion):
//     kubectl's AlreadyExists error changes nothing in the cluster
//     (model.Universe.ContinuesAfterFailure);
//   - a node's third kernel panic (no_kernel_panic): the node crashed,
//     as at its first two panics; the count the watchers keep is the
//     violation (events.PanicLimitReached), so the state holds no failure
//     and a monitor that fires in the same step is recorded as well.
//
// An internal consistency assertion of the model (model.FailInternal)
// ends the run: its state is no Kubernetes state, and nothing the model
// does from it means anything. Such a run is cut short, so an intent it
// might have broken further on is not settled: the pseudo-property
// ModelInternal finds such a state, and the report turns every intent
// that is not violated into Unknown with that reason (applyInternal), as a
// model bound does (applyBound). Without ContinueAfterViolation a
// violation ends the run anyway, and the intents it leaves open are
// reported as stopped.

// ModelInternal is the pseudo-property, checked only when every intent is
// settled, that fails where a run reached an internal consistency
// assertion of the model (model.FailInternal). It is never reported
// itself: model_assertion carries the violation, and the report turns the
// intents that are not violated into Unknown (applyInternal).
const ModelInternal = "model_internal_assertion"

// internalReason is the reason of the intents a failed internal
// assertion leaves unsettled.
const internalReason = "model assertion: an internal consistency assertion of the model failed on some run (see model_assertion), and the model cannot follow that run past it: its state is no Kubernetes state; an intent not violated elsewhere may break further on that run"

// assertionHolds is the invariant of an assertion intent that fails with
// failure: the state records no such failure, and for no_kernel_panic in
// a run that goes on past violations, no node has panicked three times.
func assertionHolds(u *model.Universe, failure model.Failure) func(*model.State) bool {
	if failure == model.FailKernelPanic && u.Options.ContinueAfterViolation && !u.Options.KiviLifecycle {
		return func(s *model.State) bool { return s.Failed != failure && !events.PanicLimitReached(u, s) }
	}
	return func(s *model.State) bool { return s.Failed != failure }
}

// internalFailure is the ModelInternal pseudo-property when u goes on
// past violations, else nothing.
func internalFailure(u *model.Universe) []checker.Invariant[*model.State] {
	if !u.Options.ContinueAfterViolation || u.Options.KiviLifecycle {
		return nil
	}
	return []checker.Invariant[*model.State]{{
		Name:    ModelInternal,
		Holds:   func(s *model.State) bool { return s.Failed != model.FailInternal },
		Explain: func(*model.State) string { return internalReason },
	}}
}

// applyInternal takes the ModelInternal pseudo-property out of the
// results: when a run reached an internal assertion, every result that is
// neither violated nor already Unknown through a model bound becomes
// Unknown with internalReason. Violations stand: a counterexample never
// passes through such a state, which has no successors.
func applyInternal(r *report.Report) {
	var found bool
	kept := r.Results[:0]
	for _, x := range r.Results {
		if x.Name == ModelInternal {
			found = found || x.Verdict == checker.Violated
			continue
		}
		kept = append(kept, x)
	}
	r.Results = kept
	if !found {
		return
	}
	r.Complete = false
	for k := range r.Results {
		if x := &r.Results[k]; x.Verdict != checker.Violated && x.Bound == "" {
			x.Verdict, x.Bound = checker.Unknown, internalReason
		}
	}
}
