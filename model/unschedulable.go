package model

import (
	"cmp"
	"slices"
)

// Unschedulable pods: what happens after a scheduling attempt finds no
// feasible node.
//
// kube-scheduler keeps such a pod Pending in its unschedulable queue and
// moves it back to the active queue when a cluster event may make it
// schedulable (pkg/scheduler/backend/queue, MoveAllToActiveOrBackoffQueue:
// an assigned pod deleted, a node added or updated) or when it has waited
// podMaxInUnschedulablePodsDuration. Under Kubernetes' lifecycle the
// model does the same: the attempt records FailNoFeasibleNode, which
// violates pod_always_schedulable in that state, and the run goes on from
// the cluster with the pod waiting (Pending, unbound, in no queue).
//
// The failure is a marker on the one state the attempt produced, not a
// memory carried by the states after it: the System computes a marker
// state's successors from the state with the failure cleared
// (compose.System, ContinuesAfterFailure), so a failure does not split
// every later state in two, and the states after it are the states of
// the cluster that never failed, shared with every other run that reaches
// them. Under Kivi's lifecycle (the built-in cases) a failed state still
// has no successors, as every failed assertion has.

// ContinuesAfterFailure reports whether the failure recorded in s leaves
// the run going: a pod the scheduler could not place, under Kubernetes'
// lifecycle, and, with Options.ContinueAfterViolation, an intent
// monitor's violation or a `kubectl create` refused because the
// Deployment exists (kubectl's AlreadyExists error changes nothing in the
// cluster, which goes on). Such a state violates its intent and has the
// successors of the same state without the failure. An internal
// consistency assertion (FailInternal) and a model bound (FailBound) end
// the run: the state is no Kubernetes state (compose reports the intents
// that run leaves unsettled as Unknown).
func (u *Universe) ContinuesAfterFailure(s *State) bool {
	if u.Options.KiviLifecycle {
		return false
	}
	switch s.Failed {
	case FailNoFeasibleNode:
		return true
	case FailMonitor, FailDeploymentExists:
		return u.Options.ContinueAfterViolation
	}
	return false
}

// ResumeAfterFailure clears the failure of s when the run goes on from
// it (ContinuesAfterFailure): s becomes the state whose successors the
// failed state has. Other failures are left alone.
func (u *Universe) ResumeAfterFailure(s *State) {
	if u.ContinuesAfterFailure(s) {
		s.Failed, s.FailedArg = NoFailure, 0
	}
}

// UnschedulablePodWaits reports whether, under Kubernetes' lifecycle,
// some pod waits Pending and unbound outside the scheduling queue. In a
// state without successors every such pod was last tried by the
// scheduler once no pod was terminating (a removal or a node change
// queues every waiting pod again), found no node, and so violated
// pod_always_schedulable on the way there: the end of that run is judged
// by pod_always_schedulable alone, as the failed state that ended it was
// before the run went on.
func (u *Universe) UnschedulablePodWaits(s *State) bool {
	if u.Options.KiviLifecycle {
		return false
	}
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Phase == Pending && p.Node == 0 && !s.queued(SchedulerQueue, i) {
			return true
		}
	}
	return false
}

// queued reports whether id is in queue q.
func (s *State) queued(q Queue, id int) bool {
	for _, x := range s.Queues[q] {
		if int(x) == id {
			return true
		}
	}
	return false
}

// MoveAllToActiveQueue queues every unbound Pending pod that is not in
// the scheduling queue: kube-scheduler's MoveAllToActiveOrBackoffQueue.
// The pods waiting there are those the scheduler could not place (no
// feasible node, or a terminating pod to wait for, controllers/scheduler)
// and those that preempted others.
//
// kube-scheduler moves them in no particular order (a map's), and its
// active queue then orders them by priority and queueing time. The model
// queues them by priority, highest first, and then by their contents
// (nominated first, owner, ReplicaSet, template, usage, ordinal or
// completion index), never by pod slot: with pods of
// two deployments waiting, an order by slot would make the scheduler's
// order depend on slots, which the symmetry reduction permutes
// (reduction/symmetry). Identical pods go in slot order, which changes
// nothing reachable. Pods that differ only in the node they are
// nominated to (NominatedTwins) go in slot order too, and so next to each
// other: the scheduler takes any of such a run first (upstream's order is
// that of their last failed attempts, which the model does not keep), so
// their order in the queue is no fact of the state, and the symmetry
// reduction treats the run as a set.
func MoveAllToActiveQueue(u *Universe, s *State) { MoveToActiveQueue(u, s, nil) }

