package model

import (
	"fmt"
	"slices"
	"strings"
)

// TooManyRestartsArgs are RemovePodsHavingTooManyRestarts' arguments
// (removepodshavingtoomanyrestarts at descheduler v0.36). A pod is
// evicted when its containers' restarts reach the threshold and, with
// States, it is in one of them.
type TooManyRestartsArgs struct {
	// PodRestartThreshold: the pod's restarts, summed over its
	// containers (and its init containers with IncludingInitContainers),
	// must be at least this (at least 1: upstream's validation refuses
	// its default 0).
	PodRestartThreshold int32
	// IncludingInitContainers adds the init containers' restarts, and
	// their waiting reasons to States.
	IncludingInitContainers bool
	// States, when not empty: the pod's phase or a waiting reason of one
	// of its containers must be one of them (TooManyRestartsStates).
	States []string
}

// TooManyRestartsStates returns the states RemovePodsHavingTooManyRestarts
// accepts, sorted as upstream's validation prints them: the phase
// Running and the waiting reason CrashLoopBackOff.
func TooManyRestartsStates() []string { return []string{"CrashLoopBackOff", "Running"} }

// MaxRestarts is the highest restart count a pod slot holds
// (PodState.Restarts): a pod that restarted more often holds MaxRestarts,
// which reads "at least MaxRestarts". Only a threshold above it cannot
// tell whether such a pod reaches it (RestartsReach).
const MaxRestarts = 255

// SaturatedRestarts returns a restart count as a pod slot holds it.
func SaturatedRestarts(n int64) uint8 { return uint8(min(max(n, 0), MaxRestarts)) }

// RestartsReach reports whether a pod slot's restart count (saturated at
// MaxRestarts) reaches threshold: known is false when the count is
// MaxRestarts and the threshold above it, where the pod may or may not
// have restarted that often.
func RestartsReach(restarts uint8, threshold int32) (reach, known bool) {
	if int32(restarts) >= threshold {
		return true, true
	}
	if restarts == MaxRestarts {
		return false, false
	}
	return false, true
}

// OOMKilledExitCode is the exit code of a container the kernel killed
// for passing its memory limit (SIGKILL).
const OOMKilledExitCode = 137

// TracksRestarts reports whether pod slots count their containers'
// restarts (PodState.Restarts, up to RestartCap): universes where nothing
// reads them encode as if the field did not exist.
func (u *Universe) TracksRestarts() bool { return u.RestartCap() > 0 }

// RestartCap is the most restarts a pod slot holds. RemovePodsHavingTooManyRestarts
// counts them (MaxRestarts). Elsewhere only whether a container restarted
// matters (1): it may be crash-looping when a descheduler cycle runs,
// which PodLifeTime's state CrashLoopBackOff or OOMKilled or exit code
// 137 reads, and which makes the pod not Ready to a PodDisruptionBudget
// the cycle's evictions go through. Without either, 0.
func (u *Universe) RestartCap() uint8 {
	if u.Descheduler == nil {
		return 0
	}
	flag := u.BudgetsSelectPods()
	for i := range u.Descheduler.Profiles {
		c := &u.Descheduler.Profiles[i].Deschedule
		if c.Has(RemovePodsHavingTooManyRestarts) {
			return MaxRestarts
		}
		lt := &c.PodLifeTime
		if c.Has(PodLifeTime) && (slices.Contains(lt.ExitCodes, OOMKilledExitCode) ||
			slices.Contains(lt.States, "CrashLoopBackOff") || slices.Contains(lt.States, "OOMKilled")) {
			flag = true
		}
	}
	if flag {
		return 1
	}
	return 0
}

// CappedRestarts returns a restart count as this universe's pod slots
// hold it (RestartCap).
func (u *Universe) CappedRestarts(n int64) uint8 {
	return uint8(min(max(n, 0), int64(u.RestartCap())))
}

// restartsIncludeInit reports how the enabled RemovePodsHavingTooManyRestarts
// profiles read init containers' restarts: include is true when they add
// them; mixed when profiles differ.
func (u *Universe) restartsIncludeInit() (include, mixed bool) {
	seen := false
	for i := range u.Descheduler.Profiles {
		c := &u.Descheduler.Profiles[i].Deschedule
		if !c.Has(RemovePodsHavingTooManyRestarts) {
			continue
		}
		if seen && c.TooManyRestarts.IncludingInitContainers != include {
			return include, true
		}
		include, seen = c.TooManyRestarts.IncludingInitContainers, true
	}
	return include, false
}

// InitialRestarts is the restart count a pod placed by the input starts
// with (PodState.Restarts): its containers' restarts, plus its init
// containers' when the profiles that read restarts add them; 0 when no
// profile reads them. The model never restarts an init container, so
// init restarts are the input's alone; profiles that disagree on adding
// them cannot share one count, which is an input error when a placed pod
// has any (field names the pod).
func (u *Universe) InitialRestarts(p *InitialPod, field string) (uint8, error) {
	if !u.TracksRestarts() {
		return 0, nil
	}
	n := int64(p.Restarts)
	if p.InitRestarts > 0 {
		include, mixed := u.restartsIncludeInit()
		if mixed {
			return 0, fmt.Errorf("%s.initRestarts: %d, and the descheduler profiles that enable %s differ in includingInitContainers, "+
				"so the pod's restart count is not one number (accepted: the same includingInitContainers in every such profile): %w",
				field, p.InitRestarts, RemovePodsHavingTooManyRestarts, ErrInvalid)
		}
		if include {
			n += int64(p.InitRestarts)
		}
	}
	return u.CappedRestarts(n), nil
}

// check validates the args as ValidateRemovePodsHavingTooManyRestartsArgs
// does; enabled: the plugin is enabled (unused args are not checked, as
// the descheduler builds only enabled plugins).
func (a *TooManyRestartsArgs) check(field string, enabled bool) error {
	if !enabled {
		return nil
	}
	if a.PodRestartThreshold < 1 {
		return fmt.Errorf("%s.podRestartThreshold: %d (accepted: an integer of at least 1; upstream's default 0 is refused): %w",
			field, a.PodRestartThreshold, ErrInvalid)
	}
	for i, st := range a.States {
		if !slices.Contains(TooManyRestartsStates(), st) {
			return fmt.Errorf("%s.states[%d]: %q (accepted: %s): %w", field, i, st, strings.Join(TooManyRestartsStates(), ", "), ErrInvalid)
		}
	}
	return nil
}
