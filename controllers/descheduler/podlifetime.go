package descheduler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// podLifeTime is the PodLifeTime Deschedule plugin
// (pkg/framework/plugins/podlifetime/pod_lifetime.go at v0.36): it lists
// the pods of every cycle node that pass its filters (maxPodLifeTimeSeconds,
// states, conditions, exitCodes, ownerKinds, namespaces, labelSelector)
// and the DefaultEvictor's, sorts them oldest first, and evicts them in
// that order: a node or namespace limit skips a pod, a budget's refusal
// too, the total limit ends the plugin.
//
// What the model can tell of a pod (podLifeTimeMatches):
//
//   - its phase: Pending (bound, not started yet), Running or Failed;
//     Succeeded and Unknown never verdict;
//   - its status reason: only a Failed pod has one, the admission
//     reason, or Evicted or Preempting for a pod the kubelet killed,
//     which the state does not keep (failedReasons): of the accepted
//     states only NodeAffinity and Evicted can be it;
//   - its containers' states: a bound Pending pod's containers may show
//     ContainerCreating (or not yet, before the kubelet syncs it), a
//     Running pod's are running, except that a container OOM-killed past
//     its memory limit (eventMemoryChange) is, until the kubelet restarts
//     it, terminated with reason OOMKilled and exit code 137, and from
//     its second crash on waits in CrashLoopBackOff first: the model
//     restarts it in the step that kills it, so for a pod that ran and
//     has restarted (model.PodState.Restarts, kept when a profile reads
//     these states: model.Universe.TracksRestarts) those states are
//     unknown at every cycle (mayShowCrash, stateMatches): the cycle
//     decides them once per pod, with the pod's readiness, which its
//     budget reads (crashview.go). The model's containers
//     never fail to pull or crash otherwise, so PodInitializing,
//     ImagePullBackOff, CreateContainerConfigError, ErrImagePull,
//     CreateContainerError, InvalidImageName and the other terminated
//     reasons never verdict, and an exitCodes filter only through 137;
//   - its age, with maxPodLifeTimeSeconds, and its conditions, with a
//     conditions filter, are unknown: any pod may verdict.
//
// A pod these leave undecided is a maybe; the plugin branches over which
// maybes verdict (unknownage.go). The age order is unknown too: when the
// limits or budgets cannot take every matching pod, the plugin branches
// over which go first. So every set of pods a real cycle may evict is a
// branch: with an age limit, any set of matching pods the limits and
// budgets admit (the empty one when none is old enough yet); without,
// the sets a greedy walk in some order ends with.
type podLifeTime struct{}

func (podLifeTime) Name() string { return model.PodLifeTime.String() }

// Deschedule lists, decides and evicts; see podLifeTime.
func (podLifeTime) Deschedule(c *cycle, p *model.DeschedulerProfile) {
	args := &p.Deschedule.PodLifeTime
	var out []violation
	defer func() { c.flush(out) }()
	var sure, maybe, all []int
	for _, n := range c.ready {
		for _, pod := range c.listedAnyPhase(p, p.Deschedule.Filter(model.PodLifeTime), n) {
			switch podLifeTimeMatches(c, args, pod) {
			case sureMatch:
				sure = append(sure, pod)
			case maybeMatch:
				maybe = append(maybe, pod)
			default:
				continue
			}
			all = append(all, pod)
		}
	}
	slices.Sort(all)
	var first, then []int
	switch {
	case len(all) == 0:
		return
	case c.admitsAll(all):
		// Every order admits every pod: only which maybes verdict is open.
		first, then = c.chooseSubset(maybe), sure
	default:
		// The first pods of the (unknown) age order take the limits:
		// which ones is a choice, the sure ones that are left follow.
		first = c.chooseSubset(all)
		for _, pod := range sure {
			if !slices.Contains(first, pod) {
				then = append(then, pod)
			}
		}
	}
	criteria := lifeTimeCriteria(args)
	for _, pod := range append(first, then...) {
		if c.tryEvict(violation{pod: pod, plugin: model.PodLifeTime, criteria: criteria}, &out) == totalLimit {
			return
		}
	}
}

