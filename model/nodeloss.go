package model

import (
	"fmt"
	"slices"
)

// A node lost for good: a nodeFailure with recovers: false
// (Event.Permanent) takes its node down and has it seen NotReady, and the
// node never comes back (a deleted VM, dead hardware, a reclaimed spot
// instance whose Node object stays). Its pods then stay as the node
// lifecycle controller and the kubelet leave them: evicted pods
// Terminating for ever (KeepsTerminatingPod), a StatefulSet's ordinal
// held, and nothing evicted at all where the zone is fully disrupted.
//
// The operator's remedy for such a node is the out-of-service taint
// (non-graceful node shutdown): with Event.OutOfService the event's last
// step, at any time after the node is seen NotReady, taints the node
// node.kubernetes.io/out-of-service=nodeshutdown:NoExecute. The pod
// garbage collector then force-deletes the node's terminating pods
// (ForceDeletedOutOfService) and the taint-eviction-controller evicts the
// pods that do not tolerate the taint. The taint is one byte of the
// event's memory, after its program counter: a nodeFailure without the
// remedy has the single byte it always had.

// outOfServiceValue is the value the Kubernetes documentation gives the
// out-of-service taint (kubectl taint nodes NODE
// node.kubernetes.io/out-of-service=nodeshutdown:NoExecute); the pod
// garbage collector looks at the key alone.
const outOfServiceValue = "nodeshutdown"

// OutOfServiceTaint is the taint an operator puts on a node lost for
// good.
func OutOfServiceTaint() Taint {
	return Taint{Key: TaintNodeOutOfService, Value: outOfServiceValue, Effect: NoExecute}
}

// nodeLossDecl reads a nodeFailure's recovers and outOfService into ev.
func nodeLossDecl(ev *Event, e EventDecl) error {
	if ev.Kind != NodeFailure {
		if e.Recovers != nil || e.OutOfService {
			return fmt.Errorf("recovers, outOfService: only nodeFailure takes them: %w", ErrInvalid)
		}
		return nil
	}
	ev.Permanent = e.Recovers != nil && !*e.Recovers
	ev.OutOfService = e.OutOfService
	if ev.OutOfService && !ev.Permanent {
		return fmt.Errorf("outOfService: true needs recovers: false (accepted: recovers: false with outOfService: true or false; the taint is for a node that never comes back): %w", ErrInvalid)
	}
	return nil
}

// nodeFailureVarLen is the memory of a nodeFailure: its program counter,
// and the out-of-service byte when the operator taints the node.
func nodeFailureVarLen(e *Event) int {
	if e.OutOfService {
		return 2
	}
	return 1
}

// compileNodeLoss checks the events around a node lost for good and
// locates the out-of-service bytes. Nothing may bring a lost node back:
// another nodeFailure of it, a maintenance or a kernel panic (whose
// recovery makes a node Ready) are refused.
func (u *Universe) compileNodeLoss() error {
	u.outOfServiceVar = nil
	for i := range u.Events {
		e := &u.Events[i]
		if e.Kind != NodeFailure {
			if e.Permanent || e.OutOfService {
				return fmt.Errorf("events[%d] (%s): recovers and outOfService are nodeFailure's: %w", i, e.Kind, ErrInvalid)
			}
			continue
		}
		if e.OutOfService && !e.Permanent {
			return fmt.Errorf("events[%d] (%s): outOfService needs recovers: false: %w", i, e.Kind, ErrInvalid)
		}
		if !e.Permanent {
			continue
		}
		for j := range u.Events {
			o := &u.Events[j]
			switch {
			case j == i:
			case o.Kind == NodeFailure && o.Node == e.Node:
				return fmt.Errorf("events[%d] (%s): node %s never comes back (recovers: false), and events[%d] fails it again (accepted: one nodeFailure per node lost for good): %w",
					i, e.Kind, u.Nodes[e.Node].Name, j, ErrInvalid)
			case o.Kind == Maintenance || o.Kind == KernelPanic:
				return fmt.Errorf("events[%d] (%s): node %s never comes back (recovers: false), which events[%d] (%s) would bring back Ready (accepted: a lost node without %s in the same input): %w",
					i, e.Kind, u.Nodes[e.Node].Name, j, o.Kind, o.Kind, ErrInvalid)
			}
		}
		if e.OutOfService {
			if u.outOfServiceVar == nil {
				u.outOfServiceVar = slices.Repeat([]int{-1}, len(u.Nodes))
			}
			u.outOfServiceVar[e.Node] = e.VarOffset + 1
		}
	}
	return nil
}

