package preemptiondiff

// Known disagreement classes: each names a documented simplification of
// the model (docs/divergences.md) and the counterfactual under which the
// answers agree.
const (
	// ClassBound: finding every outcome of the orders of equal-priority
	// victims on one node takes the model more than its bound of steps
	// (many pods of several kinds); it stops there (an Unknown verdict)
	// rather than answer. Counterfactual: fewer equal-priority pods on a
	// node.
	ClassBound = "model bound (preemption victim orders)"
)

// Classes are the known classes, for reports.
var Classes = []string{ClassBound}

// classify returns the class whose counterfactual removes c's
// disagreement, or "".
func (c *Comparison) classify() string {
	if c.Model.Bound {
		return ClassBound
	}
	return ""
}
