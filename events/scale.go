package events

import "github.com/kivi-go/kivi/model"

// ScaleDeployment is scaleDeployment(m), `kubectl scale` by a random
// amount: every deployment Deployment ≤ k <
// MaxDeployment and every δ in −MaxDelta..MaxDelta is a branch; a
// Targeted scale sets the replicas to Target (`kubectl scale
// --replicas=N`) in one branch per deployment. The result is never negative
// (the API server rejects negative replicas) and a deployment that does
// not exist is not scaled (kubectl's NotFound).
type ScaleDeployment struct{ command }

var _ model.Process = ScaleDeployment{}

func (ScaleDeployment) Name() string { return "scaleDeployment" }

func (c ScaleDeployment) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	e := &u.Events[c.event]
	k := e.Deployment + tx.Choose(e.MaxDeployment-e.Deployment)
	delta := 0
	if !e.Targeted {
		delta = tx.Choose(2*e.MaxDelta+1) - e.MaxDelta
	}
	vars(u, s, c.event)[0] = commandDone
	defer afterStep(u, s, c.event)
	ds := &s.Deps[k]
	if u.IsJob(k) {
		// kubectl has no scaler for a Job: the command fails.
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl scale: job %s: no scaler has been implemented for Jobs", u.Deployments[k].Name)
		}
		return
	}
	if !ds.Active {
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl scale: %s %s not found", u.KindWord(k, false), u.Deployments[k].Name)
		}
		return
	}
	from := ds.Replicas
	ds.Replicas = max(0, from+int16(delta))
	if e.Targeted {
		ds.Replicas = int16(e.Target)
	}
	s.Enqueue(model.DeploymentQueue, k)
	if tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl scale: %s %s scaled from %d to %d replicas", u.KindWord(k, false), u.Deployments[k].Name, from, ds.Replicas)
	}
}
