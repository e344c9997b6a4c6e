package intents

import "github.com/kivi-go/kivi/model"

// NewPredicate is a user intent: holds must be true in every reachable
// state. explain states it in one line. The predicate sees a read-only
// model.View (pods per node or zone, replicas per deployment, node status,
// pending pods).
func NewPredicate(name, explain string, holds func(v model.View) bool) Intent {
	return Intent{Name: name, Internal: name, Kind: Predicate, Explain: explain, Deployment: -1,
		Holds: func(u *model.Universe, s *model.State) bool { return holds(model.NewView(u, s)) }}
}

// NewCycle is a user cycle intent: no reachable loop of the cluster may
// carry every action in marks (model.MarkEvicted, MarkStarted,
// MarkDeleted, MarkRejected, MarkScaledUp, MarkScaledDown of some
// deployments).
func NewCycle(name, explain string, marks ...model.Mark) Intent {
	return Intent{Name: name, Internal: name, Kind: Cycle, Explain: explain, Marks: marks, Deployment: -1}
}
