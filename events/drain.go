package events

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// Program counter of one drained node (event memory byte 1+2k for the
// k-th node of the event; byte 2+2k counts its refused retries, byte 0 is
// the position of the next node to start).
const (
	drainIdle     uint8 = iota // not started
	drainEvicting              // cordoned; evicting its pods, or waiting for them to go
	drainDrained               // drained; waiting to be uncordoned (with Uncordon only)
	drainDone                  // drained (and uncordoned, with Uncordon)
	drainFailed                // the drain gave up: the node stays cordoned
)

// DrainRetryDelay is kubectl drain's wait before it retries a refused
// eviction (EvictErrorRetryDelay), printed in the trace: the model counts
// retries, it has no clock.
const DrainRetryDelay = "5s"

// Drain is `kubectl drain` (k8s.io/kubectl pkg/drain) of the event's
// nodes, in order, Parallel of them at a time, as an operator's upgrade
// script runs it; its sub-actors are the nodes. The drain of one node:
//
//   - cordons it (spec.unschedulable: the scheduler's NodeUnschedulable
//     filter keeps new pods off unless they tolerate
//     node.kubernetes.io/unschedulable) and lists its pods; a pod that no
//     controller owns fails the drain there unless Force is set, as
//     kubectl's unreplicated filter does; the same step makes the first
//     round of evictions;
//   - evicts every active pod bound to the node through the Eviction API
//     (model.Universe.CheckEviction: the PodDisruptionBudgets), in one
//     step, pod slot by pod slot, each check seeing the evictions before
//     it (the goroutines of evictPods fire at once); with DisableEviction
//     it deletes them instead and no budget is consulted. An eviction the
//     budget refuses (429) is retried: the step is enabled again as soon
//     as some eviction would be allowed, at whatever point of the
//     controllers' work, so that the exploration covers every moment the
//     5 s retry can land; a refusal that persists is a retry interval
//     passing, which the model lets happen only when the cluster is
//     quiescent (as the HPA's time passes), and counts against
//     TimeoutRetries; the drain gives up when they are used up ("global
//     timeout reached"). Without a timeout (kubectl's default) the drain
//     waits: nothing changes until some eviction would be allowed, and a
//     cluster that stops there is not a valid end (ValidEnd). An eviction
//     answered 500 (two budgets select the pod) fails the drain, as
//     kubectl gives up on errors other than 429;
//   - is done once no pod is left on the node to evict and none is
//     terminating there (waitForDelete); a pod that stays terminating in
//     a quiet cluster (its node is not Ready) is waited for by retry
//     intervals counted against TimeoutRetries too (drainwait.go); with Uncordon, a later step
//     uncordons the node (the upgrade is done).
//
// A drain that failed starts no further node, as a script stopping at
// kubectl's error. What of kubectl drain the model leaves out
// (DaemonSets, mirror pods, emptyDir, grace periods, the listing done
// once) is in docs/divergences.md.
type Drain struct {
	event int
}

var (
	_ model.Process    = Drain{}
	_ model.EndChecker = Drain{}
)

func (Drain) Name() string { return "drain" }

func (d Drain) Enabled(u *model.Universe, s *model.State) bool {
	e := &u.Events[d.event]
	if !mayStart(u, s, d.event) {
		return false
	}
	return anyEnabled(len(e.Nodes), func(k int) bool { return d.nodeEnabled(u, s, k) })
}

// Step lets one enabled node's drain move, the nodes in the event's
// order.
func (d Drain) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	e := &u.Events[d.event]
	k := chooseEnabled(tx, len(e.Nodes), func(k int) bool { return d.nodeEnabled(u, s, k) })
	defer afterStep(u, s, d.event)
	if k < 0 {
		return
	}
	mem := vars(u, s, d.event)
	switch mem[1+2*k] {
	case drainIdle:
		d.cordon(tx, s, k)
	case drainEvicting:
		d.evict(tx, s, k)
	case drainDrained:
		d.uncordon(tx, s, k)
	}
}

