package scheduler

import "github.com/kivi-go/kivi/model"

// Nominated pods (kube-scheduler v1.36). When DefaultPreemption deletes
// victims, the preemptor's status.nominatedNodeName names the node it
// made room on (model.PodState.NominatedNode), and the scheduling
// queue's nominator (pkg/scheduler/backend/queue/nominator.go) lists the
// pod under that node until the pod is bound or deleted. A scheduling
// cycle reads the nominator in two places:
//
//   - RunFilterPluginsWithNominatedPods: on a node with nominated pods
//     of priority ≥ the incoming pod's (the incoming pod itself left
//     out: addGENominatedPods), the filters run first with those pods
//     added to the node and to the PreFilter state (AddPod), and, if
//     they pass, again without them; the node is feasible only when
//     both pass, and its status is the first failing pass's. Scoring
//     does not see nominated pods. The dry run of preemption filters
//     the same way, so a nominated pod's room is not a preemption
//     candidate's either.
//   - schedulePod: a pod with a nominated node tries that node first
//     (evaluateNominatedNode) and, when it passes, is bound to it
//     without scoring; otherwise the cycle runs over every node.
//
// DefaultPreemption sets the nomination when it preempts and clears the
// nominations of pods of lower priority nominated to the same node
// (the executor's getLowerPriorityNominatedPods and
// clearNominatedNodeName, which moves them to the active queue); it
// clears the preemptor's own when no node is a candidate, and keeps it
// when the pod is not eligible to preempt (PodEligibleToPreemptOthers:
// its nominated node still holds a terminating pod of lower priority).
// Binding and deletion drop a pod from the nominator
// (model.State.RequestDeletion, the scheduler's bind).

// notEligibleTerminatingReason is PodEligibleToPreemptOthers' message
// for a pod whose nominated node still holds a victim.
const notEligibleTerminatingReason = "not eligible due to a terminating pod on the nominated node."

// nominations is what a cycle reads of the nominator.
type nominations struct {
	// pods are the slots of the pods nominated to some node whose
	// priority is at least the cycle's pod's, other than that pod:
	// those it must leave room for. Always empty in a universe where no
	// pod may preempt (no pod is ever nominated there).
	pods []int
	// inner runs the filters with a node's nominated pods added, on
	// scratch.
	inner   *cycle
	scratch model.State
}

// collectNominated lists the nominated pods the cycle's pod must leave
// room for (addGENominatedPods' selection: corev1.PodPriority ≥ the
// pod's, not the pod).
func (c *cycle) collectNominated() {
	c.nom.pods = c.nom.pods[:0]
	if !c.plan.preempts {
		return
	}
	prio := c.t.Priority
	for i := range c.s.Pods {
		q := &c.s.Pods[i]
		if q.NominatedNode != 0 && i != c.pod && q.Phase == model.Pending && q.Node == 0 &&
			c.u.Templates[q.Template].Priority >= prio {
			c.nom.pods = append(c.nom.pods, i)
		}
	}
}

// readsNominator reports whether the cycle's answer depends on
// nominations: the decision memo's key does not hold them, so such a
// cycle is computed afresh.
func (c *cycle) readsNominator() bool {
	return len(c.nom.pods) > 0 || c.p.NominatedNode != 0
}

// nominatedTo reports whether node n has pods the cycle's pod must leave
// room for.
func (c *cycle) nominatedTo(n int) bool {
	for _, i := range c.nom.pods {
		if int(c.s.Pods[i].NominatedNode) == n+1 {
			return true
		}
	}
	return false
}

// filterWithNominated is RunFilterPluginsWithNominatedPods' first pass on
// node n: the filters (the default profile's when filters is nil) with
// the pods nominated to n that the cycle's pod must leave room for
// placed on n, their requests and the spread and affinity counts taken
// as upstream's AddPod takes them (the inner cycle recounts them from a
// state where those pods are bound to n). It returns the first
// rejection and its filter's index, or Success.
func (c *cycle) filterWithNominated(n int, filters []filterPlugin) (Status, int8) {
	nm := &c.nom
	sc := &nm.scratch
	buf := sc.Pods
	*sc = *c.s
	sc.Pods = append(buf[:0], c.s.Pods...)
	for _, i := range nm.pods {
		if q := &sc.Pods[i]; int(q.NominatedNode) == n+1 {
			// Bound, the pod is no longer nominated: the inner cycle
			// does not run this pass again.
			q.Node, q.NominatedNode = q.NominatedNode, 0
		}
	}
	if nm.inner == nil {
		nm.inner = new(cycle)
	}
	in := nm.inner
	// A dry run's removed terminating pods are subtracted in this pass
	// too: upstream adds the nominated pods to the dry run's state. Only
	// the PreFilter counts (reset) read them.
	in.removedTerminating = c.removedTerminating
	in.reset(c.u, sc, c.pod)
	in.removedTerminating = nil
	if filters == nil {
		return in.standardFilters(n)
	}
	for i, f := range filters {
		if st := f.Filter(in, n); st.Code != Success {
			return st, int8(i)
		}
	}
	return Status{}, -1
}

// nominatedNodeFirst is evaluateNominatedNode's outcome after the cycle
// filtered every node: a pod nominated to a node that passes the filters
// goes there, with no other node and no scoring (a single feasible node
// is taken as it is). Filters judge each node on its own, so filtering
// the nominated node alone first gives the same verdict. ok is false when
// the pod has no nomination or its node fails.
func (c *cycle) nominatedNodeFirst() (top []int, ok bool) {
	n := int(c.p.NominatedNode) - 1
	if n < 0 || n >= len(c.rejectedBy) || c.rejectedBy[n] != -1 {
		return nil, false
	}
	c.feasible = append(c.feasible[:0], n)
	return c.feasible, true
}

// eligibleToPreempt is PodEligibleToPreemptOthers past the
// preemptionPolicy check, for pod slot p of s: a pod whose nominated node
// still holds a terminating pod of lower priority waits for it, unless
// the filters found the nominated node UnschedulableAndUnresolvable
// (then preemption may look elsewhere). Only pods terminating as a
// preemption's victims count (model.Preempted: upstream's
// podTerminatingByPreemption reads their DisruptionTarget condition).
// c is a scratch cycle for the nominated node's status.
func eligibleToPreempt(c *cycle, u *model.Universe, s *model.State, p int) bool {
	nom := int(s.Pods[p].NominatedNode)
	if nom == 0 {
		return true
	}
	prio := u.PodPriority(s, p)
	terminating := false
	for i := range s.Pods {
		if q := &s.Pods[i]; q.Phase == model.Terminating && q.Failure&model.Preempted != 0 && int(q.Node) == nom && u.PodPriority(s, i) < prio {
			terminating = true
			break
		}
	}
	if !terminating {
		return true
	}
	pr := defaultProfile()
	c.reset(u, s, p)
	c.filter(&pr)
	return c.rejectedBy[nom-1] >= 0 && c.status[nom-1].Code == UnschedulableAndUnresolvable
}

// nominate records the preemptor's nomination to node n and, as the
// preemption executor does, clears the nominations of the pods of lower
// priority nominated to n, queueing them for a new cycle (their update
// moves them to the active queue).
func nominate(tx *model.Tx, s *model.State, p, n int) {
	u := tx.U
	prio := u.PodPriority(s, p)
	for i := range s.Pods {
		if q := &s.Pods[i]; i != p && int(q.NominatedNode) == n+1 && u.PodPriority(s, i) < prio {
			q.NominatedNode = 0
			s.Enqueue(model.SchedulerQueue, i)
		}
	}
	s.Pods[p].NominatedNode = uint16(n + 1)
}
