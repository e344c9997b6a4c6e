package events

import "github.com/kivi-go/kivi/model"

// Program counter of a one-shot user command (one byte of event memory).
const (
	commandPending uint8 = iota
	commandDone
)

// command is what the user commands (kubectl create, apply, scale, and
// the scaling search's create) share: the event they are, their guard,
// and their footprints (footprint.go).
type command struct{ event int }

// Enabled: a user command runs once, when its slot allows.
func (c command) Enabled(u *model.Universe, s *model.State) bool {
	return mayStart(u, s, c.event) && vars(u, s, c.event)[0] == commandPending
}

// existingDeployment returns the lowest active deployment called name, or
// -1: what `kubectl apply` and `kubectl create` find by name.
func existingDeployment(u *model.Universe, s *model.State, name string) int {
	for d := range s.Deps {
		if s.Deps[d].Active && u.Deployments[d].Name == name {
			return d
		}
	}
	return -1
}

// freeDeployment returns the slot a new deployment called name takes: the
// lowest inactive slot of that name, else the lowest inactive slot (Kivi,
// which ignores names here), else -1. Slot names are static, so a
// fallback slot keeps its own name.
func freeDeployment(u *model.Universe, s *model.State, name string) int {
	fallback := -1
	for d := range s.Deps {
		if s.Deps[d].Active {
			continue
		}
		if u.Deployments[d].Name == name {
			return d
		}
		if fallback < 0 {
			fallback = d
		}
	}
	return fallback
}

// applyTemplate writes deployment template t into deployment d (Kivi's
// copyTemplate). The manifest's replicas overwrite spec.replicas; a
// manifest without them leaves a live deployment's count alone when the
// configuration applied last did not set them either, and otherwise
// writes 1, the API server's default once kubectl apply deletes the
// field (Kivi's case C2; model/lastapplied.go). Its configuration
// replaces the deployment's; the deployment controller rolls a changed
// pod template out, unless it is paused (spec.paused as
// model.PausedAfterApply reads the file). A new deployment also gets the
// manifest's HPA and a current ReplicaSet of the template (none when the
// file pauses it); an existing deployment keeps its HPA, a separate
// object in Kubernetes. saved says
// whether the command
// saves the configuration it applies (kubectl apply does, kubectl create
// does not). It reports whether a live count was kept.
func applyTemplate(u *model.Universe, s *model.State, d, t int, created, saved bool) (kept bool) {
	tmpl := &u.DeploymentTemplates[t]
	ds := &s.Deps[d]
	switch {
	case tmpl.Replicas != nil:
		ds.Replicas = int16(*tmpl.Replicas)
	case !created && u.LastAppliedOmitsReplicas(s, d):
		kept = true
	default:
		ds.Replicas = 1
	}
	u.SetLastApplied(s, d, tmpl.Replicas == nil || !saved)
	u.SetPaused(s, d, u.PausedAfterApply(s, d, t, created))
	u.SetLastAppliedPaused(s, d, saved && tmpl.Paused != nil)
	// The file a rollout restart started from, applied again, keeps the
	// restartedAt annotation and with it the restarted template.
	if created || !u.KeepsRestartedTemplate(int(ds.Config), tmpl.Config) {
		ds.ApplyConfig(u, tmpl.Config)
	}
	if !created {
		return kept
	}
	ds.Active = true
	if tmpl.HPA >= 0 {
		ds.HPA = uint8(tmpl.HPA)
	}
	ds.RS[ds.Cur] = model.ReplicaSetState{Template: uint8(u.Configs[tmpl.Config].PodTemplate + 1), Replicas: ds.Replicas}
	if u.IsPaused(s, d) {
		// Upstream creates no ReplicaSet for a paused Deployment.
		ds.RS[ds.Cur] = model.ReplicaSetState{}
	}
	ds.RS[1-ds.Cur] = model.ReplicaSetState{}
	return false
}

// createInFreeSlot is what kubectl apply and create do for a name no
// active deployment has: the slot freeDeployment picks takes deployment
// template t and is queued for its controller. With no slot left the
// model cannot represent the new deployment (the API server would create
// it): the state records the bound (model.BoundDeploymentObjects) and the
// run's verdicts become Unknown. command is the kubectl command the trace
// line names ("kubectl apply", "kubectl create").
func createInFreeSlot(tx *model.Tx, s *model.State, command string, t int, name string) {
	u := tx.U
	d := freeDeployment(u, s, name)
	if d < 0 {
		if tx.Tracing() {
			tx.Log(KubectlComponent, "%s: no free deployment object for deployment %s (model bound)", command, name)
		}
		s.ReachBound(model.BoundDeploymentObjects)
		return
	}
	if tx.Tracing() {
		tx.Log(KubectlComponent, "%s: %s %s created", command, u.KindWord(d, false), u.Deployments[d].Name)
	}
	applyTemplate(u, s, d, t, true, command == applyCommand)
	s.Enqueue(model.DeploymentQueue, d)
}