// NominatedTwins reports whether a and b are both nominated and alike in
// everything but the node they are nominated to: waiting pods whose
// order in the scheduling queue the model leaves open (MoveAllToActiveQueue).
func NominatedTwins(a, b *PodState) bool {
	if a.NominatedNode == 0 || b.NominatedNode == 0 {
		return false
	}
	x := *b
	x.NominatedNode = a.NominatedNode
	return x == *a
}

// NominatedRun returns the end of the run of NominatedTwins that starts
// at q[i] in queue q of s: q[i:end] are twins of q[i] (ids past s's pods
// twin nothing).
func NominatedRun(s *State, q []uint16, i int) (end int) {
	end = i + 1
	if int(q[i]) >= len(s.Pods) || s.Pods[q[i]].NominatedNode == 0 {
		return end
	}
	for end < len(q) && int(q[end]) < len(s.Pods) && NominatedTwins(&s.Pods[q[i]], &s.Pods[q[end]]) {
		end++
	}
	return end
}

// MoveToActiveQueue is MoveAllToActiveQueue for the waiting pods that
// may reports true for (every one when may is nil): the pods a
// queueing hint says an event may help, in the same order.
func MoveToActiveQueue(u *Universe, s *State, may func(p *PodState) bool) {
	var buf [16]int
	waiting := buf[:0]
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Phase == Pending && p.Node == 0 && (may == nil || may(p)) {
			waiting = append(waiting, i)
		}
	}
	if len(waiting) > 1 {
		slices.SortFunc(waiting, func(i, j int) int {
			a, b := &s.Pods[i], &s.Pods[j]
			if c := cmp.Or(
				cmp.Compare(u.Templates[b.Template].Priority, u.Templates[a.Template].Priority),
				-cmpBool(a.NominatedNode != 0, b.NominatedNode != 0),
				cmp.Compare(a.Owner, b.Owner), cmp.Compare(a.RS, b.RS), cmp.Compare(a.Template, b.Template),
				cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.CPU, b.CPU), cmp.Compare(a.Memory, b.Memory),
				cmp.Compare(a.Ordinal, b.Ordinal)); c != 0 {
				return c
			}
			// The rest of the contents, so that pods alike but for their
			// nominated node end up next to each other.
			return cmp.Or(
				cmp.Compare(a.Readiness, b.Readiness), cmp.Compare(a.Failure, b.Failure), cmp.Compare(a.Restarts, b.Restarts),
				cmpBool(a.WasRunning, b.WasRunning), cmp.Compare(a.Phase, b.Phase), cmp.Compare(a.Node, b.Node),
				cmp.Compare(i, j))
		})
	}
	for _, i := range waiting {
		s.Enqueue(SchedulerQueue, i) // not twice: Enqueue skips a queued pod
	}
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// NodeUpdated is the scheduler's node update handler, for the events
// that change a node's Ready condition (and with it the not-ready or
// unreachable taints the scheduler sees, NodeStatus.LifecycleTaints) or
// its spec.unschedulable
// (and with it the unschedulable taint): under Kubernetes' lifecycle it
// moves every waiting pod to the active queue. Upstream moves a pod only
// where a plugin's queueing hint says the change may help it (a taint
// gone that the pod did not tolerate, a node uncordoned; any taint change
// for a pod with spread constraints), and every waiting pod at the
// periodic flush; a retry the hints would skip finds the same answer
// again. The node lifecycle controller's taints move the waiting pods
// only where their key changes what the scheduler decides
// (Universe.NodeDownKeyMatters; controllers/nodelifecycle). Under Kivi's
// lifecycle a
// failed attempt ends the run and nothing waits for a node.
func NodeUpdated(u *Universe, s *State) {
	if u.Options.KiviLifecycle {
		return
	}
	MoveAllToActiveQueue(u, s)
}

