package compose

import (
	"slices"

	"github.com/kivi-go/kivi/controllers/deployment"
	"github.com/kivi-go/kivi/controllers/descheduler"
	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/controllers/kubelet"
	"github.com/kivi-go/kivi/controllers/nodelifecycle"
	"github.com/kivi-go/kivi/controllers/podgc"
	"github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/events"
	"github.com/kivi-go/kivi/model"
)

// ActorOptions tune which assertions the actors make.
type ActorOptions struct {
	// AssertKernelPanic turns on the kernel-panic count (no_kernel_panic).
	AssertKernelPanic bool
}

// Actors returns the processes of the model: the init process, the CPU
// pattern and the events (each gating itself on the init phase), then the
// controllers in Kivi's start order (deployment, scheduler, HPA, node
// controller, taint manager, kubelet, descheduler), gated on the Main
// phase. Controllers a topology cannot use (no HPA, no taints nor nodes going
// down, no descheduler) are left out, so they cost nothing.
func Actors(u *model.Universe, s *model.State, opts ActorOptions) []Actor {
	var actors []Actor
	for _, p := range events.All(u, events.WithKernelPanicAssert(opts.AssertKernelPanic)) {
		actors = append(actors, Actor{Process: p, Gate: GateAlways})
	}
	controllers := []model.Process{deployment.New(), scheduler.New()}
	if u.HasHPA {
		controllers = append(controllers, hpa.New())
	}
	controllers = append(controllers, nodelifecycle.NewNodeController())
	if model.TaintEvictionRuns(u) {
		controllers = append(controllers, nodelifecycle.NewTaintManager())
	}
	controllers = append(controllers, kubelet.New())
	if u.HasReadiness() {
		controllers = append(controllers, readinessActors(u, s)...)
	}
	if u.HasMemoryChange() {
		controllers = append(controllers, kubelet.NewEvictionManager())
	}
	if u.Descheduler != nil {
		controllers = append(controllers, descheduler.New())
	}
	if !u.Options.KiviLifecycle {
		// Only the kubelet's admission fails pods, and Kivi's kubelet
		// admits every pod.
		controllers = append(controllers, podgc.New())
	}
	for i := range u.Events {
		if e := &u.Events[i]; e.Kind == model.DeleteNode {
			// Every lifecycle: a deleted node's pods go only this way.
			controllers = append(controllers, podgc.NewOrphaned(u, e.Node))
		}
	}
	for _, p := range controllers {
		actors = append(actors, Actor{Process: p, Gate: GateMain})
	}
	return actors
}

// readinessActors are the kubelet's readiness steps, one process per
// owner (bare pods, then every workload in index order: kubelet
// OwnerReadiness), so that partial-order reduction sees the owners' steps
// apart; s, the initial state (nil: unknown), says which Deployments may
// roll out (model.ReadinessMayWakeDeployment) and whether there are bare
// pods (no step creates one). Where no two owners' steps can be
// independent (an HPA, which every readiness step wakes, or fewer than
// two Deployments whose steps wake nothing) it is the one PodReadiness
// process, whose steps are the same: the split would only cost the
// reduction's checks at every state.
func readinessActors(u *model.Universe, s *model.State) []model.Process {
	quiet := 0
	for d := range u.Deployments {
		if !model.ReadinessMayWakeDeployment(u, s, d) {
			quiet++
		}
	}
	if u.HasHPA || quiet < 2 {
		return []model.Process{kubelet.NewReadiness()}
	}
	var ps []model.Process
	if s == nil || slices.ContainsFunc(s.Pods, func(p model.PodState) bool { return p.Phase != model.Free && p.Owner == 0 }) {
		ps = append(ps, kubelet.NewOwnerReadiness(0, false))
	}
	for d := range u.Deployments {
		ps = append(ps, kubelet.NewOwnerReadiness(d+1, model.ReadinessMayWakeDeployment(u, s, d)))
	}
	return ps
}

// SymmetryFacts are the symmetry facts of the processes Actors returns for
// u (model.SymmetryBreaker), for reduction/symmetry.
func SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	return symmetryFacts(u, Actors(u, nil, ActorOptions{}))
}

// symmetryFacts are the symmetry facts of the given actors' processes.
func symmetryFacts(u *model.Universe, actors []Actor) []model.SymmetryFact {
	ps := make([]model.Process, len(actors))
	for i, a := range actors {
		ps[i] = a.Process
	}
	return model.SymmetryFactsOf(u, ps)
}
