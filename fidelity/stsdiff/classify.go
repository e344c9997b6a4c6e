package stsdiff

import (
	"context"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// The names of the known causes of disagreement (docs/divergences.md,
// "StatefulSet syncs against kube-controller-manager v1.36"); "" is
// agreement.
const (
	Agree = ""
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
