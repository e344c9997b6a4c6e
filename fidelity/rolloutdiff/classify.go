package rolloutdiff

import (
	"context"
	"maps"
	"slices"
)

// Class names the cause of a disagreement; the empty Class is agreement.
type Class string

const (
	// Agree: every ReplicaSet has the same replicas, and every active one
	// the same annotations.
	Agree Class = ""
	// ThirdRevision: upstream has more ReplicaSets than the model's two
	// slots hold apart: an older revision merged into a slot, or a sync
	// that creates the new set while both slots hold old ones (the model
	// merges them, or overwrites a slot whose set has no replicas and no
	// pods). Upstream scales, and reports, each set on its own.
	// Counterfactual: upstream with the merged sets as one ReplicaSet (the
	// newer one's template and annotations, the replicas and pods of
	// both), and without the overwritten set.
	ThirdRevision Class = "third revision (two slots)"
	// Unexplained: no known class removes the disagreement.
	Unexplained Class = "unexplained"
)

// class is a known cause: whether it can apply to a case, and the case
// with the cause removed.
type class struct {
	name    Class
	applies func(*Case) bool
	without func(*Case) *Case
}

var classes = []class{{
	name: ThirdRevision,
	applies: func(c *Case) bool {
		// A paused sync creates no set, so only a merged slot differs.
		return c.merged() || !c.hasTemplate() && !c.Paused
	},
	without: func(c *Case) *Case { return c.twoSlots() },
}}

// hasTemplate: some set has the deployment's pod template.
func (c *Case) hasTemplate() bool {
	return slices.ContainsFunc(c.Sets, func(s Set) bool { return s.Template == c.Template })
}

// merged: some slot holds more than one set.
func (c *Case) merged() bool {
	return len(c.slotSets(0)) > 1 || len(c.slotSets(1)) > 1
}

// twoSlots is c as the model holds it: the sets of one slot merged into
// one (the newest one's template and annotations, the replicas and pods
// of all), and, when no set has the deployment's template (the sync may
// create it), the other slot's sets merged into the current slot, which
// keeps its own template and annotations (revision.go's mergeInto), or
// dropped when they have no replicas (the model reuses such a slot).
func (c *Case) twoSlots() *Case {
	target := [2]int{0, 1} // the slot each slot's sets end up in
	var rep [2]int         // the set whose template and annotations a slot keeps
	for k := range rep {
		rep[k] = c.newestIndex(k)
	}
	drop := -1
	if !c.hasTemplate() {
		other := 1 - c.Current
		replicas := 0
		for _, s := range c.slotSets(other) {
			replicas += s.Replicas
		}
		switch {
		case replicas == 0:
			drop = other
		case rep[c.Current] < 0:
			target[other], rep[c.Current] = c.Current, rep[other]
		default:
			target[other] = c.Current
		}
	}
	d := *c
	d.Sets = nil
	var order []int
	for k := range rep {
		if k != drop && target[k] == k && rep[k] >= 0 {
			order = append(order, k)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return rep[a] - rep[b] })
	for _, k := range order {
		m := c.Sets[rep[k]]
		m.Slot, m.Replicas, m.Available = k, 0, 0
		for _, t := range c.Sets {
			if t.Slot != drop && target[t.Slot] == k {
				m.Replicas += t.Replicas
				m.Available += t.Available
			}
		}
		d.Sets = append(d.Sets, m)
	}
	return &d
}

// Verdict is the comparison of one case.
type Verdict struct {
	Class           Class
	Model, Upstream Result
}

// Check compares the model (with plant, normally nil) with up on c and
// names the cause of a disagreement: the first class whose counterfactual
// makes the two agree.
func Check(ctx context.Context, up *Upstream, c *Case, plant Plant) (Verdict, error) {
	m, u, err := compare(ctx, up, c, plant)
	if err != nil || maps.Equal(m, u) {
		return Verdict{Model: m, Upstream: u}, err
	}
	for _, k := range classes {
		if !k.applies(c) {
			continue
		}
		m2, u2, err := compare(ctx, up, k.without(c), plant)
		if err != nil {
			return Verdict{}, err
		}
		if maps.Equal(m2, u2) {
			return Verdict{Class: k.name, Model: m, Upstream: u}, nil
		}
	}
	return Verdict{Class: Unexplained, Model: m, Upstream: u}, nil
}

func compare(ctx context.Context, up *Upstream, c *Case, plant Plant) (Result, Result, error) {
	m, err := c.Model(plant)
	if err != nil {
		return nil, nil, err
	}
	u, err := up.Sync(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	return m, u, nil
}
