package model

import (
	"cmp"
	"slices"
)

// The kubelet of a node that is not Ready confirms nothing: the pods it
// would start or remove wait for the node to be Ready again (the node's
// return, SetNodeReady, removes the kept Terminating pods; SetNodeStatus
// queues the others anew).

// TaintNodeOutOfService is the taint an operator puts on a node that is
// shut down for good: the pod garbage collector force-deletes the
// terminating pods of a node that is not Ready and carries it
// (gcTerminating, v1.36).
const TaintNodeOutOfService = "node.kubernetes.io/out-of-service"

// KeepsTerminatingPod reports whether a Terminating pod p stays until its
// node is Ready again: its kubelet, down, cannot confirm the deletion,
// and nothing else removes the pod object. Under Kubernetes' lifecycle
// this holds for every pod bound to a node that is not Ready: the pod
// keeps its requests on the node, counts for count/pods quotas and holds
// a StatefulSet's ordinal, while its ReplicaSet or Job has replaced it.
// Under Kivi's lifecycle (the built-in cases) only a StatefulSet pod
// stays, as its ordinal cannot be replaced; any other pod is removed at
// once, as in Kivi. A node with the out-of-service taint (the input's,
// or an operator's: nodeloss.go) keeps nothing: the pod garbage
// collector removes its terminating pods (without a clock, at once, as
// the kubelet would). A pod bound to a deleted Node object stays in every
// lifecycle: its kubelet is gone, and gcTerminating lists only the nodes
// that exist; the pod garbage collector's gcOrphaned removes it
// (CollectOrphanedPods).
func KeepsTerminatingPod(u *Universe, s *State, p *PodState) bool {
	if p.Phase == Terminating && OnDeletedNode(s, p) {
		return true
	}
	return deletionWaitsForNode(u, s, p) && !u.NodeOutOfService(s, int(p.Node)-1)
}

// ForceDeletedOutOfService reports whether the pod garbage collector
// removes the Terminating pod p, which the kubelet of its node, not
// Ready, cannot: the node carries the out-of-service taint.
func ForceDeletedOutOfService(u *Universe, s *State, p *PodState) bool {
	return deletionWaitsForNode(u, s, p) && !OnDeletedNode(s, p) && u.NodeOutOfService(s, int(p.Node)-1)
}

// deletionWaitsForNode reports whether the deletion of the Terminating
// pod p needs a kubelet that is down: p is bound to a node that is not
// Ready (under Kivi's lifecycle, only a StatefulSet pod).
func deletionWaitsForNode(u *Universe, s *State, p *PodState) bool {
	if p.Phase != Terminating || p.Node == 0 || s.Nodes[p.Node-1].Status.Health() == Ready {
		return false
	}
	return !u.Options.KiviLifecycle || u.StatefulSetPod(p)
}

// outOfService reports whether node n carries the out-of-service taint,
// of any effect (TaintKeyExists).
func outOfService(n *Node) bool {
	for _, t := range n.Taints {
		if t.Key == TaintNodeOutOfService {
			return true
		}
	}
	return false
}

// KeptReplicas counts the pods of workload d that Counts takes for
// started replicas but that serve nothing: those KeepsTerminatingPod
// keeps (Terminating after running: their node is down, their deletion
// began) and the Running pods of a deleted node (OnDeletedNode: the
// node is gone, the pod GC has not collected them yet); started of them,
// ready of them Ready (when their deletion began). The intents and the
// kubelet's trace subtract them. Their controllers do not: a ReplicaSet,
// a StatefulSet, a Job and the disruption controller count them as
// upstream's do.
func KeptReplicas(u *Universe, s *State, d int) (started, ready int) {
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Owner != owner {
			continue
		}
		orphaned := p.Phase == Running && OnDeletedNode(s, p)
		if !orphaned && (!p.WasRunning || !KeepsTerminatingPod(u, s, p)) {
			continue
		}
		started++
		if p.Readiness != PodNotReady {
			ready++
		}
	}
	return started, ready
}

// WaitsForNode reports whether a bound Pending pod p waits for its node
// to be Ready again before it starts: under Kubernetes' lifecycle, a pod
// bound to a node whose kubelet is down (not Ready) does not start; the
// taint manager may evict it meanwhile. Under Kivi's lifecycle it starts
// at once, as in Kivi, unless its Node object is deleted: then it waits
// in every lifecycle, for the pod garbage collector.
func WaitsForNode(u *Universe, s *State, p *PodState) bool {
	if p.Phase != Pending || p.Node == 0 {
		return false
	}
	st := s.Nodes[p.Node-1].Status
	return st == NodeDeleted || !u.Options.KiviLifecycle && st.Health() != Ready
}

// NodePodsInOwnerOrder lists the pod slots bound to node n, by owner
// (pods no controller owns first, then workloads in index order), then
// by what the pods hold (podContentOrder), and by slot only among pods
// alike. A step that queues several of them for the kubelet walks them in
// this order: the kubelet wakes the owners in the order of their first
// appearance in its queue, and admits pods pinned by spec.nodeName against
// each other in queue order, neither of which pod slots, permuted by the
// symmetry reduction, may decide. Upstream's kubelet handles a node's pods
// in no order the model keeps (its pod workers run concurrently).
func NodePodsInOwnerOrder(u *Universe, s *State, n int) []int {
	var out []int
	for i := range s.Pods {
		if int(s.Pods[i].Node) == n+1 && s.Pods[i].Phase != Free {
			out = append(out, i)
		}
	}
	slices.SortStableFunc(out, func(a, b int) int {
		if c := cmp.Compare(s.Pods[a].Owner, s.Pods[b].Owner); c != 0 {
			return c
		}
		return podContentOrder(u, s, a, b)
	})
	return out
}