// nodeEnabled says whether the drain of the event's k-th node can move.
func (d Drain) nodeEnabled(u *model.Universe, s *model.State, k int) bool {
	e := &u.Events[d.event]
	mem := vars(u, s, d.event)
	switch mem[1+2*k] {
	case drainIdle:
		pcs := drainPCs(u, s, d.event)
		return int(mem[0]) == k && drainsInFlight(pcs) < e.Parallel && !drainHasFailed(pcs)
	case drainEvicting:
		switch st, _ := d.evictionState(u, s, k); st {
		case evictionsPossible:
			return true
		case evictionsRefused, podsTerminating:
			// A retry interval passes only in a quiet cluster; pods still
			// terminating there wait for something no controller does (a
			// node that is not Ready to confirm their deletion), and
			// kubectl's wait for them is bounded by the same timeout.
			return e.Drain.TimeoutRetries > 0 && s.ControllerAndHPAQueuesEmpty()
		case nodeEmpty:
			return true
		}
		return false
	case drainDrained:
		return true
	}
	return false
}

// drainPCs is drain event i's memory up to its nodes' program counters
// and retries, without the listing's counts (drainlisting.go): what
// drainsInFlight, drainHasFailed and drainFinished read.
func drainPCs(u *model.Universe, s *model.State, i int) []uint8 {
	return vars(u, s, i)[:1+2*len(u.Events[i].Nodes)]
}

// drainsInFlight counts the nodes cordoned and not yet done.
func drainsInFlight(mem []uint8) int {
	busy := 0
	for k := 1; k < len(mem); k += 2 {
		if pc := mem[k]; pc == drainEvicting || pc == drainDrained {
			busy++
		}
	}
	return busy
}

func drainHasFailed(mem []uint8) bool {
	for k := 1; k < len(mem); k += 2 {
		if mem[k] == drainFailed {
			return true
		}
	}
	return false
}

// drainFinished: every node has been drained (and uncordoned).
func drainFinished(mem []uint8) bool {
	for k := 1; k < len(mem); k += 2 {
		if mem[k] != drainDone {
			return false
		}
	}
	return true
}

// evictionState is where the drain of a node stands.
type evictionState uint8

const (
	// evictionsPossible: some pod left to evict would be evicted (or
	// deleted), or its eviction fails for good (500).
	evictionsPossible evictionState = iota
	// evictionsRefused: every pod left to evict is refused by its
	// disruption budget (429).
	evictionsRefused
	// podsTerminating: nothing left to evict; some pod is still
	// terminating on the node.
	podsTerminating
	// nodeEmpty: the node is drained: no listed pod is left and none is
	// terminating (pods that arrived during the drain may run there).
	nodeEmpty
)

// evictionState reports where the drain of the event's k-th node stands
// in s and, for evictionsRefused, the first refused pod (for
// podsTerminating, the first pod terminating on the node). The pods left to
// evict are the listed ones (drainlisting.go); the drain waits for every
// pod terminating on the node, listed or not.
func (d Drain) evictionState(u *model.Universe, s *model.State, k int) (evictionState, int) {
	opts := u.Events[d.event].Drain
	n := u.Events[d.event].Nodes[k]
	refused := -1
	for _, p := range d.listed(u, s, k, false) {
		if opts.DisableEviction || u.CheckEviction(s, p).Outcome != model.EvictionBudgetExhausted {
			return evictionsPossible, -1
		}
		if refused < 0 {
			refused = p
		}
	}
	if refused >= 0 {
		return evictionsRefused, refused
	}
	for p := range s.Pods {
		if s.Pods[p].NodeOf() == n && s.Pods[p].Phase == model.Terminating {
			return podsTerminating, p
		}
	}
	return nodeEmpty, -1
}

// cordon starts the drain of the event's k-th node: kubectl cordons it,
// lists its pods, refusing a pod that no controller owns without --force,
// and sends the first eviction of each at once, so that a refusal is in
// the trace even when the drain then waits for ever.
func (d Drain) cordon(tx *model.Tx, s *model.State, k int) {
	u := tx.U
	e := &u.Events[d.event]
	mem := vars(u, s, d.event)
	n := e.Nodes[k]
	name := u.Nodes[n].Name
	mem[0]++
	mem[1+2*k] = drainEvicting
	if !s.Nodes[n].Cordoned {
		model.SetCordoned(u, s, n, true)
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl drain %s: node/%s cordoned", name, name)
		}
	}
	if !e.Drain.Force {
		for p := range s.Pods {
			if pod := &s.Pods[p]; pod.NodeOf() == n && pod.Active() && pod.Owner == 0 {
				mem[1+2*k] = drainFailed
				if tx.Tracing() {
					tx.Log(KubectlComponent, "kubectl drain %s: error: cannot delete Pods that declare no controller (use --force to override): %s",
						name, s.PodRef(p))
				}
				return
			}
		}
	}
	d.evictRound(tx, s, k, true)
}

