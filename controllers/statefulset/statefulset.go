// Package statefulset is the model's StatefulSet controller
// (pkg/controller/statefulset, v1.36): one sync of one StatefulSet, which
// the deployment controller's process runs for the StatefulSets among the
// workloads of its queue (controllers/deployment), so every wake-up of a
// workload (pod deletions, evictions, the HPA, kubectl) reaches it
// unchanged.
//
// A sync is upstream's updateStatefulSet on the model's pods:
//
//   - the pods of ordinals [start, start+replicas) are the replicas, the
//     others are condemned;
//   - each replica in ordinal order (processReplica): a Failed pod is
//     deleted (its replacement comes at the next sync; under Parallel the
//     sync goes on, and the maxUnavailable path below counts the
//     deleted pod, if of an old revision, as deleted again), a missing ordinal
//     is created at its revision (newVersionedStatefulSetPod: the current
//     revision below the partition of a RollingUpdate, else the update
//     revision); under OrderedReady (monotonic) the walk stops after a
//     creation and at the first pod that is Terminating or not Running
//     and Ready, under Parallel it goes on;
//   - the condemned pods from the highest ordinal down
//     (processCondemned): under OrderedReady one at a time, waiting for a
//     Terminating one and for any pod not Running and Ready but the first
//     unhealthy one; under Parallel all at once;
//   - a RollingUpdate then deletes the highest-ordinal pod at or above the
//     partition that is not of the update revision, waiting for every
//     higher one to be available (with maxUnavailable given: the
//     MaxUnavailableStatefulSet path, up to maxUnavailable unavailable
//     pods at once); OnDelete deletes nothing;
//   - when every replica is Running, Ready and of the update revision,
//     the update revision becomes the current one (completeRollingUpdate).
//
// A pod is identified by its ordinal (model.PodState.Ordinal), so a
// Terminating pod holds its ordinal until the kubelet removes it: on a
// node that is not Ready that is when the node comes back
// (model.KeepsTerminatingPod). Trace lines use the kube-controller-manager
// event texts ("create Pod web-0 in StatefulSet web successful").
package statefulset

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// Component names the controller in trace lines.
const Component = "statefulset-controller"

// Sync is one sync of StatefulSet d. It reports whether d must be synced
// again at once: after deleting a Failed pod, whose removal upstream's
// informer reports as a pod deletion, which queues the set.
func Sync(tx *model.Tx, s *model.State, d int) (requeue bool) {
	u := tx.U
	ds := &s.Deps[d]
	if !ds.Active {
		return false
	}
	cfg := &u.Configs[ds.Config]
	updateRevision(s, d, cfg)
	v := view(u, s, d, cfg)
	monotonic := cfg.StatefulSet.PodManagement == model.OrderedReady
	// Under Parallel, deleting a Failed replica does not end the sync
	// (runForAll's slowStartBatch ignores processReplica's exit): the
	// condemned pods and the rolling update follow.
	stop, failed := processReplicas(tx, s, d, cfg, &v, monotonic)
	if stop {
		completeRollingUpdate(s, d, cfg)
		return failed
	}
	if processCondemned(tx, s, d, &v, monotonic) {
		completeRollingUpdate(s, d, cfg)
		return failed
	}
	if cfg.Strategy != model.OnDelete {
		rollingUpdate(tx, s, d, cfg, &v)
	}
	completeRollingUpdate(s, d, cfg)
	return failed
}

// pods is a StatefulSet's pods by ordinal: replicas[i] is the slot of
// the pod of ordinal start+i (-1: none), condemned the slots of the pods
// outside the range, highest ordinal first. failedOld[i]: this sync
// deleted replica i, a Failed pod of a revision other than the update
// revision (upstream's replicas slice still holds it).
type pods struct {
	start     int
	replicas  []int
	condemned []int
	failedOld []bool
}

func view(u *model.Universe, s *model.State, d int, cfg *model.DeploymentConfig) pods {
	v := pods{start: cfg.StatefulSet.OrdinalsStart}
	n := max(0, int(s.Deps[d].Replicas))
	v.replicas = make([]int, n)
	v.failedOld = make([]bool, n)
	for i := range v.replicas {
		v.replicas[i] = -1
	}
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == model.Free || p.Owner != owner || p.Ordinal == 0 {
			continue
		}
		if k := p.OrdinalOf() - v.start; k >= 0 && k < n && v.replicas[k] < 0 {
			v.replicas[k] = i
			continue
		}
		v.condemned = append(v.condemned, i)
	}
	// Highest ordinal first (descendingOrdinal); ordinals are unique.
	c := v.condemned
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && s.Pods[c[j]].Ordinal > s.Pods[c[j-1]].Ordinal; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
	return v
}

