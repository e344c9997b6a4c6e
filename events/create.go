package events

import "github.com/kivi-go/kivi/model"

// CreateDeployment is createDeployment(t), `kubectl create` of deployment
// template t: it creates the deployment, and fails
// (FailDeploymentExists) when one of that name exists, as kubectl's
// AlreadyExists error does.
type CreateDeployment struct{ command }

var _ model.Process = CreateDeployment{}

func (CreateDeployment) Name() string { return "createDeployment" }

func (c CreateDeployment) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	t := u.Events[c.event].Template
	name := u.DeploymentTemplates[t].Name
	vars(u, s, c.event)[0] = commandDone
	defer afterStep(u, s, c.event)
	if existingDeployment(u, s, name) >= 0 {
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl create: deployment %s already exists", name)
		}
		s.Fail(model.FailDeploymentExists, t)
		return
	}
	createInFreeSlot(tx, s, "kubectl create", t, name)
}