// podLifeTimeMatches applies PodLifeTime's filters to a listed pod.
func podLifeTimeMatches(c *cycle, a *model.PodLifeTimeArgs, pod int) verdict {
	m := sureMatch
	if a.HasAgeLimit() || a.Conditions > 0 {
		m = maybeMatch
	}
	kind := c.ownerKind(pod)
	if len(a.IncludeOwnerKinds) > 0 && !slices.Contains(a.IncludeOwnerKinds, kind) ||
		kind != "" && slices.Contains(a.ExcludeOwnerKinds, kind) {
		return noMatch
	}
	if len(a.States) > 0 {
		if m = m.and(c.stateMatches(pod, a.States, false)); m == noMatch {
			return noMatch
		}
	}
	if len(a.ExitCodes) > 0 {
		// Only a container terminated by the OOM killer shows an exit
		// code (137) in the model (crashview.go).
		if !slices.Contains(a.ExitCodes, model.OOMKilledExitCode) || !mayShowCrash(&c.s.Pods[pod]) || !c.showsCrash(pod, false, true) {
			return noMatch
		}
	}
	return m
}

// mayShowCrash reports whether a pod's container may show a crash at a
// cycle: it ran and restarted (see podLifeTime and tooManyRestarts).
func mayShowCrash(ps *model.PodState) bool {
	ran := ps.Phase == model.Running || ps.Phase == model.Terminating && ps.WasRunning
	return ran && ps.Restarts > 0
}

// stateMatches is whether one of the pod's states is in states (see
// podLifeTime for what the model can tell): its phase's
// (phaseStateMatches), or at the cycle's instant a crash's (showsCrash):
// an app container's, or with initContainers a Pending pod's init
// container's CrashLoopBackOff.
func (c *cycle) stateMatches(pod int, states []string, initContainers bool) verdict {
	m := c.phaseStateMatches(pod, states)
	if m == sureMatch {
		return m
	}
	ps := &c.s.Pods[pod]
	backOff, oomKilled := slices.Contains(states, "CrashLoopBackOff"), slices.Contains(states, "OOMKilled")
	switch {
	case (backOff || oomKilled) && mayShowCrash(ps) && c.showsCrash(pod, backOff, oomKilled):
		return sureMatch
	case backOff && initContainers && ps.Phase == model.Pending && ps.Restarts > 0 && c.showsCrash(pod, true, false):
		return sureMatch
	}
	return m
}

// phaseStateMatches is whether the pod's phase, status reason or a
// container state other than a crash's is in states.
func (c *cycle) phaseStateMatches(pod int, states []string) verdict {
	ps := &c.s.Pods[pod]
	if ps.Phase == model.Terminating {
		// Listed with the evict annotation (terminatingListed): a pod
		// being deleted keeps its phase, Running once it ran. Without
		// WasRunning it was Pending, or Running on a node that was not
		// Ready (model.PodState.WasRunning): either.
		switch {
		case ps.WasRunning && slices.Contains(states, "Running"):
			return sureMatch
		case !ps.WasRunning && slices.ContainsFunc(states, func(s string) bool {
			return s == "Running" || s == "Pending" || s == "ContainerCreating"
		}):
			return maybeMatch
		}
		return noMatch
	}
	if slices.Contains(states, ps.Phase.String()) {
		return sureMatch
	}
	switch ps.Phase {
	case model.Pending:
		if slices.Contains(states, "ContainerCreating") {
			return maybeMatch
		}
	case model.Failed:
		return matchOneOf(c.failedReasons(pod), states)
	}
	return noMatch
}

// lifeTimeCriteria prints the filters a pod PodLifeTime evicts matched.
func lifeTimeCriteria(a *model.PodLifeTimeArgs) string {
	var parts []string
	if a.HasAgeLimit() {
		parts = append(parts, fmt.Sprintf("maxPodLifeTimeSeconds %d (the model has no clock: any pod may be that old)", *a.MaxPodLifeTimeSeconds))
	}
	if len(a.States) > 0 {
		parts = append(parts, "states "+strings.Join(a.States, ", "))
	}
	if a.Conditions > 0 {
		parts = append(parts, "conditions (not modelled: any pod may verdict)")
	}
	if len(parts) == 0 {
		return "its filters"
	}
	return strings.Join(parts, "; ")
}
