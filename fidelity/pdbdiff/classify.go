package pdbdiff

import (
	"context"
	"slices"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// The names of the known causes of disagreement (docs/divergences.md,
// "PodDisruptionBudgets against the disruption controller and the
// Eviction API"); "" is agreement.
const (
	Agree = ""
	// StatusLag: in a sequence without the controller's resync, upstream
	// answers each eviction from the status the evictions before it left
	// (checkAndDecrement lowers disruptionsAllowed and records the pod in
	// DisruptedPods, nothing else), where the model has no status lag:
	// every eviction sees the status a resynced controller would write.
	// Two effects: a refusal after an earlier eviction of the budget
	// quotes the stale currentHealthy ("does not allow evicting pods
	// currently" where the model says "needs N healthy pods and has N
	// currently"), and a Running pod that is not Ready, evicted through
	// checkAndDecrement (desiredHealthy 0 under IfHealthyBudget, so the
	// unhealthy-pod policy does not let it go on its own), uses up a
	// disruption upstream until the controller resyncs and counts the
	// pod, never healthy, out again; the model lets the evictions after
	// it through (unhealthyDraw); and a budget whose sync fails on a
	// Job's or a bare pod stays failed upstream after that pod is evicted
	// (a terminal one goes without a budget), refusing the evictions
	// after it, which the model, syncing without the pod, lets through
	// (evictsSyncFailure). Counterfactual: the controller resyncs between
	// evictions.
	StatusLag = "status lag"
	// Unexplained: no known class removes the disagreement.
	Unexplained = "unexplained"
)

var classes = []classify.Class[*Case]{{
	Name: StatusLag,
	Applies: func(c *Case) bool {
		return !c.Resync && len(c.Evictions) > 1
	},
	Fix: func(c *Case) *Case {
		d := *c
		d.Resync = true
		return &d
	},
}}

// unhealthyDraw reports whether the sequence evicts a Running pod that
// is not Ready: one way the status lag changes an outcome.
func (c *Case) unhealthyDraw() bool {
	return slices.ContainsFunc(c.Evictions, func(i int) bool { return c.Pods[i].State == NotReady })
}

// evictsSyncFailure reports whether the sequence evicts a Job's or a
// bare pod: a pod that can fail a budget's sync (no scale for a
// percentage or maxUnavailable, no controller), so that its eviction can
// end the failure a resynced controller would see.
func (c *Case) evictsSyncFailure() bool {
	return slices.ContainsFunc(c.Evictions, func(i int) bool {
		k := c.Workloads[c.Pods[i].Workload].Kind
		return k == Job || k == Bare
	})
}

// lagChangesOutcome reports whether the status lag can change an
// outcome of c's sequence, not just a refusal's message.
func (c *Case) lagChangesOutcome() bool { return c.unhealthyDraw() || c.evictsSyncFailure() }

// outcomesDiffer reports whether two answers to a sequence differ in
// more than their messages.
func outcomesDiffer(a, b []Answer) bool {
	return !slices.EqualFunc(a, b, func(x, y Answer) bool { return x.Outcome == y.Outcome })
}

// Verdict is the comparison of one case.
type Verdict = classify.Verdict[Result]

// Check compares the model (with plant, normally nil) with up on c and
// names the cause of a disagreement (classify.Compare).
func Check(ctx context.Context, up *Upstream, c *Case, plant Plant) (Verdict, error) {
	return classify.Compare(classes, c, func(d *Case) (Result, error) { return d.Model(plant) }, func(d *Case) (Result, error) { return up.Run(ctx, d) }, Result.Equal, Unexplained)
}