// HasOutOfServiceEvents reports whether an event of u may taint a node
// out-of-service while the model runs.
func (u *Universe) HasOutOfServiceEvents() bool { return u.outOfServiceVar != nil }

// NodeOutOfService reports whether node n carries the out-of-service
// taint in s: from the input, or put by the operator while the model runs.
func (u *Universe) NodeOutOfService(s *State, n int) bool {
	if u.outOfServiceVar != nil {
		if off := u.outOfServiceVar[n]; off >= 0 && s.EventVars[off] != 0 {
			return true
		}
	}
	return outOfService(&u.Nodes[n])
}

// OutOfServiceByEvent reports whether an event has tainted node n
// out-of-service in s (the taint is not the input's).
func (u *Universe) OutOfServiceByEvent(s *State, n int) bool {
	if u.outOfServiceVar == nil {
		return false
	}
	off := u.outOfServiceVar[n]
	return off >= 0 && s.EventVars[off] != 0
}

// addOutOfServiceChanged adds to f node n when s and t differ in the
// out-of-service taint an event puts on n. The taint is the node's
// (NodeOutOfService): whoever reads the node (the kubelet confirming a
// deletion there, the scheduler, the taint manager) reads it, though it
// lives in the event's memory; the event, which writes it, writes the
// node too.
func (u *Universe) addOutOfServiceChanged(f *Footprint, s, t *State) {
	for n, off := range u.outOfServiceVar {
		if off >= 0 && off < len(s.EventVars) && off < len(t.EventVars) && s.EventVars[off] != t.EventVars[off] {
			f.AddNode(n)
		}
	}
}

// SetOutOfService is the operator's `kubectl taint nodes` of node n, lost
// for good, with the out-of-service taint (an event with OutOfService
// names n): the event's byte is set, the pods the node's kubelet can no longer remove go to the pod garbage
// collector (which the model runs in the kubelet's step:
// ForceDeletedOutOfService), and the bound pods the taint-eviction-
// controller is to judge against the new NoExecute taint go to its queue.
// A kept pod stays no replica until removed, as when its node comes back
// (requeueKeptPods). It returns how many pods went to each.
func SetOutOfService(u *Universe, s *State, n int) (collected, judged int) {
	pods := NodePodsInOwnerOrder(u, s, n)
	for _, i := range pods {
		if p := &s.Pods[i]; KeepsTerminatingPod(u, s, p) {
			p.WasRunning = false
			s.Enqueue(KubeletQueue, i)
			collected++
		}
	}
	s.EventVars[u.outOfServiceVar[n]] = 1
	if u.Options.KiviLifecycle {
		// Kivi's taint manager judges the input's taints alone, and its
		// node controller has evicted every pod of a node not Ready.
		return collected, 0
	}
	for _, i := range pods {
		p := &s.Pods[i]
		if p.Phase != Pending && p.Phase != Running {
			continue
		}
		if u.Templates[p.Template].Fit[n].OutOfService[outOfServiceIndex(s.Nodes[n].Status)].Evicted() {
			s.Enqueue(TaintManagerQueue, i)
			judged++
		}
	}
	return collected, judged
}

// outOfServiceIndex indexes NodeFit.OutOfService for a node of status st:
// its node-down taint, or 2 when it carries none.
func outOfServiceIndex(st NodeStatus) int {
	if k, ok := st.NodeDownTaint(); ok {
		return k
	}
	return 2
}

// OutOfServiceEviction is what the taint-eviction-controller does with a
// pod of template t on node n, tainted out-of-service by an event in s:
// its standing against every NoExecute taint of the node.
func (u *Universe) OutOfServiceEviction(s *State, t, n int) NoExecuteToleration {
	return u.Templates[t].Fit[n].OutOfService[outOfServiceIndex(s.Nodes[n].Status)]
}

// toleratesOutOfService reports whether tolerations tolerate the
// out-of-service taint (the scheduler's TaintToleration filter rejects a
// node with an untolerated NoExecute taint).
func toleratesOutOfService(tolerations []Toleration) bool {
	taint := OutOfServiceTaint()
	for _, tol := range tolerations {
		if tol.Tolerates(taint) {
			return true
		}
	}
	return false
}
