package evictiondiff

import (
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// Classes of disagreement.
const (
	Agree       = ""
	Unexplained = "unexplained"
	// AllocatableRounding: the hard threshold is not a whole number of
	// MiB, so the node's allocatable is not either; the manifest reader
	// rounds it down to a MiB, and the model's node comes under pressure
	// up to a MiB early.
	AllocatableRounding = "allocatable rounded to a MiB"
	// SoftReclaim: after an eviction for the hard threshold the model
	// holds the soft threshold unresolved until it too has its minimum
	// reclaim (one bit per node: NodeState.Reclaiming), where upstream does
	// so only if the soft threshold's grace period had passed before.
	SoftReclaim = "soft threshold held unresolved"
)

// classes are the known divergences with their counterfactuals.
var classes = []classify.Class[*Case]{
	{Name: AllocatableRounding, Applies: func(c *Case) bool {
		q, err := quantity(c.Hard)
		return err == nil && q.On(c.Capacity*mi)%mi != 0
	}, Fix: func(c *Case) *Case {
		d := *c
		q, _ := quantity(c.Hard)
		d.Hard = fmt.Sprintf("%dMi", (q.On(c.Capacity*mi)+mi-1)/mi)
		return &d
	}},
	{Name: SoftReclaim, Applies: func(c *Case) bool {
		return c.Soft != "" && c.MinimumReclaim != "" && c.Grace != "0s"
	}, Fix: func(c *Case) *Case {
		d := *c
		d.Grace = "0s"
		return &d
	}},
}

// Verdict is the comparison of one case.
type Verdict = classify.Verdict[Result]

// Check compares the model with upstream on c and classifies a
// disagreement.
func Check(c *Case, plant Plant) (Verdict, error) {
	run := func(d *Case) (m, u Result, err error) {
		if u, err = d.Upstream(); err != nil {
			return m, u, err
		}
		m, err = d.Model(u.Evicted, plant)
		return m, u, err
	}
	m, u, err := run(c)
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{Model: m, Upstream: u}
	if same(m, u) {
		return v, nil
	}
	var runErr error
	v.Class = classify.Classify(classes, c, func(d *Case) bool {
		m, u, err := run(d)
		if err != nil {
			runErr = err
			return false
		}
		return same(m, u)
	})
	if runErr != nil {
		return v, runErr
	}
	if v.Class == "" {
		v.Class = Unexplained
	}
	return v, nil
}

func same(a, b Result) bool { return a.Condition == b.Condition && slices.Equal(a.Evicted, b.Evicted) }