// runningAndReady is isRunningAndReady: Running with Ready True.
func runningAndReady(p *model.PodState) bool { return p.Ready() }

// runningAndAvailable is isRunningAndAvailable: Ready for minReadySeconds.
func runningAndAvailable(p *model.PodState) bool { return p.Available() }

// unavailable is isUnavailable: not available, or Terminating.
func unavailable(p *model.PodState) bool { return !p.Available() }

// processReplicas walks the replicas in ordinal order. stop: the walk was
// cut short (OrderedReady); failed: a Failed pod was deleted.
func processReplicas(tx *model.Tx, s *model.State, d int, cfg *model.DeploymentConfig, v *pods, monotonic bool) (stop, failed bool) {
	u := tx.U
	name := u.Deployments[d].Name
	for i, slot := range v.replicas {
		if slot >= 0 && s.Pods[slot].Phase == model.Failed {
			pod := s.Pods[slot]
			s.ForgetPod(slot)
			v.replicas[i] = -1
			v.failedOld[i] = pod.RS != s.Deps[d].Cur
			if tx.Tracing() {
				tx.Log(Component, "delete Pod %s in StatefulSet %s successful (the pod failed)", model.PodRef{Slot: slot, Pod: pod}, name)
			}
			failed = true
			if monotonic {
				return true, true
			}
			continue
		}
		if slot < 0 {
			j, ok := create(tx, s, d, cfg, v.start+i)
			if !ok {
				return true, failed
			}
			v.replicas[i] = j
			if monotonic {
				return true, failed
			}
			continue
		}
		p := &s.Pods[slot]
		if !monotonic {
			continue
		}
		if p.Phase == model.Terminating {
			if tx.Tracing() {
				tx.Log(Component, "StatefulSet %s is waiting for Pod %s to Terminate", name, s.PodRef(slot))
			}
			return true, failed
		}
		if !runningAndReady(p) {
			if tx.Tracing() {
				tx.Log(Component, "StatefulSet %s is waiting for Pod %s to be Running and Ready", name, s.PodRef(slot))
			}
			return true, failed
		}
		if !runningAndAvailable(p) {
			if tx.Tracing() {
				tx.Log(Component, "StatefulSet %s is waiting for Pod %s to be Available", name, s.PodRef(slot))
			}
			return true, failed
		}
	}
	return false, failed
}

// create creates the pod of ordinal ord in the lowest free pod slot, at
// the revision newVersionedStatefulSetPod gives it. ok is false when the
// model has no room (a bound is reached).
func create(tx *model.Tx, s *model.State, d int, cfg *model.DeploymentConfig, ord int) (int, bool) {
	u := tx.U
	ds := &s.Deps[d]
	if ord > model.MaxOrdinal {
		if tx.Tracing() {
			tx.Log(Component, "StatefulSet %s needs a pod of ordinal %d (model bound: ordinals up to %d)", u.Deployments[d].Name, ord, model.MaxOrdinal)
		}
		s.ReachBound(model.BoundStatefulSetOrdinals)
		return -1, false
	}
	rev := int(ds.Cur)
	if old := 1 - rev; cfg.Strategy != model.OnDelete && ds.RS[old].Template != 0 && ord < cfg.StatefulSet.OrdinalsStart+cfg.StatefulSet.Partition {
		rev = old
	}
	tmpl := int(ds.RS[rev].Template) - 1
	if msg, refused := u.QuotaRefusal(s, tmpl); refused {
		// The controller is retried once the quota admits the pod
		// (controllers/deployment quota.go).
		ds.QuotaRefused = uint8(tmpl + 1)
		if tx.Tracing() {
			name := fmt.Sprintf("%s-%d", u.Deployments[d].Name, ord)
			tx.Log(Component, "create Pod %s in StatefulSet %s failed error: pods %q is forbidden: %s", name, u.Deployments[d].Name, name, msg)
		}
		return -1, false
	}
	j := model.FreeSlot(s)
	if j < 0 {
		if tx.Tracing() {
			tx.Log(Component, "No free pod slot for a new pod of StatefulSet %s (model bound: %d pod slots)", u.Deployments[d].Name, len(s.Pods))
		}
		s.ReachBound(model.BoundPodSlots)
		return -1, false
	}
	t := &u.Templates[tmpl]
	p := model.PodState{Phase: model.Pending, Owner: uint8(d + 1), RS: uint8(rev), Template: uint8(tmpl),
		Ordinal: uint8(ord + 1)}
	p.CPU, p.Memory = t.StartUsage()
	if len(t.Pattern) > 0 {
		p.CPU, p.Pattern = int32(t.Pattern[0].CPU), 1
	}
	s.Pods[j] = p
	if tx.Tracing() {
		tx.Log(Component, "create Pod %s in StatefulSet %s successful", s.PodRef(j), u.Deployments[d].Name)
	}
	if t.NodeName != 0 {
		// spec.nodeName bypasses the scheduler.
		s.Pods[j].Node = uint16(t.NodeName)
		s.Enqueue(model.KubeletQueue, j)
		model.AssignedPodAdded(u, s, j)
		return j, true
	}
	s.Enqueue(model.SchedulerQueue, j)
	return j, true
}