// podContentOrder orders pod slots a and b of one node and one owner by
// what they hold that the symmetry reduction does not permute: the pods
// further along their lives first (Terminating, then Running, then
// Pending: upstream's kubelet admits the pods it is handed oldest first),
// then their other fields (ReplicaSet, template, readiness, ordinal or
// completion index, failure facts, restarts, usage, …), then their place
// in the taint manager's queue (taintQueuePlace). 0 means alike: the
// caller keeps slot order there, which the reduction may permute between
// pods alike.
func podContentOrder(u *Universe, s *State, a, b int) int {
	pa, pb := &s.Pods[a], &s.Pods[b]
	if c := cmp.Or(
		cmp.Compare(pb.Phase, pa.Phase),
		cmpBool(pa.WasRunning, pb.WasRunning),
		cmp.Compare(pa.RS, pb.RS),
		cmp.Compare(pa.Template, pb.Template),
		cmp.Compare(pa.Pattern, pb.Pattern),
		cmp.Compare(pa.Ordinal, pb.Ordinal),
		cmp.Compare(pa.Readiness, pb.Readiness),
		cmp.Compare(pa.Failure, pb.Failure),
		cmp.Compare(pa.Restarts, pb.Restarts),
		cmp.Compare(pa.CPU, pb.CPU),
		cmp.Compare(pa.Memory, pb.Memory),
	); c != 0 {
		return c
	}
	return cmp.Compare(taintQueuePlace(u, s, a), taintQueuePlace(u, s, b))
}

// taintQueuePlace is pod slot p's place in the taint manager's queue for
// podContentOrder: 0 when absent; under Kubernetes' lifecycle 1 when
// queued; under Kivi's, where the taint manager takes the queue's head,
// its position + 1.
func taintQueuePlace(u *Universe, s *State, p int) int {
	i := slices.Index(s.Queues[TaintManagerQueue], uint16(p))
	switch {
	case i < 0:
		return 0
	case !u.Options.KiviLifecycle:
		return 1
	}
	return i + 1
}

// requeueKeptPods hands back to the kubelet the pods of node n, which is
// Ready again after was, that its kubelet left waiting: Terminating pods
// (KeepsTerminatingPod) and bound Pending pods (WaitsForNode). A kept
// Terminating pod stays no replica (KeptReplicas) until the kubelet
// removes it: it is no longer marked as having run.
func requeueKeptPods(u *Universe, s *State, n int, was NodeStatus) {
	if u.Options.KiviLifecycle && !u.HasStatefulSets || was.Health() == Ready || s.Nodes[n].Status.Health() != Ready {
		return
	}
	for _, i := range NodePodsInOwnerOrder(u, s, n) {
		p := &s.Pods[i]
		switch {
		case p.Phase == Terminating && (u.StatefulSetPod(p) || !u.Options.KiviLifecycle):
			p.WasRunning = false
			s.Enqueue(KubeletQueue, i)
		case p.Phase == Pending && !u.Options.KiviLifecycle:
			s.Enqueue(KubeletQueue, i)
		}
	}
}

// kubeletComponent names the kubelet in trace lines, as
// controllers/kubelet does.
const kubeletComponent = "kubelet"

// SetNodeReady is node n's return to Ready, an event's step: its kubelet,
// back, confirms at once the deletions it kept (KeepsTerminatingPod), in
// the same step, as the model's kubelet removes a pod without time
// passing; then the node is Ready (SetNodeStatus), which hands the bound
// Pending pods it kept, and the kept pods still in its queue, to the
// kubelet. Removing the kept pods in the return step adds no interleaving
// between the return and the removals.
func SetNodeReady(tx *Tx, s *State, n int) {
	u := tx.U
	removeKeptPods(tx, s, n)
	SetNodeStatus(u, s, n, Ready)
}

// removeKeptPods removes the pods KeepsTerminatingPod keeps on node n,
// but for those still in the kubelet queue, which the kubelet's next step
// removes (requeueKeptPods: taking one out of the queue here would change
// the order of the owners' first appearances there, on which the
// kubelet's wake-ups and the symmetry reduction rely). It has the effects
// of the kubelet's removal: the pod leaves the scheduler's and the taint
// manager's queues,
// a Job keeps its failure counted (ForgetJobPod), the waiting pods are
// retried (AssignedPodDeleted), and the owners are queued for their
// controller and the HPA, in deployment index order (an order that pod
// slots, which the symmetry reduction permutes, do not decide), with the
// descheduler's trigger and the deletion mark.
func removeKeptPods(tx *Tx, s *State, n int) {
	u := tx.U
	var woken owners
	removed := false
	for i := range s.Pods {
		p := s.Pods[i]
		if int(p.Node) != n+1 || !KeepsTerminatingPod(u, s, &p) || slices.Contains(s.Queues[KubeletQueue], uint16(i)) {
			continue
		}
		ForgetJobPod(tx, s, i, false)
		s.ForgetPod(i) // not in the kubelet queue (above): its order stays
		removed = true
		if d := int(p.Owner) - 1; d >= 0 {
			woken.addOwner(d)
			tx.Mark(MarkDeleted(d))
		}
		if tx.Tracing() {
			tx.Log(kubeletComponent, "Deleted pod %s on node %s, which is back: it stayed Terminating while the node was not Ready", PodRef{Slot: i, Pod: p}, u.Nodes[n].Name)
		}
	}
	if !removed {
		return
	}
	AssignedPodDeleted(u, s)
	if woken.queue(u, s) {
		RequestDeschedulerCycle(u, s)
	}
}
