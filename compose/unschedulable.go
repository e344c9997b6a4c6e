package compose

import "github.com/kivi-go/kivi/model"

// An unschedulable pod under Kubernetes' lifecycle (model,
// unschedulable.go) fails the state its scheduling attempt produces and
// the run goes on. The failure is a marker on that state alone: Next and
// Replay take its successors from a copy with the failure cleared
// (model.Universe.ResumeAfterFailure), so the
// marker state and the same cluster without the failure have the same
// successors, and nothing after the marker remembers it. That is the
// cheapest exact encoding: the violation of pod_always_schedulable stays
// in the state the checker judges (the same counterexample as when the
// run ended there), no later state is split by a memory of it, and a
// trace of another intent that passes through the marker replays step by
// step as a concrete run, since every step is re-run from the state the
// trace records. The alternative, a monitor bit set by the failure and
// kept, would double every state after the first unschedulable attempt.
//
// The intent monitors observe the marker's step like any other (their
// memory must follow the cluster the run goes on with). A monitor that
// fired in that very step could not be recorded, the state holding one
// failure; none can: a scheduling step starts no pod and removes none, and
// changes no deployment, so the replica counts and marks the monitors
// read are those of the state before it.

// endedByFailure reports whether a state without successors ends a run
// that some failure already judges, so that the end conditions (valid
// end states, the monitors' Stuck) do not judge it again: a failed state,
// or, under Kubernetes' lifecycle, a cluster at rest with a pod waiting
// unschedulable, whose run violated pod_always_schedulable when the pod's
// last attempt failed (model.Universe.UnschedulablePodWaits). Upstream the
// pod stays Pending for ever; that is the violation already reported.
func endedByFailure(u *model.Universe, s *model.State) bool {
	if s.Failed != model.FailNoFeasibleNode && s.Failed != model.NoFailure && u.ContinuesAfterFailure(s) {
		// The run went on past the violation (a monitor's, a refused
		// kubectl create): the other intents judge where it comes to
		// rest.
		return u.UnschedulablePodWaits(s)
	}
	return s.Failed != model.NoFailure || u.UnschedulablePodWaits(s)
}

// resume makes next, a copy of the failed state s, the state s's
// successors are taken from (model.Universe.ResumeAfterFailure). After an
// intent monitor's violation (model.Options.ContinueAfterViolation) that
// monitor watches no more: its verdict is made, and firing again at every
// state of the run would only repeat it.
func (sys *System) resume(s, next *model.State) {
	if s.Failed == model.FailMonitor && sys.U.ContinuesAfterFailure(s) {
		for _, o := range sys.Observers {
			if w, ok := o.(*watchObserver); ok && w.index == int(s.FailedArg) && w.firedAt >= 0 {
				next.Monitors[w.firedAt] = 1
			}
		}
	}
	sys.U.ResumeAfterFailure(next)
}