// processCondemned deletes the condemned pods, highest ordinal first; it
// reports whether the walk stopped (OrderedReady: after one deletion or
// to wait).
func processCondemned(tx *model.Tx, s *model.State, d int, v *pods, monotonic bool) bool {
	name := tx.U.Deployments[d].Name
	// The first unhealthy pod: every replica is available when an
	// OrderedReady walk gets here, so it is the lowest unavailable
	// condemned pod.
	first := -1
	for i := len(v.condemned) - 1; i >= 0 && monotonic; i-- {
		if unavailable(&s.Pods[v.condemned[i]]) {
			first = v.condemned[i]
			break
		}
	}
	for _, slot := range v.condemned {
		p := &s.Pods[slot]
		if p.Phase == model.Terminating {
			if monotonic {
				if tx.Tracing() {
					tx.Log(Component, "StatefulSet %s is waiting for Pod %s to Terminate prior to scale down", name, s.PodRef(slot))
				}
				return true
			}
			continue
		}
		if monotonic && !runningAndReady(p) && slot != first {
			if tx.Tracing() {
				tx.Log(Component, "StatefulSet %s is waiting for Pod %s to be Running and Ready prior to scale down", name, s.PodRef(first))
			}
			return true
		}
		if monotonic && !runningAndAvailable(p) && slot != first {
			if tx.Tracing() {
				tx.Log(Component, "StatefulSet %s is waiting for Pod %s to be Available prior to scale down", name, s.PodRef(first))
			}
			return true
		}
		deletePod(tx, s, d, slot, "")
		if monotonic {
			return true
		}
	}
	return false
}

// deletePod deletes pod slot of StatefulSet d: a Failed pod goes at once,
// any other becomes Terminating for the kubelet.
func deletePod(tx *model.Tx, s *model.State, d, slot int, why string) {
	pod := &s.Pods[slot]
	if pod.Phase == model.Failed {
		ref := s.PodRef(slot)
		s.ForgetPod(slot)
		if tx.Tracing() {
			tx.Log(Component, "delete Pod %s in StatefulSet %s successful%s", ref, tx.U.Deployments[d].Name, why)
		}
		return
	}
	s.MarkTerminating(slot)
	if tx.Tracing() {
		tx.Log(Component, "delete Pod %s in StatefulSet %s successful%s", s.PodRef(slot), tx.U.Deployments[d].Name, why)
	}
}

// rollingUpdate is the RollingUpdate strategy's part of a sync:
// upstream's loop from the highest ordinal down to the partition, or,
// with maxUnavailable given, updateStatefulSetAfterInvariantEstablished.
func rollingUpdate(tx *model.Tx, s *model.State, d int, cfg *model.DeploymentConfig, v *pods) {
	ds := &s.Deps[d]
	cur := ds.Cur
	partition := cfg.StatefulSet.Partition
	const why = " (rolling update)"
	if !cfg.StatefulSet.MaxUnavailableSet {
		for target := len(v.replicas) - 1; target >= partition; target-- {
			slot := v.replicas[target]
			if slot < 0 {
				return
			}
			p := &s.Pods[slot]
			if p.RS != cur && p.Phase != model.Terminating {
				deletePod(tx, s, d, slot, why)
				return
			}
			if unavailable(p) {
				if tx.Tracing() && ds.RS[1-cur].Template != 0 {
					tx.Log(Component, "StatefulSet %s is waiting for Pod %s to update", tx.U.Deployments[d].Name, s.PodRef(slot))
				}
				return
			}
		}
		return
	}
	maxUnavailable := cfg.MaxUnavailableOf(len(v.replicas))
	down := 0
	for _, slot := range v.replicas {
		if slot < 0 || unavailable(&s.Pods[slot]) {
			down++
		}
	}
	budget := maxUnavailable - down
	for target := len(v.replicas) - 1; target >= partition && budget > 0; target-- {
		slot := v.replicas[target]
		if slot < 0 {
			if v.failedOld[target] {
				// Upstream deletes the Failed pod it deleted earlier in
				// this sync again: NotFound counts as a deletion, and
				// uses the budget.
				budget--
			}
			continue
		}
		if p := &s.Pods[slot]; p.RS != cur && p.Phase != model.Terminating {
			deletePod(tx, s, d, slot, why)
			budget--
		}
	}
}
