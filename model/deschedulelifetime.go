package model

import (
	"fmt"
	"slices"
	"strings"
)

// FailedPodsArgs are RemoveFailedPods' arguments (removefailedpods at
// descheduler v0.36). A Failed pod is evicted when it passes every filter
// that is set.
type FailedPodsArgs struct {
	// Reasons, when not empty: the pod's status reason, or a waiting or
	// terminated reason of one of its containers (of its init containers
	// too with IncludingInitContainers), must be one of them.
	Reasons []string
	// ExitCodes, when not empty: the exit code of one of its terminated
	// containers must be one of them.
	ExitCodes []int32
	// IncludingInitContainers extends Reasons and ExitCodes to the init
	// containers' statuses.
	IncludingInitContainers bool
	// ExcludeOwnerKinds: pods owned by an object of one of these kinds
	// (OwnerKind) are left alone.
	ExcludeOwnerKinds []string
	// MinPodLifetimeSeconds: the pod must be at least this old; 0 sets no
	// age filter (upstream defaults a missing value to 3600, which the
	// readers write here).
	MinPodLifetimeSeconds uint
}

// PodLifeTimeArgs are PodLifeTime's arguments (podlifetime at descheduler
// v0.36). A pod is evicted when it passes every filter that is set; at
// least one of MaxPodLifeTimeSeconds, States, Conditions and ExitCodes is.
type PodLifeTimeArgs struct {
	// MaxPodLifeTimeSeconds, when set: the pod must be older than this.
	MaxPodLifeTimeSeconds *uint
	// States, when not empty: the pod's phase, its status reason, or a
	// waiting or terminated reason of one of its containers must be one of
	// them (PodLifeTimeStates lists the accepted values).
	States []string
	// Conditions counts the pod condition filters (conditions): the
	// model has no pod conditions, so any pod may match them.
	Conditions int
	// ExitCodes, when not empty: the exit code of one of its terminated
	// containers must be one of them.
	ExitCodes []int32
	// IncludeOwnerKinds, when not empty, are the only owner kinds whose
	// pods are evicted; ExcludeOwnerKinds are never (at most one is set).
	IncludeOwnerKinds, ExcludeOwnerKinds []string
}

// PodLifeTimeStates are the states PodLifeTime accepts (upstream's
// podLifeTimeAllowedStates): pod phases, pod status reasons, container
// waiting reasons and container terminated reasons.
var PodLifeTimeStates = []string{
	"Running", "Pending", "Succeeded", "Failed", "Unknown",
	"NodeAffinity", "NodeLost", "Shutdown", "UnexpectedAdmissionError",
	"PodInitializing", "ContainerCreating", "ImagePullBackOff", "CrashLoopBackOff",
	"CreateContainerConfigError", "ErrImagePull", "CreateContainerError", "InvalidImageName",
	"OOMKilled", "Error", "Completed", "DeadlineExceeded", "Evicted", "ContainerCannotRun", "StartError",
}

// AcceptedPodLifeTimeStates is the sorted list of PodLifeTimeStates, as
// upstream's validation prints it.
func AcceptedPodLifeTimeStates() string {
	s := slices.Clone(PodLifeTimeStates)
	slices.Sort(s)
	return strings.Join(s, ", ")
}

// HasAgeLimit reports whether the plugin's pods must be older than a
// limit: the model has no clock, so whether a pod is old enough is
// unknown.
func (a *PodLifeTimeArgs) HasAgeLimit() bool { return a.MaxPodLifeTimeSeconds != nil }

// check validates the args as ValidatePodLifeTimeArgs does; enabled: the
// plugin is enabled (an unused zero config needs no criterion).
func (a *PodLifeTimeArgs) check(field string, enabled bool) error {
	for i, st := range a.States {
		if !slices.Contains(PodLifeTimeStates, st) {
			return fmt.Errorf("%s.states[%d]: %q (accepted: %s): %w", field, i, st, AcceptedPodLifeTimeStates(), ErrInvalid)
		}
	}
	if len(a.IncludeOwnerKinds) > 0 && len(a.ExcludeOwnerKinds) > 0 {
		return fmt.Errorf("%s.ownerKinds: include and exclude are both set (accepted: one of them): %w", field, ErrInvalid)
	}
	if enabled && a.MaxPodLifeTimeSeconds == nil && len(a.States) == 0 && a.Conditions == 0 && len(a.ExitCodes) == 0 {
		return fmt.Errorf("%s: no filtering criterion (accepted: at least one of maxPodLifeTimeSeconds, states, conditions, exitCodes): %w", field, ErrInvalid)
	}
	return nil
}
