package manifest

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

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

// checkNodeDeletion refuses what would bring back, or act on, a node that
// a deleteNode deletes for good: a second deleteNode of it, a nodeFailure
// of it that recovers, a drain of it (deleteNode's drain: true drains it
// first), a maintenance or a kernel panic (both make nodes Ready again).
// A nodeFailure with recovers: false may lose it first. The model refuses
// them too (model.Universe.Compile); here the message names the intents
// file's own paths.
func (r *intentsReader) checkNodeDeletion(events []model.EventDecl) error {
	for i, e := range events {
		if e.Kind != "deleteNode" {
			continue
		}
		for j, o := range events {
			switch {
			case j == i:
			case o.Kind == "deleteNode" && o.Node == e.Node:
				return r.a.errorf(index("events", j), "deleteNode of node %s, which events[%d] deletes already (accepted: one deleteNode per node)", o.Node, i)
			case o.Kind == "nodeFailure" && o.Node == e.Node && (o.Recovers == nil || *o.Recovers):
				return r.a.errorf(index("events", j), "nodeFailure of node %s would bring it back Ready (recovers: true, the default), and events[%d] deletes it for good (accepted: recovers: false, a node lost for good that is then deleted)", o.Node, i)
			case o.Kind == "drain" && (o.Node == e.Node || slices.Contains(o.Nodes, e.Node)):
				return r.a.errorf(index("events", j), "drain of node %s, which events[%d] deletes (accepted: drain: true on the deleteNode, which drains the node first)", e.Node, i)
			case o.Kind == "maintenance" || o.Kind == "kernelPanic":
				return r.a.errorf(index("events", j), "%s would bring back Ready node %s, which events[%d] deletes for good (accepted: a deleted node without %s in the same input)", o.Kind, e.Node, i, o.Kind)
			}
		}
	}
	return nil
}
