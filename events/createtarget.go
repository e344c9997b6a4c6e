package events

import "github.com/kivi-go/kivi/model"

// CreateTargetDeployment is createTargetDeployment(k):
// it brings deployment slot k, defined in the topology, to life.
type CreateTargetDeployment struct{ command }

var _ model.Process = CreateTargetDeployment{}

func (CreateTargetDeployment) Name() string { return "createTargetDeployment" }

func (c CreateTargetDeployment) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	d := u.Events[c.event].Deployment
	if !s.Deps[d].Active {
		s.Deps[d].Active = true
		s.Enqueue(model.DeploymentQueue, d)
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl create: %s %s created", u.KindWord(d, false), u.Deployments[d].Name)
		}
	}
	vars(u, s, c.event)[0] = commandDone
	afterStep(u, s, c.event)
}
