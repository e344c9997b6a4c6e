package events

import "github.com/kivi-go/kivi/model"

// RolloutRestart is `kubectl rollout restart deployment/D`: the active
// deployment of that name switches to the restarted copy of its
// configuration (model/restart.go), a pod template equal to its own but
// a new revision, and the Deployment controller rolls it out; the
// replicas stay as they are. Without an active deployment of that name
// kubectl fails (NotFound), and it refuses a paused Deployment: nothing
// changes.
type RolloutRestart struct{ command }

var _ model.Process = RolloutRestart{}

func (RolloutRestart) Name() string { return "rolloutRestart" }

// rolloutTarget marks `kubectl rollout VERB` (event i) done and returns
// the active deployment of its Deployment's name, or -1 when there is
// none (kubectl fails with NotFound, as the trace says), and the name.
func rolloutTarget(tx *model.Tx, s *model.State, i int, verb string) (int, string) {
	u := tx.U
	vars(u, s, i)[0] = commandDone
	target := u.Events[i].Deployment
	name := u.Deployments[target].Name
	d := existingDeployment(u, s, name)
	if d < 0 && tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl rollout %s: %s %s not found", verb, u.KindWord(target, false), name)
	}
	return d, name
}

func (r RolloutRestart) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	e := &u.Events[r.event]
	defer afterStep(u, s, r.event)
	d, name := rolloutTarget(tx, s, r.event, "restart")
	if d < 0 || refusedWhilePaused(tx, s, d, "restart") {
		return
	}
	ds := &s.Deps[d]
	if to, ok := e.RestartedConfig(int(ds.Config)); ok {
		ds.ApplyConfig(u, to)
	}
	if tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl rollout restart: %s %s restarted", u.KindWord(d, false), name)
	}
	s.Enqueue(model.DeploymentQueue, d)
}
