package events

import "github.com/kivi-go/kivi/model"

// RolloutUndo is `kubectl rollout undo deployment/D`: the active
// deployment of that name takes its previous revision's pod template
// (the other ReplicaSet slot's) under its current strategy
// (model/undo.go), and the Deployment controller scales that ReplicaSet
// back up. Without an active deployment of that name, without a
// previous revision, or when the Deployment is paused, kubectl fails and
// nothing changes.
type RolloutUndo struct{ command }

var _ model.Process = RolloutUndo{}

func (RolloutUndo) Name() string { return "rolloutUndo" }

func (r RolloutUndo) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	e := &u.Events[r.event]
	defer afterStep(u, s, r.event)
	d, name := rolloutTarget(tx, s, r.event, "undo")
	if d < 0 || refusedWhilePaused(tx, s, d, "undo") {
		return
	}
	ds := &s.Deps[d]
	prev := int(ds.RS[1-ds.Cur].Template) - 1
	to, ok := 0, false
	if prev >= 0 {
		to, ok = e.UndoConfig(u, int(ds.Config), prev)
	}
	if !ok {
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl rollout undo: %s %s has no previous revision", tx.U.KindWord(d, false), name)
		}
		return
	}
	ds.ApplyConfig(u, to)
	if tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl rollout undo: %s %s rolled back to its previous revision", tx.U.KindWord(d, false), name)
	}
	s.Enqueue(model.DeploymentQueue, d)
}
