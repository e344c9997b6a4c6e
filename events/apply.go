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

func (a ApplyDeployment) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	t := u.Events[a.event].Template
	name := u.DeploymentTemplates[t].Name
	vars(u, s, a.event)[0] = commandDone
	defer afterStep(u, s, a.event)
	if d := existingDeployment(u, s, name); d >= 0 {
		live := s.Deps[d].Replicas
		kept := applyTemplate(u, s, d, t, false, true)
		if tx.Tracing() {
			note := ""
			if kept {
				note = fmt.Sprintf(" (spec.replicas is in neither this file nor the configuration applied last: %d kept)", live)
			}
			tx.Log(KubectlComponent, "kubectl apply: %s %s configured%s", u.KindWord(d, false), u.Deployments[d].Name, note)
		}
		s.Enqueue(model.DeploymentQueue, d)
		return
	}
	createInFreeSlot(tx, s, applyCommand, t, name)
}
