package events

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// applyCommand is how trace lines name `kubectl apply`.
const applyCommand = "kubectl apply"

// ApplyDeployment is applyDeployment(t), `kubectl apply` of deployment
// template t: it updates the deployment of the
// template's name, or creates it.
type ApplyDeployment struct{ command }

var _ model.Process = ApplyDeployment{}

func (ApplyDeployment) Name() string { return "applyDeployment" }

// Enabled: once, when its slot allows; with SelfHeal, again whenever the
// cluster is quiet and the live Deployment drifts from the file
// (selfheal.go).
func (a ApplyDeployment) Enabled(u *model.Universe, s *model.State) bool {
	if a.command.Enabled(u, s) {
		return true
	}
	return u.Events[a.event].SelfHeal && vars(u, s, a.event)[0] == commandDone && selfHealDue(u, s, a.event)
}

func (a ApplyDeployment) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	t := u.Events[a.event].Template
	name := u.DeploymentTemplates[t].Name
	healing := vars(u, s, a.event)[0] == commandDone
	vars(u, s, a.event)[0] = commandDone
	defer afterStep(u, s, a.event)
	if d := existingDeployment(u, s, name); d >= 0 {
		live := s.Deps[d].Replicas
		kept := applyTemplate(u, s, d, t, false, true)
		if tx.Tracing() {
			note := ""
			switch {
			case kept:
				note = fmt.Sprintf(" (spec.replicas is in neither this file nor the configuration applied last: %d kept)", live)
			case s.Deps[d].Replicas != live && u.Events[a.event].SelfHeal:
				note = fmt.Sprintf(" (spec.replicas %d → %d)", live, s.Deps[d].Replicas)
			}
			switch {
			case healing:
				tx.Log(GitOpsComponent, "self-heal: %s %s drifted from the file in the repository: applied again, configured%s", u.KindWord(d, false), u.Deployments[d].Name, note)
			case u.Events[a.event].SelfHeal:
				tx.Log(GitOpsComponent, "sync: %s %s configured from the file in the repository%s", u.KindWord(d, false), u.Deployments[d].Name, note)
			default:
				tx.Log(KubectlComponent, "kubectl apply: %s %s configured%s", u.KindWord(d, false), u.Deployments[d].Name, note)
			}
		}
		s.Enqueue(model.DeploymentQueue, d)
		return
	}
	createInFreeSlot(tx, s, applyCommand, t, name)
}
