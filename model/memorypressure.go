package model

import (
	"fmt"
	"math"
)

// Node-pressure eviction of memory (the kubelet's eviction manager,
// pkg/kubelet/eviction, v1.36). A pod's memory usage (PodState.Memory,
// MiB) starts at its request and changes only with eventMemoryChange
// (events/memorychange.go), so only universes with that event ever see
// memory pressure (HasMemoryChange) and the others encode and step as
// before.
//
// The signal the model evaluates is allocatableMemory.available, the one
// the kubelet adds for every hard memory.available threshold when
// enforceNodeAllocatable holds "pods" (the default; helpers.go
// addAllocatableThresholds): the pods' cgroup's limit (capacity less
// kube-reserved and system-reserved, which is the node's allocatable plus
// the hard eviction threshold, since allocatable subtracts that threshold
// too) less its working set. The model's node Memory is the node's
// allocatable and its ReservedMemory is used by pods the model does not
// track, at their requests; so the node is under memory pressure exactly
// when the usage of the pods it runs exceeds its allocatable, whatever
// the threshold (kubeletconfig.go).

// EvictionHardMemoryAvailable is the kubelet's default hard eviction
// threshold memory.available<100Mi, in MiB (DefaultKubelet).
const EvictionHardMemoryAvailable int64 = 100

// TaintNodeMemoryPressure is the taint the node lifecycle controller
// puts on a node whose MemoryPressure condition is True
// (TaintNodesByCondition), with effect NoSchedule.
const TaintNodeMemoryPressure = "node.kubernetes.io/memory-pressure"

// MemoryPressureTaint is the taint of a node under memory pressure.
func MemoryPressureTaint() Taint {
	return Taint{Key: TaintNodeMemoryPressure, Effect: NoSchedule}
}

// memoryPressureBit is the bit of a node's encoded byte (NodeState.Byte)
// that holds its MemoryPressure condition, and reclaimingBit the one that
// holds NodeState.Reclaiming: a node without them encodes as before. Both
// stay clear of the NodeStatus bits (health 0x03, TaintQueued 0x08, the
// node-down taints 0xc0) and of cordonedBit.
const (
	memoryPressureBit = 0x10
	reclaimingBit     = 0x04
)

// MemoryChangeSteps is how many evenly spaced amounts an
// eventMemoryChange explores by default.
const MemoryChangeSteps = 4

// HasMemoryChange reports whether some event of u changes a pod's memory
// usage: only then can a node come under memory pressure.
func (u *Universe) HasMemoryChange() bool {
	for i := range u.Events {
		if u.Events[i].Kind == MemoryChange {
			return true
		}
	}
	return false
}

// usesMemory reports whether pod p's containers run on its node and use
// memory there: Running, or Terminating (its containers stop when the
// kubelet removes it), as the kubelet's admission counts them.
func usesMemory(p *PodState) bool {
	return p.Node != 0 && (p.Phase == Running || p.Phase == Terminating)
}

// MemoryUsage is the memory node n's pods use (MiB): the reservation,
// used at its requests, and the usage of every pod whose containers run
// there.
func (u *Universe) MemoryUsage(s *State, n int) int64 {
	used := u.Nodes[n].ReservedMemory
	for i := range s.Pods {
		if p := &s.Pods[i]; int(p.Node) == n+1 && usesMemory(p) {
			used += int64(p.Memory)
		}
	}
	return used
}

// MemoryAvailable is node n's allocatableMemory.available signal (MiB,
// rounded down): the pods' cgroup limit, allocatable plus the hard
// eviction threshold, less what its pods use. It is negative when they use
// more than that.
func (u *Universe) MemoryAvailable(s *State, n int) int64 {
	b := u.memoryAvailableBytes(s, n)
	if b < 0 {
		return -ceilMi(-b)
	}
	return b / Mi
}

// UnderMemoryPressure reports whether node n meets one of its memory
// eviction thresholds, hard or soft (thresholdsMet): its kubelet reports
// the MemoryPressure condition.
func (u *Universe) UnderMemoryPressure(s *State, n int) bool {
	hard, soft := u.MemoryThresholdsMet(s, n)
	return hard || soft
}

// BestEffort reports whether pods of template t are of QoS class
// BestEffort: no container requests or limits cpu or memory, a zero
// quantity counting as none (v1qos.GetPodQOS, which reads the
// containers, not the pod overhead that the requests include, and that
// the limits include when a container has one, if only a zero one).
func (t *PodTemplate) BestEffort() bool {
	return t.CPU == t.Overhead[CPU] && t.Memory == t.Overhead[Memory] &&
		t.LimitCPU <= t.Overhead[CPU] && t.LimitMemory <= t.Overhead[Memory]
}

// QoSClass is a pod's QoS class (v1qos.GetPodQOS).
type QoSClass uint8

// The QoS classes, in the order the kubelet's critical pod admission
// handler preempts them.
const (
	BestEffortQoS QoSClass = iota
	BurstableQoS
	GuaranteedQoS
)

// QoS is the QoS class of pods of template t: BestEffort as BestEffort
// says, Guaranteed as the manifest reader marks it (every container
// limits cpu and memory and requests what it limits, or the pod-level
// resources do), Burstable otherwise.
func (t *PodTemplate) QoS() QoSClass {
	switch {
	case t.BestEffort():
		return BestEffortQoS
	case t.Guaranteed:
		return GuaranteedQoS
	}
	return BurstableQoS
}

// KubeletCritical reports whether the kubelet treats pods of template t
// as critical (kubelettypes.IsCriticalPod: of system-critical priority;
// static and mirror pods are not modelled): it neither evicts them under
// pressure nor rejects them at admission for it.
func (t *PodTemplate) KubeletCritical() bool {
	return t.Critical || t.Priority >= SystemCriticalPriority
}

