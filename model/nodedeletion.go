package model

import (
	"fmt"
	"slices"
)

// A deleted node: `kubectl delete node`, a cluster autoscaler's
// scale-down, a managed node pool removing an old node in a surge
// upgrade, or the operator's remedy for a node lost for good. The Node
// object is gone: the node leaves every node list at once, which the
// model gives by one status, NodeDeleted, that every reader of the nodes
// honours (the scheduler's snapshot and its spread and affinity domains,
// the node lifecycle controller's zones, the descheduler's and the
// intents' Ready nodes). A deleted node never comes back: the events that
// would bring it back are refused next to a deleteNode of it.
//
// The pods bound to the deleted node stay until the pod garbage
// collector's gcOrphaned (pkg/controller/podgc, v1.36) collects them: it
// marks each Failed with the DisruptionTarget condition (reason
// DeletionByPodGC) and force-deletes it. Upstream does so at its first
// 20 s pass after the node has been missing for its 40 s quarantine; the
// model, without a clock, makes the collection a step of its own
// (controllers/podgc, Orphaned) that may come at once or after any
// number of other steps. In between the pods are what upstream's
// controllers see: objects bound to a node that no lister returns. Their
// ReplicaSet, StatefulSet or Job still counts them, the scheduler, the
// descheduler and the node lifecycle controller, which list the nodes
// first, do not, and no kubelet starts, probes or removes them
// (OnDeletedNode).

// Deleted reports whether the node's Node object is gone.
func (n NodeState) Deleted() bool { return n.Status == NodeDeleted }

// NodeGone reports whether node n of s has been deleted.
func NodeGone(s *State, n int) bool { return s.Nodes[n].Status == NodeDeleted }

// compileDeleteNode checks deleteNode event i and sizes its memory: one
// byte, the deletion's program counter; with DrainFirst, kubectl drain's
// memory of the one node (compileDrain) comes first.
func compileDeleteNode(u *Universe, i int, e *Event) error {
	if e.Node < 0 || e.Node >= len(u.Nodes) {
		return fmt.Errorf("events[%d] (%s): node %d does not exist: %w", i, e.Kind, e.Node, ErrInvalid)
	}
	if !e.DrainFirst {
		e.Nodes, e.VarLen = nil, 1
		return nil
	}
	e.Nodes, e.Parallel = []int{e.Node}, 1
	if err := compileDrain(u, i, e); err != nil {
		return err
	}
	e.VarLen++
	return nil
}

// DeletedVar is the offset, in event e's memory, of a deleteNode's
// program counter: its last byte.
func DeletedVar(e *Event) int { return e.VarLen - 1 }

// compileNodeDeletion refuses what would bring a deleted node back or
// act on it once it is gone: a second deleteNode of it, a nodeFailure of
// it that recovers, a drain of it (deleteNode's drain: true drains it
// first), a maintenance or a kernel panic (both bring nodes back Ready),
// and a pod template pinned to it with nodeName (its controller would
// create pods bound to a node that does not exist, which the pod garbage
// collector deletes again, without end). A nodeFailure with recovers:
// false may lose the node first: deleting a lost node is the operator's
// other remedy.
func (u *Universe) compileNodeDeletion() error {
	for i := range u.Events {
		e := &u.Events[i]
		if e.Kind != DeleteNode {
			if e.DrainFirst {
				return fmt.Errorf("events[%d] (%s): drain: true is deleteNode's (accepted: the drain event): %w", i, e.Kind, ErrInvalid)
			}
			continue
		}
		name := u.Nodes[e.Node].Name
		for j := range u.Events {
			o := &u.Events[j]
			switch {
			case j == i:
			case o.Kind == DeleteNode && o.Node == e.Node:
				return fmt.Errorf("events[%d] (%s): node %s is deleted, and events[%d] deletes it again (accepted: one deleteNode per node): %w",
					i, e.Kind, name, j, ErrInvalid)
			case o.Kind == NodeFailure && o.Node == e.Node && !o.Permanent:
				return fmt.Errorf("events[%d] (%s): node %s is deleted for good, which events[%d] (nodeFailure) would bring back Ready (accepted: recovers: false, a node lost for good that is then deleted): %w",
					i, e.Kind, name, j, ErrInvalid)
			case o.Kind == Drain && slices.Contains(o.Nodes, e.Node):
				return fmt.Errorf("events[%d] (%s): node %s is deleted, and events[%d] (drain) drains it (accepted: deleteNode with drain: true, which drains it first): %w",
					i, e.Kind, name, j, ErrInvalid)
			case o.Kind == Maintenance || o.Kind == KernelPanic:
				return fmt.Errorf("events[%d] (%s): node %s is deleted for good, which events[%d] (%s) would bring back Ready (accepted: a deleted node without %s in the same input): %w",
					i, e.Kind, name, j, o.Kind, o.Kind, ErrInvalid)
			}
		}
		for t := range u.Templates {
			if u.Templates[t].NodeName == e.Node+1 {
				return fmt.Errorf("events[%d] (%s): node %s is deleted, and pod template %q pins its pods to it with nodeName (accepted: a node no pod template names in nodeName): %w",
					i, e.Kind, name, u.Templates[t].Name, ErrInvalid)
			}
		}
	}
	return nil
}

// podGCComponent names the pod garbage collector in trace lines, as
// controllers/podgc does.
const podGCComponent = "pod-garbage-collector-controller"

