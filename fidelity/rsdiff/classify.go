package rsdiff

import (
	"fmt"
	"maps"
	"slices"
)

// Class names the cause of a disagreement; the empty Class is agreement.
type Class string

const (
	// Agree: upstream's tied pick is a model branch and every model
	// branch is a pick upstream makes under some untracked values.
	Agree Class = ""
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

// classes are the known causes of disagreement. None is left: the one
// there was, a Running pod that is not Ready (which the model once ranked
// as Ready), went when the model gained readiness (model.PodNotReady).
var classes []class

// Verdict is the comparison of one case.
type Verdict struct {
	Class  Class
	Detail string // the faithful comparison's disagreement
	// Branches is the number of the model's successors.
	Branches int
}

// Check compares the model with rank (upstream's getPodsToDelete, or a
// planted ranking) on c, upstream listing the pods in order, and names
// the cause of a disagreement: the first class whose counterfactual makes
// the two agree.
func Check(c *Case, rank Ranker, order []int) (Verdict, error) {
	detail, branches, err := compare(c, rank, order)
	if err != nil || detail == "" {
		return Verdict{Detail: detail, Branches: branches}, err
	}
	for _, k := range classes {
		if !k.applies(c) {
			continue
		}
		d, _, err := compare(k.without(c), rank, order)
		if err != nil {
			return Verdict{}, err
		}
		if d == "" {
			return Verdict{Class: k.name, Detail: detail, Branches: branches}, nil
		}
	}
	return Verdict{Class: Unexplained, Detail: detail, Branches: branches}, nil
}

// compare returns "" when the model and rank agree on c, else what
// differs: upstream's pick with equal untracked values (tied) must be a
// model branch up to identical pods, and each model branch, its pods
// restarted once (steered), must be exactly upstream's pick.
func compare(c *Case, rank Ranker, order []int) (string, int, error) {
	branches, err := c.Model()
	if err != nil {
		return "", 0, err
	}
	sigs := map[string]bool{}
	for _, b := range branches {
		if len(b) != c.Delete {
			return fmt.Sprintf("model branch %v deletes %d pods, not %d", b, len(b), c.Delete), len(branches), nil
		}
		sigs[c.signature(b)] = true
	}
	if got := c.Upstream(rank, order, nil); !sigs[c.signature(got)] {
		return fmt.Sprintf("tied: upstream deletes %v [%s]; model branches %v %v",
			got, c.signature(got), branches, slices.Sorted(maps.Keys(sigs))), len(branches), nil
	}
	for _, b := range branches {
		if got := c.Upstream(rank, order, b); !slices.Equal(got, b) {
			return fmt.Sprintf("steered: model branch %v, upstream with those pods restarted deletes %v", b, got), len(branches), nil
		}
	}
	return "", len(branches), nil
}
