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

// failures is the failed count upstream's sync reads.
func (c *Case) failures() int {
	n := c.Failed
	for _, p := range c.Pods {
		if p.FailedPod() {
			n++
		}
	}
	return n
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
	Name:    Surplus,
	Applies: func(c *Case) bool { return c.failures() <= c.BackoffLimit && c.active() > c.wantActive() },
	Fix:     (*Case).withoutSurplus,
}, {
	Name: Backoff,
	Applies: func(c *Case) bool {
		return c.RecentFailure && slices.ContainsFunc(c.Pods, func(p Pod) bool { return p.FailedPod() && p.Tracking == New })
	},
	Fix: func(c *Case) *Case {
		d := *c
		d.RecentFailure = false
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
