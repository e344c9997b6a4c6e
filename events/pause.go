package events

import "github.com/kivi-go/kivi/model"

// RolloutPause is `kubectl rollout pause deployment/D`: the active
// Deployment of that name gets spec.paused, and its controller, which
// the update queues, stops rolling it out (model/paused.go). kubectl
// patches nothing when it is paused already ("already paused"), and
// fails without the Deployment (NotFound).
type RolloutPause struct{ command }

// RolloutResume is `kubectl rollout resume deployment/D`: spec.paused is
// cleared and the controller, which the update queues, rolls the
// Deployment's current pod template out. kubectl fails when it is not
// paused ("is not paused") or does not exist (NotFound).
type RolloutResume struct{ command }

var (
	_ model.Process = RolloutPause{}
	_ model.Process = RolloutResume{}
)

func (RolloutPause) Name() string  { return "rolloutPause" }
func (RolloutResume) Name() string { return "rolloutResume" }

func (r RolloutPause) Step(tx *model.Tx, s *model.State) {
	defer afterStep(tx.U, s, r.event)
	setPaused(tx, s, r.event, true)
}

func (r RolloutResume) Step(tx *model.Tx, s *model.State) {
	defer afterStep(tx.U, s, r.event)
	setPaused(tx, s, r.event, false)
}

// setPaused is kubectl rollout pause (paused) or resume (!paused) of
// event i's Deployment.
func setPaused(tx *model.Tx, s *model.State, i int, paused bool) {
	u := tx.U
	verb := "resume"
	if paused {
		verb = "pause"
	}
	d, name := rolloutTarget(tx, s, i, verb)
	if d < 0 {
		return
	}
	switch was := u.IsPaused(s, d); {
	case was && paused:
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl rollout pause: deployment %s already paused", name)
		}
		return
	case !was && !paused:
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl rollout resume: deployment %s is not paused", name)
		}
		return
	}
	u.SetPaused(s, d, paused)
	if tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl rollout %s: deployment %s %sd", verb, name, verb)
	}
	s.Enqueue(model.DeploymentQueue, d)
}

// refusedWhilePaused reports whether kubectl refuses `kubectl rollout
// VERB` (restart, undo) of deployment d because it is paused, and says
// so in the trace.
func refusedWhilePaused(tx *model.Tx, s *model.State, d int, verb string) bool {
	if !tx.U.IsPaused(s, d) {
		return false
	}
	if tx.Tracing() {
		name := tx.U.Deployments[d].Name
		switch verb {
		case "restart":
			tx.Log(KubectlComponent, "kubectl rollout restart: deployment %s: can't restart paused deployment (run rollout resume first)", name)
		default:
			tx.Log(KubectlComponent, "kubectl rollout undo: deployment %s: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again", name)
		}
	}
	return true
}
