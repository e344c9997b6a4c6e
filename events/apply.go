package events

import "github.com/kivi-go/kivi/model"

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
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl apply: %s %s configured", u.KindWord(d, false), u.Deployments[d].Name)
		}
		applyTemplate(u, s, d, t, false)
		s.Enqueue(model.DeploymentQueue, d)
		return
	}
	createInFreeSlot(tx, s, "kubectl apply", t, name)
}
