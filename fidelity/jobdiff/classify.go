package jobdiff

import (
	"context"
	"slices"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// The names of the known causes of disagreement (docs/divergences.md,
// "Jobs against kube-controller-manager v1.36"); "" is agreement.
const (
	Agree = ""
	// Surplus: more pods are active than the Job wants (manageJob's
	// wantActive; none while suspended). Upstream deletes the surplus;
	// the model never holds it (a static spec: parallelism is never
	// lowered, a Job suspended from the start never creates a pod, and a
	// success frees its pod's slot as it counts it) and deletes none.
	// Counterfactual: the surplus active pods are not there.
	Surplus = "surplus active pods"
	// Backoff: a pod failed within upstream's pod-failure backoff (10 s,
	// doubling with each failure since the last success), which delays
	// the replacements; the model has no clock and replaces at once.
	// Counterfactual: the failures are an hour old.
	Backoff = "pod-failure backoff"
	// SuccessFirst: the Job's success criteria are met and a failed pod
	// the model holds as gone (Case.gone: one that terminated, in the
	// model deleted while active) matches a FailJob rule. Upstream's sync
	// that first finds the criteria met writes SuccessCriteriaMet, after
	// which no policy is evaluated; the model keeps no interim condition
	// and takes the criteria met for that sync having come while the pod
	// terminated (it has by the time a pod's failure reaches a Job that
	// wants no pod). A Failed pod present that the model holds as Failed
	// (rejected before it ran) is no such case: it failed while active,
	// so no sync found the criteria met before, and both fail the Job.
	// Counterfactual: the Job has SuccessCriteriaMet.
	SuccessFirst = "success criteria met before a FailJob match"
	// BackoffFirst: the Job is past its backoffLimit and a failed pod
	// matches a FailJob rule. The model takes the backoffLimit to have
	// been exceeded at an earlier sync, whose FailureTarget
	// (BackoffLimitExceeded) upstream keeps; upstream's sync that sees
	// both at once prefers the FailJob match. Counterfactual: the Job has
	// that FailureTarget.
	BackoffFirst = "backoffLimit exceeded before a FailJob match"
	// FailingFirst: a failing Job (Case.failing: past its backoffLimit,
	// or a Failed pod the model holds as Failed matching a FailJob rule)
	// has a failed pod the model holds as gone (Case.gone: a deleted one,
	// or one whose containers ran, which in the model only a deleted pod
	// has). The model's terminating pods are not terminal: the Job's
	// failure was decided, and the pod counted as its policy says of a
	// pod without an exit code, while it terminated (upstream counts
	// every pod not terminal at that sync). Counterfactual: those pods
	// are still terminating.
	FailingFirst = "failure decided before a deleted pod was terminal"
	// GoneInTurn: with podReplacementPolicy Failed, two or more failed
	// pods the model holds as gone (Case.gone) and one of them, not the
	// last, decides the Job's failure (past its backoffLimit, or a
	// FailJob match). The model counts a pod as it goes, one at a time:
	// the pods removed after the deciding one are counted as pods that
	// terminated when a sync decided the failure (upstream counts a pod
	// not terminal then by the policy's match on a pod without an exit
	// code), as upstream counts them when its sync comes between the
	// pods' ends; the snapshot, with all of them terminal at one sync
	// (each counted by its exit code), is upstream's other interleaving,
	// which the model does not have (docs/divergences.md, "Job
	// controller"). Counterfactual: the pods after the deciding one, in
	// the model's order of removal (the Case's), are still terminating.
	GoneInTurn = "failed pods gone one at a time"
	// DelayedPerIndex: with backoffLimitPerIndex, upstream keeps the
	// latest failed pod of a pending index uncounted (its finalizer on)
	// until the index's replacement exists, for the replacement's failure
	// count annotation; the model keeps the index's count in the Job's
	// status and counts the failure at once. Counterfactual: those pods
	// are counted already.
	DelayedPerIndex = "per-index failure counted before the replacement"
	// SuccessDeletions: an Indexed Job's successPolicy matches at this
	// sync, which deletes its active pods. With podReplacementPolicy
	// TerminatingOrFailed a deleted pod counts as failed: the model
	// counts the pods it deleted in the same sync (CountJob counts every
	// terminating pod), upstream at its next sync (its pod list predates
	// the deletions), when status.failed no longer decides anything (no
	// failure criterion is evaluated once SuccessCriteriaMet is set).
	// Counterfactual: those pods were deleted before.
	SuccessDeletions = "success policy's deletions counted a sync early"
	// Unexplained: no known class removes the disagreement.
	Unexplained = "unexplained"
)

// wantActive is manageJob's wantActive for c, with the counts it reads
// (every finished pod counted).
func (c *Case) wantActive() int {
	if c.Suspend {
		return 0
	}
	succeeded, active := c.Succeeded, 0
	for _, p := range c.Pods {
		if p.Phase == Succeeded {
			succeeded++
		}
		if p.Active() {
			active++
		}
	}
	if c.Completions == nil {
		if succeeded > 0 {
			return active
		}
		return c.Parallelism
	}
	return max(0, min(c.Parallelism, *c.Completions-succeeded))
}

// failedPod: upstream's isPodFailed (Failed, or deleted and not
// Succeeded with podReplacementPolicy TerminatingOrFailed).
func (c *Case) failedPod(p Pod) bool {
	return p.Phase == Failed || !c.replaceOnlyFailed() && p.FailedPod()
}

// failures is the failed count upstream's sync reads (the failures a
// podFailurePolicy ignores left out).
func (c *Case) failures() int {
	n := c.Failed
	for _, p := range c.Pods {
		if c.failedPod(p) && (!c.HasPolicy || c.action(p) != "Ignore") {
			n++
		}
	}
	return n
}

// successCriteriaMet: every completion done (some pod succeeded, with
// completions unset) and no pod active.
func (c *Case) successCriteriaMet() bool {
	succeeded := c.Succeeded
	for _, p := range c.Pods {
		if p.Phase == Succeeded {
			succeeded++
		}
	}
	if c.active() > 0 {
		return false
	}
	if c.Completions == nil {
		return succeeded > 0
	}
	return succeeded >= *c.Completions
}

// terminating counts the pods upstream sees terminating
// (controller.CountTerminatingPods: deleted, not Succeeded or Failed).
func (c *Case) terminating() int {
	n := 0
	for _, p := range c.Pods {
		if p.Terminating && (p.Phase == Pending || p.Phase == Running) {
			n++
		}
	}
	return n
}

func (c *Case) active() int {
	n := 0
	for _, p := range c.Pods {
		if p.Active() {
			n++
		}
	}
	return n
}

// withoutSurplus is c without its last active pods beyond wantActive.
func (c *Case) withoutSurplus() *Case {
	d := *c
	d.Pods = nil
	surplus := c.active() - c.wantActive()
	for _, p := range slices.Backward(c.Pods) {
		if surplus > 0 && p.Active() {
			surplus--
			continue
		}
		d.Pods = append(d.Pods, p)
	}
	slices.Reverse(d.Pods)
	return &d
}

var classes = []classify.Class[*Case]{{
	Name: SuccessDeletions,
	Applies: func(c *Case) bool {
		return len(c.SuccessRules) > 0 && !c.replaceOnlyFailed() && c.active() > 0
	},
	Fix: func(c *Case) *Case {
		d := *c
		d.Pods = slices.Clone(c.Pods)
		for i, p := range d.Pods {
			if p.Active() {
				d.Pods[i].Terminating = true
			}
		}
		return &d
	},
}, {
	Name:    DelayedPerIndex,
	Applies: func(c *Case) bool { return len(c.delayedPerIndex()) > 0 },
	Fix: func(c *Case) *Case {
		d := *c
		d.Pods = slices.Clone(c.Pods)
		for _, i := range c.delayedPerIndex() {
			d.Pods[i].Tracking = Counted
		}
		return &d
	},
}, {
	Name:    Surplus,
	Applies: func(c *Case) bool { return c.failures() <= c.BackoffLimit && c.active() > c.wantActive() },
	Fix:     (*Case).withoutSurplus,
}, {
	Name: Backoff,
	Applies: func(c *Case) bool {
		return c.RecentFailure && slices.ContainsFunc(c.Pods, func(p Pod) bool { return c.failedPod(p) && p.Tracking == New })
	},
	Fix: func(c *Case) *Case {
		d := *c
		d.RecentFailure = false
		return &d
	},
}, {
	Name: SuccessFirst,
	Applies: func(c *Case) bool {
		return c.HasPolicy && !c.SuccessCriteriaMet && c.successCriteriaMet() &&
			slices.ContainsFunc(c.Pods, func(p Pod) bool { return c.gone(p) && c.action(p) == "FailJob" })
	},
	Fix: func(c *Case) *Case {
		d := *c
		d.SuccessCriteriaMet = true
		return &d
	},
}, {
	Name: BackoffFirst,
	Applies: func(c *Case) bool {
		return c.HasPolicy && !c.BackoffTarget && c.failures() > c.BackoffLimit &&
			slices.ContainsFunc(c.Pods, func(p Pod) bool { return c.failedPod(p) && c.action(p) == "FailJob" })
	},
	Fix: func(c *Case) *Case {
		d := *c
		d.BackoffTarget = true
		return &d
	},
}, {
	Name:    GoneInTurn,
	Applies: func(c *Case) bool { return len(c.goneWhileFailing()) > 0 },
	Fix: func(c *Case) *Case {
		d := *c
		d.Pods = slices.Clone(c.Pods)
		for _, i := range c.goneWhileFailing() {
			d.Pods[i].Phase, d.Pods[i].ExitCode, d.Pods[i].Terminating = Running, 0, true
		}
		return &d
	},
}, {
	Name: FailingFirst,
	Applies: func(c *Case) bool {
		return c.replaceOnlyFailed() && c.failing() && slices.ContainsFunc(c.Pods, c.gone)
	},
	Fix: func(c *Case) *Case {
		d := *c
		d.Pods = slices.Clone(c.Pods)
		for i, p := range d.Pods {
			if c.gone(p) {
				d.Pods[i].Phase, d.Pods[i].ExitCode, d.Pods[i].Terminating = Running, 0, true
			}
		}
		return &d
	},
}}

// Verdict is the comparison of one case.
type Verdict = classify.Verdict[Result]

// Check compares the model (with plant, normally nil) with up on c and
// names the cause of a disagreement (classify.Compare).
func Check(ctx context.Context, up *Upstream, c *Case, plant Plant) (Verdict, error) {
	sync := func(d *Case) (Result, error) { return up.Sync(ctx, d) }
	return classify.Compare(classes, c, func(d *Case) (Result, error) { return d.Model(plant) }, sync, Result.Equal, Unexplained)
}

// failing: the Job's failure is decided before its gone pods leave (the
// model's CountJob.Failing): past its backoffLimit, or a failed pod the
// model holds as Failed (not gone: rejected before it ran) matches a
// FailJob rule.
func (c *Case) failing() bool {
	return c.failures() > c.BackoffLimit || c.HasPolicy && slices.ContainsFunc(c.Pods, func(p Pod) bool {
		return c.failedPod(p) && !c.gone(p) && c.action(p) == "FailJob"
	})
}

// goneWhileFailing are the pods of GoneInTurn: the gone pods that follow,
// in the model's order of removal (modelState removes them in the Case's
// order), the gone pod whose count decided the Job's failure, when no
// failure but theirs decided it before (FailingFirst then).
func (c *Case) goneWhileFailing() []int {
	if !c.replaceOnlyFailed() {
		return nil
	}
	failed, failJob := c.Failed, false
	for _, p := range c.Pods {
		if c.failedPod(p) && !c.gone(p) && c.action(p) != "Ignore" {
			failed++
			failJob = failJob || c.HasPolicy && c.action(p) == "FailJob"
		}
	}
	if failJob || failed > c.BackoffLimit {
		return nil
	}
	var late []int
	for i, p := range c.Pods {
		if !c.gone(p) {
			continue
		}
		if failJob || failed > c.BackoffLimit {
			late = append(late, i)
			continue
		}
		switch c.action(p) {
		case "Count":
			failed++
		case "FailJob":
			failed++
			failJob = c.HasPolicy
		}
	}
	return late
}