// evict is one round of the drain of the event's k-th node: the
// evictions (or deletions) of every pod left on it, a retry interval
// passing while every eviction is refused, or the node found drained.
func (d Drain) evict(tx *model.Tx, s *model.State, k int) {
	u := tx.U
	e := &u.Events[d.event]
	mem := vars(u, s, d.event)
	n := e.Nodes[k]
	name := u.Nodes[n].Name
	switch st, refused := d.evictionState(u, s, k); st {
	case nodeEmpty:
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl drain %s: node/%s drained", name, name)
		}
		mem[1+2*k] = drainDone
		if e.Drain.Uncordon {
			mem[1+2*k] = drainDrained
		}
	case evictionsRefused:
		// A retry interval passes with every eviction refused.
		mem[2+2*k]++
		why := u.CheckEviction(s, refused).Reason(u)
		if int(mem[2+2*k]) >= e.Drain.TimeoutRetries {
			mem[1+2*k] = drainFailed
			if tx.Tracing() {
				tx.Log(KubectlComponent, "kubectl drain %s: error when evicting pods/\"%s\": global timeout reached after %d retries: %s",
					name, s.PodRef(refused), mem[2+2*k], why)
			}
			return
		}
		if tx.Tracing() {
			tx.Log(KubectlComponent, "kubectl drain %s: error when evicting pods/\"%s\" (will retry after %s): %s",
				name, s.PodRef(refused), DrainRetryDelay, why)
		}
	case podsTerminating:
		d.waitForDelete(tx, s, k)
	case evictionsPossible:
		d.evictRound(tx, s, k, false)
	}
}

// evictRound evicts (or deletes) the pods of the event's k-th node that
// are still to evict (drainlisting.go; first: the first round, every
// active pod), each eviction checked against the state the ones before it
// left.
// kubectl sends them at once, one goroutine per pod, so when a budget
// allows fewer than draw on it, which of them it lets through is a choice
// (model.Tx.ThroughFirst; identical pods are one choice); the others are
// refused. The rest go owner by owner, then in slot order: the order in
// which owners reach the kubelet and deployment queues then does not
// depend on pod slots (the descheduler does the same).
func (d Drain) evictRound(tx *model.Tx, s *model.State, k int, first bool) {
	u := tx.U
	e := &u.Events[d.event]
	n := e.Nodes[k]
	name := u.Nodes[n].Name
	pods := d.listed(u, s, k, first)
	if !first {
		pods = d.chooseListed(tx, s, k, pods)
	}
	defer d.recordListing(u, s, k, slices.Clone(pods))
	slices.SortStableFunc(pods, func(a, b int) int { return int(s.Pods[a].Owner) - int(s.Pods[b].Owner) })
	if !e.Drain.DisableEviction {
		pods = tx.ThroughFirst(s, pods, func(p int) int { return u.DrawnBudget(s, p) }, func(b int) int { return u.Disruption(s, b).DisruptionsAllowed })
	}
	for _, p := range pods {
		if e.Drain.DisableEviction {
			if tx.Tracing() {
				tx.Log(KubectlComponent, "kubectl drain %s: deleting pod %s", name, s.PodRef(p))
			}
			markEvicted(tx, s, p)
			model.NoteDeletedJobPod(u, s, p)
			s.RequestDeletion(p)
			continue
		}
		switch ev := u.CheckEviction(s, p); ev.Outcome {
		case model.EvictionAllowed:
			if tx.Tracing() {
				tx.Log(KubectlComponent, "kubectl drain %s: evicting pod %s", name, s.PodRef(p))
			}
			markEvicted(tx, s, p)
			// The eviction API adds the DisruptionTarget condition
			// (EvictionByEvictionAPI).
			model.AddDisruptionTarget(u, s, p)
			s.RequestDeletion(p)
		case model.EvictionBudgetExhausted:
			if tx.Tracing() {
				tx.Log(KubectlComponent, "kubectl drain %s: error when evicting pods/\"%s\" (will retry after %s): %s",
					name, s.PodRef(p), DrainRetryDelay, ev.Reason(u))
			}
		default:
			// Not a 429: kubectl gives up on the pod, and the drain
			// fails once the other evictions are through.
			if tx.Tracing() {
				tx.Log(KubectlComponent, "kubectl drain %s: error when evicting pods/\"%s\": %s", name, s.PodRef(p), ev.Reason(u))
			}
			vars(u, s, d.event)[1+2*k] = drainFailed
		}
	}
}

