package stsdiff

import (
	"context"
	"slices"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// The names of the known causes of disagreement (docs/divergences.md,
// "StatefulSet syncs against kube-controller-manager v1.36"); "" is
// agreement.
const (
	Agree = ""
	// UnreadyRunning: a Running pod is not Ready. Upstream's
	// OrderedReady walk waits for it (isRunningAndReady), and counts it
	// unavailable (a rolling update waits for it, maxUnavailable counts
	// it, a scale-down may delete it as the first unhealthy pod); the
	// model's Running pods are all Ready. Counterfactual: the pod is
	// Ready upstream too.
	UnreadyRunning = "unready Running pod"
	// RolledBack: the spec's template is the current revision's again
	// (a rollback mid-rollout). Upstream's update revision becomes the
	// current revision and status.currentRevision stays; the model swaps
	// its two slots, so the revision rolled back from becomes its current
	// one, and pods it creates below the partition are of that revision.
	// Counterfactual: upstream with status.currentRevision the revision
	// rolled back from.
	RolledBack = "rollback: current revision"
	// Unexplained: no known class removes the disagreement.
	Unexplained = "unexplained"
)

var classes = []classify.Class[*Case]{{
	Name:    UnreadyRunning,
	Applies: func(c *Case) bool { return slices.ContainsFunc(c.Pods, func(p Pod) bool { return p.Unready }) },
	Fix: func(c *Case) *Case {
		d := *c
		d.Pods = slices.Clone(c.Pods)
		for i := range d.Pods {
			d.Pods[i].Unready = false
		}
		return &d
	},
}, {
	Name:    RolledBack,
	Applies: func(c *Case) bool { return c.Shape == Rollback && !c.RolledBackCurrent },
	Fix: func(c *Case) *Case {
		d := *c
		d.RolledBackCurrent = true
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