// AssignedPodDeleted queues every unbound Pending pod that is not in the
// scheduling queue (MoveAllToActiveQueue, which says in what order), as
// kube-scheduler moves its unschedulable pods back to the active queue
// when an assigned pod is deleted (the kubelet removes it, a Job's pod
// succeeds and goes): a pod the scheduler could not place, whether it
// found no node at all or waited for a terminating pod. Under Kivi's
// lifecycle only a pod that preempted others waits
// (controllers/scheduler, preemption.go): a failed attempt ends the run
// there.
func AssignedPodDeleted(u *Universe, s *State) {
	if u.Options.KiviLifecycle && !u.CanPreempt() {
		return
	}
	MoveAllToActiveQueue(u, s)
}

// ReadinessRequestsDescheduler reports whether a pod's becoming Ready
// requests a descheduler cycle (RequestDeschedulerCycle): when the
// universe has a descheduler and a PodDisruptionBudget, whose healthy
// count is the cycle's only read of readiness.
func (u *Universe) ReadinessRequestsDescheduler() bool {
	return u.Descheduler != nil && len(u.PDBs) > 0
}

// RequestDeschedulerCycle requests a descheduler cycle (State.
// DeschedulerPending) after a change that a cycle reads besides a pod's
// start or removal: a node's Ready condition (a cycle works on the Ready
// nodes only), its cordon (the unschedulable taint, which
// RemovePodsViolatingNodeTaints counts and NodeFit refuses), its
// memory-pressure taint, a Node object's deletion, a pod's Ready
// condition where a PodDisruptionBudget counts it, and a container's
// restart where RemovePodsHavingTooManyRestarts counts it. A real descheduler runs
// every period, so its next cycle sees the change whether or not a pod
// starts or goes first; the model's cycle runs at the next quiescence.
func RequestDeschedulerCycle(u *Universe, s *State) {
	if u.Descheduler != nil {
		s.DeschedulerPending = true
	}
}

// SetNodeStatus sets node n's status (its Ready condition): a node update
// (NodeUpdated), so every change of it moves the waiting pods.
func SetNodeStatus(u *Universe, s *State, n int, st NodeStatus) {
	was := s.Nodes[n].Status
	s.Nodes[n].Status = st
	if (was == Ready) != (st == Ready) {
		RequestDeschedulerCycle(u, s)
	}
	requeueKeptPods(u, s, n, was)
	if st.Health() == Ready {
		ReportPodsReady(u, s, n)
	}
	NodeUpdated(u, s)
}

// SetCordoned sets node n's spec.unschedulable: a node update too.
func SetCordoned(u *Universe, s *State, n int, cordoned bool) {
	if s.Nodes[n].Cordoned != cordoned {
		RequestDeschedulerCycle(u, s)
	}
	s.Nodes[n].Cordoned = cordoned
	NodeUpdated(u, s)
}

// AssignedPodAdded is kube-scheduler's handling of an assigned pod's add
// (AssignedPodAdded) for pod p, just bound by the scheduler or created
// bound (spec.nodeName): under Kubernetes' lifecycle
// it moves to the active queue the waiting pods that p may help, as the
// plugins' queueing hints say: p matches a required pod-affinity term of
// theirs (InterPodAffinity: a peer arrived) or the selector of one of
// their DoNotSchedule spread constraints (PodTopologySpread: the skew
// changed). A bound pod takes room and can only hurt a pod that waits
// for resources, anti-affinity or a nomination, which upstream skips.
// Under Kivi's lifecycle a failed attempt ends the run: nothing waits
// but a preemptor, which waits for its victims' removal.
func AssignedPodAdded(u *Universe, s *State, p int) {
	if u.Options.KiviLifecycle {
		return
	}
	added := &s.Pods[p]
	MoveToActiveQueue(u, s, func(w *PodState) bool {
		t := &u.Templates[w.Template]
		for i := range t.PodAffinity {
			if t.PodAffinity[i].Matches(w, added) {
				return true
			}
		}
		for i := range t.Spread {
			if c := &t.Spread[i]; c.When == DoNotSchedule && c.Matches(w, added) {
				return true
			}
		}
		return false
	})
}
