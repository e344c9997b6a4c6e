package events

import (
	"fmt"
	"math"

	"github.com/kivi-go/kivi/model"
)

// MemoryChange is eventMemoryChange(D): once the cluster is quiescent, the
// memory usage of one started pod of deployment D's current ReplicaSet
// grows by one of the event's amounts (DeltaUnit, 2·DeltaUnit, …
// MaxDelta·DeltaUnit MiB): a leak, a cache filling up. Every (pod,
// amount) pair is a branch. A node whose pods then use more than its
// allocatable is under memory pressure, which the kubelet's eviction
// manager answers (controllers/kubelet, evictionmanager.go); a pod whose
// usage would exceed its own memory limit is OOM-killed and restarted in
// place instead.
type MemoryChange struct {
	usageRise
}

var (
	_ model.Process     = MemoryChange{}
	_ model.EndChecker  = MemoryChange{}
	_ model.Footprinter = MemoryChange{}
)

func (MemoryChange) Name() string { return "eventMemoryChange" }

func (c MemoryChange) Enabled(u *model.Universe, s *model.State) bool { return c.enabled(u, s) }

// Step is either the guard step (no trace) or the body.
func (c MemoryChange) Step(tx *model.Tx, s *model.State) { c.step(tx, s, changeMemory) }

// ValidEnd: waiting in the body for a member to exist is not an end
// location, as for eventCpuChange.
func (c MemoryChange) ValidEnd(u *model.Universe, s *model.State) bool { return c.validEnd(u, s) }

// changeMemory raises pod p's memory usage by delta MiB. Past the pod's
// memory limit the kernel kills the container (OOMKilled) and the kubelet
// restarts it in place (restartPolicy Always): the pod stays Running with
// the usage it started with, one restart more (counted where a
// descheduler profile reads restarts, model.Universe.TracksRestarts),
// and no eviction follows. Otherwise the pod keeps the new usage and its
// owner is queued for the HPA (a memory metric reads it).
func changeMemory(tx *model.Tx, s *model.State, p int, delta int64) {
	u := tx.U
	pod := &s.Pods[p]
	t := &u.Templates[pod.Template]
	n := pod.NodeOf()
	usage := min(int64(pod.Memory)+delta, math.MaxInt32)
	if t.OOMKilledAt(usage) {
		_, pod.Memory = t.StartUsage()
		restartCap := u.RestartCap()
		if restartCap > 0 {
			pod.Restarts = u.CappedRestarts(int64(pod.Restarts) + 1)
			model.RequestDeschedulerCycle(u, s)
		}
		if tx.Tracing() {
			restarts := ""
			switch restartCap {
			case 0:
			case 1:
				restarts = " (it has restarted: it may be crash-looping, not Ready, at a descheduler cycle)"
			default:
				restarts = fmt.Sprintf(" (its restarts: %d)", pod.Restarts)
			}
			tx.Log(WorkloadComponent, "Memory usage of pod %s grew by %dMi to %dMi, over its limit %dMi: the container is OOMKilled and restarted in place%s; the pod uses %dMi again",
				s.PodRef(p), delta, usage, t.LimitMemory, restarts, pod.Memory)
		}
		return
	}
	pod.Memory = int32(usage)
	if pod.Owner != 0 && u.HasHPA {
		s.EnqueueHPA(u, int(pod.Owner)-1)
	}
	if tx.Tracing() {
		tx.Log(WorkloadComponent, "Memory usage of pod %s grew by %dMi to %dMi; node %s: allocatableMemory.available %dMi (eviction threshold %dMi)",
			s.PodRef(p), delta, usage, u.Nodes[n].Name, u.MemoryAvailable(s, n), u.EvictionThresholdMi(n))
	}
}

// StaticFootprint: every component (the change reads the cluster's
// quiescence and writes a pod and the HPA queue).
func (MemoryChange) StaticFootprint(*model.Universe) (reads, writes model.Footprint) {
	return model.AllComponents(), model.AllComponents()
}

// StepFootprint is the static footprint.
func (c MemoryChange) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return c.StaticFootprint(u)
}

// DisabledBy is usageRise's.
func (c MemoryChange) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	return c.disabledBy(u, s)
}
