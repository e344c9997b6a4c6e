package kubelet

import (
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// Component is the trace component of the kubelet (Kivi's text).
const Component = "kubelet"

// Kubelet is the kubelet process. It drains the kubelet queue in one step.
type Kubelet struct{}

// New returns the kubelet process.
func New() *Kubelet { return &Kubelet{} }

// Name is Kivi's process name.
func (*Kubelet) Name() string { return "Kubelet" }

// Enabled: the kubelet queue has work.
func (*Kubelet) Enabled(_ *model.Universe, s *model.State) bool {
	return !s.Empty(model.KubeletQueue)
}

// Step drains the kubelet queue: every item is handled in FIFO order, and
// nothing the kubelet does refills its own queue. The deployment
// controller and the HPA are woken after the drain, in the order in which
// their deployments first appear in the queue (wakeups.go): the result of
// a drain then depends only on which pods are queued and on that owner
// order, not on the order of one owner's pods, which lets the symmetry
// reduction treat them as a set.
func (k *Kubelet) Step(tx *model.Tx, s *model.State) {
	var w wakeups
	w.order(s)
	var updates queueUpdates
	updates.init()
	// The queue is taken from its head by reslicing, not by Dequeue's
	// shift (quadratic over a long queue); the drained queue then keeps
	// the start of its array.
	base := s.Queues[model.KubeletQueue][:0]
	for k.Enabled(tx.U, s) {
		queue := s.Queues[model.KubeletQueue]
		p := int(queue[0])
		s.Queues[model.KubeletQueue] = queue[1:]
		if p >= len(s.Pods) {
			s.Queues[model.KubeletQueue] = append(base, s.Queues[model.KubeletQueue]...)
			updates.apply(tx.U, s)
			s.Fail(model.FailInternal, p)
			return
		}
		switch action := decide(&s.Pods[p]); action {
		case startPod:
			if model.WaitsForNode(tx.U, s, &s.Pods[p]) {
				// The node's kubelet is down: the pod waits, bound,
				// until the node is Ready again, which queues it anew.
				// The taint manager processes every pod bound to a
				// tainted node, started or not.
				if queuesForTaintEviction(tx.U, s, &s.Pods[p]) {
					updates.taint(p)
				}
				if tx.Tracing() {
					tx.Log(Component, "Pod %s waits: node %s is not Ready to start it", s.PodRef(p), nodeName(tx.U, s.Pods[p].Node))
				}
				continue
			}
			reason, preempt := admit(tx.U, s, p)
			if reason != "" {
				reject(tx, s, p, reason, &w)
				continue
			}
			if preempt && !preemptFor(tx, s, p, &w, &updates) {
				reject(tx, s, p, unexpectedAdmissionError, &w)
				continue
			}
			start(tx, s, p, &w, &updates)
		case removePod:
			if model.KeepsTerminatingPod(tx.U, s, &s.Pods[p]) {
				// The node's kubelet is down: the pod stays until the
				// node is Ready again, which queues it anew.
				if tx.Tracing() {
					tx.Log(Component, "Pod %s stays Terminating: node %s is not Ready to confirm its deletion", s.PodRef(p), nodeName(tx.U, s.Pods[p].Node))
				}
				continue
			}
			remove(tx, s, p, &w, &updates)
		}
	}
	s.Queues[model.KubeletQueue] = base
	updates.apply(tx.U, s)
	w.flush(tx.U, s)
}

// action is what the kubelet does with one queued pod.
type action uint8

const (
	// ignore: Free slots (already removed), Running pods (already
	// started) and unbound Pending pods (nothing to start them on; Kivi
	// logs "Unknown pod status" at level 2).
	ignore action = iota
	startPod
	removePod
)

// decide classifies a queued pod by its phase and binding.
func decide(p *model.PodState) action {
	switch {
	case p.Phase == model.Pending && p.Node != 0:
		return startPod
	case p.Phase == model.Terminating:
		return removePod
	}
	return ignore
}

// start runs a bound Pending pod. Under Kivi's lifecycle the node need
// not be Ready (a pod bound to a node that has just failed starts and is
// then evicted by the node controller, as in Kivi); under Kubernetes' the
// kubelet of a node that is not Ready starts nothing (WaitsForNode).
func start(tx *model.Tx, s *model.State, p int, w *wakeups, updates *queueUpdates) {
	u := tx.U
	pod := &s.Pods[p]
	pod.Phase = model.Running
	if u.HasReadiness() {
		// A probe, a readiness gate or minReadySeconds: the pod is not
		// yet Ready or not yet available (PodReadiness advances it).
		pod.Readiness = u.Templates[pod.Template].StartReadiness()
	}
	d := int(pod.Owner) - 1
	if queuesForTaintEviction(u, s, pod) {
		updates.taint(p)
	}
	// Any pod's start changes what a descheduler cycle reads (its node's
	// utilisation, the pods an anti-affinity term or a spread constraint
	// counts), a bare pod's too.
	model.RequestDeschedulerCycle(u, s)
	if d >= 0 {
		tx.Mark(model.MarkStarted(d))
		// The deployment controller watches its ReplicaSets' status; a
		// pod becoming available only matters to it while a rollout waits
		// for availability, so only then is it woken (Kivi never is: its
		// rollout did not work).
		if rolloutInProgress(s, d) || u.StatefulSetPod(pod) {
			// A StatefulSet waits for its pods to be Running and Ready
			// (OrderedReady creation, scale-down and rolling update).
			w.deployment(d)
		}
	}
	if tx.Tracing() {
		if d < 0 {
			tx.Log(Component, "Started pod %s on node %s%s", s.PodRef(p), nodeName(u, pod.Node), startedReadiness(pod))
		} else if pod.Readiness != model.PodAvailable {
			tx.Log(Component, "Started pod %s on node %s%s, %s %s now has %s",
				s.PodRef(p), nodeName(u, pod.Node), startedReadiness(pod), u.KindWord(d, false), u.Deployments[d].Name, replicasText(u, d, startedReplicas(u, s, d)))
		} else {
			tx.Log(Component, "Started pod %s on node %s, %s %s now has %s",
				s.PodRef(p), nodeName(u, pod.Node), u.KindWord(d, false), u.Deployments[d].Name, replicasText(u, d, startedReplicas(u, s, d)))
		}
	}
}

// remove deletes a Terminating pod: the slot becomes all-zero, and the
// owner's deployment controller and HPA are told (after the drain).
func remove(tx *model.Tx, s *model.State, p int, w *wakeups, updates *queueUpdates) {
	u := tx.U
	pod := s.Pods[p]
	gc := model.ForceDeletedOutOfService(u, s, &pod)
	model.ForgetJobPod(tx, s, p, gc)
	s.Pods[p] = model.PodState{}
	// The pod object is gone: the scheduler's and the taint manager's
	// informers drop it from their queues (a stale id would otherwise
	// refer to whatever pod reuses the slot), and the waiting pods are
	// retried, at the end of the drain (queueUpdates).
	updates.remove(p)
	d := int(pod.Owner) - 1
	if d >= 0 {
		w.podGone(u, tx, s, d, model.MarkDeleted(d))
	} else {
		// A bare pod's removal frees room a descheduler cycle reads.
		model.RequestDeschedulerCycle(u, s)
	}
	if tx.Tracing() {
		// The slot is cleared: the reference is to the pod it held.
		ref := model.PodRef{Slot: p, Pod: pod}
		switch {
		case gc:
			// gcTerminating, which the model runs in the kubelet's step
			// (outofservice.go).
			tx.Log(podGCComponent, "Deleted terminating pod %s on node %s: the node is not Ready and has the out-of-service taint", ref, nodeName(u, pod.Node))
		case d < 0:
			tx.Log(Component, "Deleted pod %s on node %s", ref, nodeName(u, pod.Node))
		default:
			tx.Log(Component, "Deleted pod %s on node %s, %s %s now has %s",
				ref, nodeName(u, pod.Node), u.KindWord(d, false), u.Deployments[d].Name, replicasText(u, d, startedReplicas(u, s, d)))
		}
	}
}

// replicasText is "1 replica" or "n replicas"; a Job has running pods,
// not replicas.
func replicasText(u *model.Universe, d, n int) string {
	unit := "replica"
	if u.IsJob(d) {
		unit = "running pod"
	}
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// startedReplicas is Kivi's d.replicas after the change: Running pods plus
// Terminating pods that had been running, but for those that stay on a
// node that is not Ready (model.KeptReplicas). Bare pods have none.
func startedReplicas(u *model.Universe, s *model.State, d int) int {
	if d < 0 {
		return 0
	}
	kept, _ := model.KeptReplicas(u, s, d)
	return model.Counts(s, d).Started - kept
}

// nodeName prints a node like Kivi's trace; a pod that was never bound
// prints as node 0, Kivi's "no node" location.
func nodeName(u *model.Universe, node uint16) string {
	if node == 0 {
		return strconv.Itoa(0)
	}
	return u.Nodes[node-1].Name
}
