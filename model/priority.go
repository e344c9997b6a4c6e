package model

import "fmt"

// Pod priority (scheduling.k8s.io/v1 PriorityClass, spec.priority and
// spec.preemptionPolicy of a pod). Priority is static per pod template:
// the priority admission plugin resolves it once, when a pod is created,
// from its template's priorityClassName, and the pods of one template
// share it. Readers resolve class names (inputs/manifest); the model keeps
// only the value and the policy.

// Priority values of Kubernetes' scheduling API.
const (
	// HighestUserDefinablePriority bounds the value of a PriorityClass a
	// user defines; higher values are reserved for the system classes.
	HighestUserDefinablePriority int32 = 1_000_000_000
	// SystemCriticalPriority is the lowest system-critical priority: the
	// value of system-cluster-critical, and the descheduler's default
	// eviction threshold.
	SystemCriticalPriority int32 = 2 * HighestUserDefinablePriority
	// SystemNodeCriticalPriority is the value of system-node-critical.
	SystemNodeCriticalPriority int32 = SystemCriticalPriority + 1000
)

// The built-in PriorityClasses the API server creates.
const (
	SystemClusterCritical = "system-cluster-critical"
	SystemNodeCritical    = "system-node-critical"
)

// PreemptionPolicy is a pod's spec.preemptionPolicy.
type PreemptionPolicy string

const (
	// PreemptLowerPriority (the default, also written as ""): a pod that
	// fits no node may preempt pods of lower priority.
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	// PreemptNever: the pod waits for room and never preempts.
	PreemptNever PreemptionPolicy = "Never"
)

// checkPreemptionPolicy validates a template's policy as the API server
// does (the two values, "" meaning the default).
func checkPreemptionPolicy(p PreemptionPolicy) error {
	switch p {
	case "", PreemptLowerPriority, PreemptNever:
		return nil
	}
	return fmt.Errorf("preemptionPolicy %q (accepted: PreemptLowerPriority, Never): %w", p, ErrInvalid)
}

// PodPriority returns the priority of pod slot p (its template's).
func (u *Universe) PodPriority(s *State, p int) int32 {
	return u.Templates[s.Pods[p].Template].Priority
}

// MayPreempt reports whether pods of template t may preempt others: its
// policy allows it (kube-scheduler's PodEligibleToPreemptOthers).
func (t *PodTemplate) MayPreempt() bool { return t.PreemptionPolicy != PreemptNever }

// HasPriorities reports whether the templates of u differ in priority:
// only then does the scheduling queue's order or preemption depend on
// it. A universe whose templates all share one priority (every built-in
// case: all 0) behaves exactly as one without priorities.
func (u *Universe) HasPriorities() bool {
	for i := range u.Templates {
		if u.Templates[i].Priority != u.Templates[0].Priority {
			return true
		}
	}
	return false
}

// CanPreempt reports whether a pod of u may ever preempt another: some
// template that may preempt has a higher priority than another template.
func (u *Universe) CanPreempt() bool {
	lowest, ok := int32(0), false
	for i := range u.Templates {
		if p := u.Templates[i].Priority; !ok || p < lowest {
			lowest, ok = p, true
		}
	}
	for i := range u.Templates {
		if t := &u.Templates[i]; t.MayPreempt() && t.Priority > lowest {
			return true
		}
	}
	return false
}

// IdenticalPods reports whether slots a and b hold pods no step can tell
// apart (ties.go): equal PodState, and neither pending in a pod queue.
// A controller that must choose among them takes the lowest slots.
func IdenticalPods(s *State, a, b int) bool { return identicalPods(s, a, b) }

// PriorityClassDecl is a PriorityClass as the manifest reader resolved
// it (Cluster.PriorityClasses).
type PriorityClassDecl struct {
	Name             string
	Value            int32
	GlobalDefault    bool
	PreemptionPolicy PreemptionPolicy
}

// Protects reports whether the DefaultEvictor of profile p refuses to
// evict pods of template t for their priority or their volumes
// (descheduler v0.36, defaultevictor's protections): unless
// EvictLocalStoragePods, a pod with local storage (an emptyDir or
// hostPath volume); with IgnorePvcPods, a pod with a
// PersistentVolumeClaim volume; unless EvictSystemCriticalPods, a pod of
// system-critical priority (SystemCriticalPriority and above, or marked
// Critical) and, with a PriorityThreshold, a pod of that priority or
// above.
func (p *DeschedulerProfile) Protects(t *PodTemplate) bool {
	if t.LocalStorage && !p.EvictLocalStoragePods || t.PVC && p.IgnorePvcPods {
		return true
	}
	if p.EvictSystemCriticalPods {
		return false
	}
	return t.Critical || t.Priority >= SystemCriticalPriority ||
		p.PriorityThreshold != nil && t.Priority >= *p.PriorityThreshold
}
