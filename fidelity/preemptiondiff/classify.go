package preemptiondiff

// Known disagreement classes: each names a documented simplification of
// the model (docs/divergences.md) and the counterfactual under which the
// answers agree.
const (
	// ClassFirstReason: the model's filters report their first reason
	// only (NodeResourcesFit's first insufficient resource), upstream's
	// status lists all, so a FitError's histogram differs when a node
	// lacks several resources. Counterfactual: every real status cut to
	// its first reason.
	ClassFirstReason = "first reason only"
	// ClassBound: finding every outcome of the orders of equal-priority
	// victims on one node takes the model more than its bound of steps
	// (many pods of several kinds); it stops there (an Unknown verdict)
	// rather than answer. Counterfactual: fewer equal-priority pods on a
	// node.
	ClassBound = "model bound (preemption victim orders)"
)

// Classes are the known classes, for reports.
var Classes = []string{ClassFirstReason, ClassBound}

// classify returns the class whose counterfactual removes c's
// disagreement, or "".
func (c *Comparison) classify(r *Real, s *Snapshot) (string, error) {
	m, ra := c.Model, c.Real
	if m.Bound {
		return ClassBound, nil
	}
	if !m.Fits && !ra.Fits && len(m.Branches) == 0 && m.Message != ra.Message && m.Message == ra.FirstReasons {
		return ClassFirstReason, nil
	}
	return "", nil
}
