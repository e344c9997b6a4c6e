package events

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// A GitOps controller (Argo CD's automated sync with selfHeal, Flux's
// reconciliation) applies the Deployment's file from its repository
// again whenever the live object drifts from it. The model's
// applyDeployment with SelfHeal is that: once applied, it is enabled
// again whenever the cluster is quiet and applying the file would change
// the Deployment, and each such step is one more kubectl apply of it
// (the same three-way merge: a file that sets spec.replicas resets
// whatever an HPA or kubectl scale made of them; one that leaves them
// out keeps the live count). A file that sets spec.replicas under an HPA
// thus fights the HPA forever, which no_scaling_loop reports.
//
// The model's GitOps controller waits for the controllers to be idle;
// a real one may re-apply mid-rollout too (every few seconds to minutes).

// selfHealDrift reports whether applying event i's file again would
// change deployment d's state in s. It applies it to a copy of the
// deployments.
func selfHealDrift(u *model.Universe, s *model.State, i, d int) bool {
	cp := *s
	cp.Deps = slices.Clone(s.Deps)
	applyTemplate(u, &cp, d, u.Events[i].Template, false, true)
	return cp.Deps[d] != s.Deps[d]
}

// selfHealDue reports whether event i, applied once and healing, would
// apply its file again in s.
func selfHealDue(u *model.Universe, s *model.State, i int) bool {
	if !mayStart(u, s, i) || !s.ControllerAndHPAQueuesEmpty() {
		return false
	}
	d := existingDeployment(u, s, u.DeploymentTemplates[u.Events[i].Template].Name)
	return d < 0 || selfHealDrift(u, s, i, d)
}

// StaticFootprint: a healing apply also reads the queues (it waits for
// the controllers to be idle).
func (a ApplyDeployment) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	reads, writes = commandFootprint(u, a.event)
	if u.Events[a.event].SelfHeal {
		reads.AddQueues()
	}
	return reads, writes
}

func (a ApplyDeployment) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return a.StaticFootprint(u)
}

// DisabledBy: a healing apply that has run waits for a drift and for
// quiet, which any write may bring.
func (a ApplyDeployment) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	if u.Events[a.event].SelfHeal && vars(u, s, a.event)[0] == commandDone {
		return model.AllComponents()
	}
	return a.command.DisabledBy(u, s)
}