// DeleteNodeObject deletes node n's Node object in s, an event's step: the
// node leaves every node list (NodeDeleted, with no other bit) and its
// place in the node lifecycle controller's queue goes. The taint
// manager forgets the node's taints but cancels nothing: upstream's
// handleNodeUpdate of a deleted node drops it from its tainted nodes and
// returns, so an eviction already scheduled for one of its pods still
// fires at its time, and no other is ever scheduled (no pod update
// comes from a node without a kubelet). Its queue keeps the items of the
// node's pods that stand for such an eviction (TaintEvictionScheduled,
// read while the node still has its taints) and drops the others. The
// scheduler moves its waiting pods back to the active queue (a
// Node/Delete event: a spread constraint's domain may be gone), and a
// Ready node's deletion requests a descheduler cycle, whose nodes it
// leaves (RequestDeschedulerCycle). The pods bound to the node stay, for
// the pod garbage collector (CollectOrphanedPods).
func DeleteNodeObject(tx *Tx, s *State, n int) {
	u := tx.U
	s.Queues[TaintManagerQueue] = slices.DeleteFunc(s.Queues[TaintManagerQueue], func(x uint16) bool {
		return int(x) < len(s.Pods) && int(s.Pods[x].Node) == n+1 && !TaintEvictionScheduled(u, s, int(x))
	})
	if s.Nodes[n].Status == Ready {
		RequestDeschedulerCycle(u, s)
	}
	s.Nodes[n] = NodeState{Status: NodeDeleted}
	s.Queues[NodeControllerQueue] = slices.DeleteFunc(s.Queues[NodeControllerQueue], func(x uint16) bool { return int(x) == n })
	NodeUpdated(u, s)
}

// TaintEvictionScheduled reports whether the taint manager's queued item
// for pod p, bound to a node that is not deleted, stands for an eviction
// that fires (at once or after tolerationSeconds) if the node keeps its
// taints: the decision the taint manager's step takes (controllers/
// nodelifecycle processPod, and under Kivi's lifecycle its static check
// of the node's own NoExecute taints). An item for which it is false is
// work the taint manager would find nothing to do for.
func TaintEvictionScheduled(u *Universe, s *State, p int) bool {
	pod := &s.Pods[p]
	if pod.Node == 0 || !pod.Active() {
		return false
	}
	n := int(pod.Node) - 1
	fit := &u.Templates[pod.Template].Fit[n]
	if u.Options.KiviLifecycle {
		return pod.Phase == Running && fit.NoExecute
	}
	if u.OutOfServiceByEvent(s, n) {
		return u.OutOfServiceEviction(s, int(pod.Template), n).Evicted()
	}
	if k, ok := s.Nodes[n].Status.NodeDownTaint(); ok {
		return fit.NodeDown[k].Evicted()
	}
	return pod.Phase == Running && fit.NoExecuteTaints.Evicted()
}

// OnDeletedNode reports whether pod p is bound to a node of s whose Node
// object is gone: no kubelet starts, probes or removes it, and only the
// pod garbage collector deletes it (CollectOrphanedPods).
func OnDeletedNode(s *State, p *PodState) bool {
	return p.Phase != Free && p.Node != 0 && int(p.Node) <= len(s.Nodes) && s.Nodes[p.Node-1].Status == NodeDeleted
}

// HasOrphanedPods reports whether node n of s is deleted and some pod is
// still bound to it: the pod garbage collector's gcOrphaned has work.
func HasOrphanedPods(s *State, n int) bool {
	if s.Nodes[n].Status != NodeDeleted {
		return false
	}
	for i := range s.Pods {
		if int(s.Pods[i].Node) == n+1 && s.Pods[i].Phase != Free {
			return true
		}
	}
	return false
}

// AnyOrphanedPods reports whether some pod of s is bound to a deleted
// node (HasOrphanedPods of some node).
func AnyOrphanedPods(s *State) bool {
	for i := range s.Pods {
		if OnDeletedNode(s, &s.Pods[i]) {
			return true
		}
	}
	return false
}

// CollectOrphanedPods is the pod garbage collector's gcOrphaned for node
// n, whose Node object is gone: each pod bound to it is marked Failed
// with the DisruptionTarget condition (a Job's podFailurePolicy reads it;
// the pod has no terminated container, its node being gone) and
// force-deleted, with the effects of a removal: the pod leaves every
// queue, a Job keeps its failure counted (ForgetJobPod), the waiting
// pods are retried (AssignedPodDeleted), and the owners are queued for
// their controller and the HPA in deployment index order (an order pod
// slots, which the symmetry reduction permutes, do not decide). It
// returns how many pods it deleted.
func CollectOrphanedPods(tx *Tx, s *State, n int) int {
	u := tx.U
	var woken owners
	deleted := 0
	for i := range s.Pods {
		if int(s.Pods[i].Node) != n+1 || s.Pods[i].Phase == Free {
			continue
		}
		p := &s.Pods[i]
		d := int(p.Owner) - 1
		if p.Active() {
			if d >= 0 {
				// Taken away from its controller, as the node lifecycle
				// controller's deletions are.
				tx.Mark(MarkEvicted(d))
			}
			AddDisruptionTarget(u, s, i)
			p.Phase = Failed
		} else if p.Phase == Terminating && podFailurePolicyOf(u, s, p) {
			// Its phase is not terminal yet (Pending or Running upstream):
			// the collector's status patch adds the condition too.
			p.Failure |= DisruptionTarget
		}
		ref := PodRef{Slot: i, Pod: *p}
		ForgetJobPod(tx, s, i, true)
		s.ForgetPod(i)
		deleted++
		if d >= 0 {
			woken.addOwner(d)
			tx.Mark(MarkDeleted(d))
		}
		if tx.Tracing() {
			tx.Log(podGCComponent, "Forced deletion of orphaned Pod %s succeeded: node %s no longer exists", ref, u.Nodes[n].Name)
		}
	}
	if deleted == 0 {
		return 0
	}
	AssignedPodDeleted(u, s)
	woken.queue(u, s)
	RequestDeschedulerCycle(u, s)
	return deleted
}