// ToleratesMemoryPressure reports whether t's tolerations tolerate the
// memory-pressure taint. The API server adds no such toleration by
// default (PodTolerationRestriction, which would add it to pods that are
// not BestEffort, is off by default); DaemonSet pods have it, and they
// are node reservations in the model.
func (t *PodTemplate) ToleratesMemoryPressure() bool {
	taint := MemoryPressureTaint()
	for _, tol := range t.Tolerations {
		if tol.Tolerates(taint) {
			return true
		}
	}
	return false
}

// MemoryPressureRejects reports whether the scheduler's TaintToleration
// filter rejects a pod of template t on node n in s for the
// memory-pressure taint.
func (u *Universe) MemoryPressureRejects(s *State, n int, t *PodTemplate) bool {
	return s.Nodes[n].MemoryPressure && !t.ToleratesMemoryPressure()
}

// SetMemoryPressure sets node n's MemoryPressure condition and with it
// the memory-pressure taint. Removing the taint is a node update that may
// let waiting pods fit (NodeUpdated); adding it helps no pod. Either
// change requests a descheduler cycle (RequestDeschedulerCycle: its taint
// plugin and NodeFit read the taint). The kubelet that clears the
// condition has resolved every threshold.
func SetMemoryPressure(u *Universe, s *State, n int, on bool) {
	if s.Nodes[n].MemoryPressure != on {
		RequestDeschedulerCycle(u, s)
	}
	s.Nodes[n].MemoryPressure = on
	if !on {
		s.Nodes[n].Reclaiming = false
		NodeUpdated(u, s)
	}
}

// OOMKilledAt reports whether a pod of template t whose containers use
// usage MiB exceeds its memory limit, so that the kernel kills the
// container (OOMKilled) rather than the kubelet evicting the pod. The
// model keeps one usage per pod, so it can only tell when every container
// has a limit (LimitMemory is then their sum).
func (t *PodTemplate) OOMKilledAt(usage int64) bool {
	return t.LimitMemory > 0 && len(t.QuotaMissing[QuotaLimitsMemory]) == 0 && usage > t.LimitMemory
}

// MemorySteps spreads memory increases of up to largest MiB over
// MemoryChangeSteps evenly spaced amounts: (steps, unit) with the amounts
// unit, 2·unit, … steps·unit, unit = ⌊largest/MemoryChangeSteps⌋; below
// MemoryChangeSteps MiB, every whole MiB.
func MemorySteps(largest int64) (steps, unit int) {
	largest = min(max(largest, 1), math.MaxInt32)
	if largest <= MemoryChangeSteps {
		return int(largest), 1
	}
	return MemoryChangeSteps, int(largest / MemoryChangeSteps)
}

// DefaultMemoryDelta is eventMemoryChange's default largest increase
// (MiB): the largest node's allocatable plus its hard eviction threshold,
// rounded up to a multiple of MemoryChangeSteps, so that the largest
// amount takes any node over the threshold and the amounts are exact
// quarters.
func (u *Universe) DefaultMemoryDelta() int64 {
	var largest int64
	for i := range u.Nodes {
		largest = max(largest, u.Nodes[i].Memory+u.EvictionThresholdMi(i))
	}
	return (largest + MemoryChangeSteps - 1) / MemoryChangeSteps * MemoryChangeSteps
}

// memoryChangeDecl reads an eventMemoryChange declaration's amounts:
// maxDelta is the largest increase in MiB, spread by MemorySteps; 0 leaves
// the default to Compile (DefaultMemoryDelta).
func memoryChangeDecl(ev *Event, e EventDecl) error {
	if e.DeltaUnit != 0 {
		return fmt.Errorf("deltaUnit: eventMemoryChange spreads maxDelta itself (accepted: maxDelta, the largest increase in MiB): %w", ErrInvalid)
	}
	if e.MaxDelta < 0 {
		return fmt.Errorf("maxDelta %d (accepted: the largest increase in MiB, at least 1): %w", e.MaxDelta, ErrInvalid)
	}
	ev.MaxDelta, ev.DeltaUnit = 0, 0
	if e.MaxDelta > 0 {
		ev.MaxDelta, ev.DeltaUnit = MemorySteps(int64(e.MaxDelta))
	}
	return nil
}

// compileMemoryChange checks event i, an eventMemoryChange, and gives it
// its default amounts: MemoryChangeSteps quarters of DefaultMemoryDelta.
// MaxDelta counts the amounts and DeltaUnit is their spacing in MiB.
func compileMemoryChange(u *Universe, i int, e *Event) error {
	e.VarLen = 1
	if e.MaxDelta == 0 && e.DeltaUnit == 0 {
		e.MaxDelta, e.DeltaUnit = MemorySteps(u.DefaultMemoryDelta())
	}
	if e.DeltaUnit == 0 {
		e.DeltaUnit = 1
	}
	if e.MaxDelta < 1 || e.DeltaUnit < 1 || int64(e.MaxDelta)*int64(e.DeltaUnit) > math.MaxInt32 {
		return fmt.Errorf("events[%d] (%s): maxDelta %d and deltaUnit %d (accepted: at least 1 each, their product at most %d MiB): %w", i, e.Kind, e.MaxDelta, e.DeltaUnit, math.MaxInt32, ErrInvalid)
	}
	if e.Deployment < 0 || e.Deployment >= len(u.Deployments) {
		return fmt.Errorf("events[%d] (%s): deployment %d does not exist: %w", i, e.Kind, e.Deployment, ErrInvalid)
	}
	return nil
}
