package events

import "github.com/kivi-go/kivi/model"

// RolloutRestart is `kubectl rollout restart deployment/D`: the active
// deployment of that name switches to the restarted copy of its
// configuration (model/restart.go), a pod template equal to its own but
// a new revision, and the Deployment controller rolls it out; the
// replicas stay as they are. Without an active deployment of that name
// kubectl fails (NotFound) and nothing changes.
type RolloutRestart struct{ command }

var _ model.Process = RolloutRestart{}

func (RolloutRestart) Name() string { return "rolloutRestart" }

func (r RolloutRestart) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	e := &u.Events[r.event]
	vars(u, s, r.event)[0] = commandDone
	defer afterStep(u, s, r.event)
	name := u.Deployments[e.Deployment].Name
	d := existingDeployment(u, s, name)
	if d < 0 {
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl rollout restart: deployment %s not found", name)
		}
		return
	}
	ds := &s.Deps[d]
	if to, ok := e.RestartedConfig(int(ds.Config)); ok {
		ds.ApplyConfig(u, to)
	}
	if tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl rollout restart: deployment %s restarted", name)
	}
	s.Enqueue(model.DeploymentQueue, d)
}
