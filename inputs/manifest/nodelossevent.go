package manifest

import "github.com/kivi-go/kivi/model"

// checkNodeLoss refuses what would bring back a node that a nodeFailure
// with recovers: false loses for good: another nodeFailure of that node,
// a maintenance or a kernel panic (both make nodes Ready again). The
// model refuses them too (model.Universe.Compile); here the message
// names the intents file's own paths.
func (r *intentsReader) checkNodeLoss(events []model.EventDecl) error {
	for i, e := range events {
		if e.Kind != "nodeFailure" || e.Recovers == nil || *e.Recovers {
			continue
		}
		for j, o := range events {
			switch {
			case j == i:
			case o.Kind == "nodeFailure" && o.Node == e.Node:
				return r.a.errorf(index("events", j), "nodeFailure of node %s, which events[%d] loses for good (recovers: false) (accepted: one nodeFailure per node lost for good)", o.Node, i)
			case o.Kind == "maintenance" || o.Kind == "kernelPanic":
				return r.a.errorf(index("events", j), "%s would bring back Ready node %s, which events[%d] loses for good (recovers: false) (accepted: a lost node without %s in the same input)", o.Kind, e.Node, i, o.Kind)
			}
		}
	}
	return nil
}