// markEvicted marks the step as evicting a pod of pod p's deployment
// (model.MarkEvicted), what the eviction-loop intents watch. A drain's
// eviction is a call of the Eviction API, as the descheduler's are; a
// drain with DisableEviction deletes the pod instead, which takes it away
// from its ReplicaSet as the taint manager's and the node controller's
// deletions do, and those are marked too: the mark means a pod terminated
// by someone other than its own controller. A pod without a controller
// belongs to no deployment and marks nothing.
func markEvicted(tx *model.Tx, s *model.State, p int) {
	if o := s.Pods[p].Owner; o != 0 {
		tx.Mark(model.MarkEvicted(int(o) - 1))
	}
}

// uncordon ends the drain of the event's k-th node: `kubectl uncordon`
// once its upgrade is done.
func (d Drain) uncordon(tx *model.Tx, s *model.State, k int) {
	u := tx.U
	n := u.Events[d.event].Nodes[k]
	// The uncordon requests a descheduler cycle
	// (model.RequestDeschedulerCycle), which sees the node schedulable
	// again and empty.
	model.SetCordoned(u, s, n, false)
	vars(u, s, d.event)[1+2*k] = drainDone
	if tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl uncordon %s: node/%s uncordoned", u.Nodes[n].Name, u.Nodes[n].Name)
	}
}

// ValidEnd: a drain is a valid end once every node is drained (and
// uncordoned), or when it never started and may not (its slot's phase
// did not come). A drain waiting for an eviction
// that its budget refuses, or for a node still to start, or one that
// gave up, is not: the nodes are not drained.
func (d Drain) ValidEnd(u *model.Universe, s *model.State) bool {
	mem := vars(u, s, d.event)
	if mem[0] == 0 && !mayStart(u, s, d.event) {
		return true
	}
	return drainFinished(drainPCs(u, s, d.event))
}

// StuckReason says why a drain that is not a valid end is stuck: the node
// it waits for and the refusal that keeps it waiting, or why it failed.
func (d Drain) StuckReason(u *model.Universe, s *model.State) string {
	e := &u.Events[d.event]
	mem := vars(u, s, d.event)
	for k, n := range e.Nodes {
		name := u.Nodes[n].Name
		switch mem[1+2*k] {
		case drainFailed:
			return "kubectl drain " + name + " failed: the node stays cordoned and the nodes after it are not drained"
		case drainEvicting:
			st, p := d.evictionState(u, s, k)
			switch st {
			case evictionsRefused:
				return "kubectl drain " + name + " waits for ever: the eviction of " + podOf(u, s, p) + " is refused: " + u.CheckEviction(s, p).Reason(u)
			case podsTerminating:
				return "kubectl drain " + name + " waits for its pods to terminate"
			}
			return "kubectl drain " + name + " has pods left to evict"
		case drainDrained:
			return "node " + name + " is drained and not uncordoned yet"
		case drainIdle:
			return "kubectl drain " + name + " has not started"
		}
	}
	return ""
}

// podOf describes pod slot p without a name (names belong to traces):
// "a pod of deployment D", or "a pod without a controller".
func podOf(u *model.Universe, s *model.State, p int) string {
	if o := s.Pods[p].Owner; o != 0 {
		return "a pod of deployment " + u.Deployments[o-1].Name
	}
	return "a pod without a controller"
}
