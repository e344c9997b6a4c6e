package scheduler

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// DefaultPreemption, the default profile's PostFilter plugin (Kubernetes
// v1.36, pkg/scheduler/framework/plugins/defaultpreemption and
// pkg/scheduler/framework/preemption). A pod that fits no node and whose
// preemptionPolicy allows it looks for nodes where deleting pods of
// lower priority makes it fit:
//
//   - potential nodes: those the filters rejected as Unschedulable (not
//     UnschedulableAndUnresolvable: removing pods cannot help there);
//   - on each, every pod of lower priority is a potential victim; with
//     all of them removed the pod must pass the filters, else the node is
//     no candidate; the victims are then reprieved one by one, most
//     important first (higher priority, then earlier start), those whose
//     eviction would violate a PodDisruptionBudget before the others:
//     a reprieved pod goes back when the pod still fits with it;
//   - among the candidates the node with the fewest budget violations,
//     then the lowest highest victim priority, then the smallest sum of
//     victim priorities (each shifted by 2^31), then the fewest victims,
//     then the latest start time of the most important victims wins; the
//     victims are deleted gracefully and the pod waits for the room.
//
// Where upstream's outcome depends on what the model does not have, the
// step branches (docs/divergences.md, "Preemption"): the start times of
// pods of equal priority order their reprieval (every order, identical
// pods as one, is explored and each distinct outcome is a branch), and
// the last criteria (start times, then the order of a map) leave every
// node that ties on the first four open. Every potential node is a
// candidate: upstream stops its dry run once it has
// max(10 % of the nodes, 100) candidates, which is all of them below 100
// potential nodes.

// Messages of the preemption plugin.
const (
	noVictimsReason    = "No preemption victims found for incoming pod"
	notHelpfulReason   = "Preemption is not helpful for scheduling"
	neverPreemptReason = "not eligible due to preemptionPolicy=Never."
)

// maxReprieveOrders bounds the orders of equal-priority victims the dry
// run explores on one node; past it the step fails with a model bound
// rather than leave orders out.
const maxReprieveOrders = 4096

// preemptOutcome is the result of a PostFilter run.
type preemptOutcome uint8

const (
	// preemptFailed: preemption does not help; msg says why.
	preemptFailed preemptOutcome = iota
	// preempted: victims were deleted; the pod waits for them to go.
	preempted
	// preemptWaits: the pod's nominated node still holds a terminating
	// pod of lower priority, a victim of its earlier preemption: the pod
	// is not eligible to preempt and waits (nominated.go).
	preemptWaits
)

// victimSet is one outcome of victim selection on a node.
type victimSet struct {
	node int
	// victims in upstream's order (most important first).
	victims    []int
	violations int
	// highest, sum: the victims' highest priority and upstream's sum of
	// priorities (each shifted by 2^31).
	highest int32
	sum     int64
}

// less orders victim sets by pickOneNodeForPreemption's first four
// criteria: fewer budget violations, lower highest priority, smaller
// priority sum, fewer victims; it reports a < b (a is preferred) and
// whether they tie.
func (a *victimSet) compare(b *victimSet) int {
	switch {
	case a.violations != b.violations:
		return cmpInt(a.violations, b.violations)
	case a.highest != b.highest:
		return cmpInt(a.highest, b.highest)
	case a.sum != b.sum:
		return cmpInt(a.sum, b.sum)
	}
	return cmpInt(len(a.victims), len(b.victims))
}

func cmpInt[T int | int32 | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// preemption is the scratch of one PostFilter run.
type preemption struct {
	u    *model.Universe
	s    *model.State
	pod  int
	prio int32
	c    *cycle
	// scratch is s with some pods removed (Free slots): what the
	// filters see during the dry run.
	scratch model.State
	pdbs    []int // the budgets' disruptionsAllowed, by budget
	fits    map[string]bool
}

// preempt runs DefaultPreemption for pod slot p of s after its scheduling
// cycle found no feasible node. On preempted it has deleted the victims
// (through the API, gracefully) and logged them; on preemptFailed msg is
// the PostFilter's status message, without the "preemption: " prefix.
func (sch Scheduler) preempt(tx *model.Tx, s *model.State, p int) (out preemptOutcome, msg string) {
	u := tx.U
	t := &u.Templates[s.Pods[p].Template]
	if !t.MayPreempt() {
		return preemptFailed, neverPreemptReason
	}
	pe := preemption{u: u, s: s, pod: p, prio: t.Priority}
	pe.c = sch.getCycle()
	defer sch.putCycle(pe.c)
	if !eligibleToPreempt(pe.c, u, s, p) {
		return preemptWaits, ""
	}
	sets, msg, bound := pe.candidates()
	if bound {
		s.ReachBound(model.BoundPreemptionOrders)
		return preemptFailed, msg
	}
	if len(sets) == 0 {
		s.Pods[p].NominatedNode = 0
		return preemptFailed, msg
	}
	pick := sets[0]
	if u.Options.TieBreak == model.BranchOnTies && len(sets) > 1 {
		pick = sets[tx.Choose(len(sets))]
	}
	if tx.Tracing() {
		// Pod references are resolved when the trace is rendered: they
		// go in as arguments.
		args := []any{s.PodRef(p), unavailableMsg(u, s, p), u.Nodes[pick.node].Name}
		verbs := make([]string, len(pick.victims))
		for i, v := range pick.victims {
			args, verbs[i] = append(args, s.PodRef(v)), "%s"
		}
		tx.Log(Component, "Pod %s cannot be scheduled yet: %s It is nominated to node %s and preempts "+strings.Join(verbs, ", "), args...)
	}
	// Upstream deletes the victims at once, in parallel; the model deletes
	// them owner by owner, then by slot, so that the order in which their
	// owners reach the kubelet and deployment queues does not depend on
	// pod slots (which the symmetry reduction permutes).
	nominate(tx, s, p, pick.node)
	victims := slices.Clone(pick.victims)
	slices.SortStableFunc(victims, func(a, b int) int {
		return cmpInt(int(s.Pods[a].Owner), int(s.Pods[b].Owner))
	})
	for _, v := range victims {
		if tx.Tracing() {
			tx.Log(Component, "Pod %s: Preempted by pod %s on node %s", s.PodRef(v), s.PodRef(p), u.Nodes[pick.node].Name)
		}
		if d := s.RequestDeletion(v); d >= 0 {
			tx.Mark(model.MarkEvicted(d))
		}
	}
	return preempted, ""
}

// candidates runs the dry run on every potential node and returns the
// victim sets pickOneNodeForPreemption may choose, in node order, or the
// FitError message when there is none. bound reports that a node had
// more reprieval orders than maxReprieveOrders.
func (pe *preemption) candidates() (sets []victimSet, msg string, bound bool) {
	u, s := pe.u, pe.s
	pr := defaultProfile()
	c := pe.c
	c.reset(u, s, pe.pod)
	c.filter(&pr)
	var potential []int
	for n := range u.Nodes {
		if c.rejectedBy[n] >= 0 && c.status[n].Code == Unschedulable {
			potential = append(potential, n)
		}
	}
	pe.pdbs = make([]int, len(u.PDBs))
	for b := range u.PDBs {
		pe.pdbs[b] = u.Disruption(s, b).DisruptionsAllowed
	}
	reasons := map[string]int{}
	var perNode [][]victimSet
	for _, n := range potential {
		vs, reason, over := pe.selectVictims(n)
		if over {
			return nil, fmt.Sprintf("more than %d orders of equal-priority victims on node %s", maxReprieveOrders, u.Nodes[n].Name), true
		}
		if len(vs) == 0 {
			reasons[reason]++
			continue
		}
		perNode = append(perNode, vs)
	}
	if len(perNode) == 0 {
		if absent := len(u.Nodes) - len(potential); absent > 0 {
			reasons[notHelpfulReason] += absent
		}
		return nil, fitError(len(u.Nodes), reasons), false
	}
	// A set is chosen in some run of upstream's ordering when, for every
	// other candidate node, some outcome of that node is not preferred to
	// it: the start times that decide both a node's reprieval order and
	// the last criterion are not modelled.
	worst := make([]*victimSet, len(perNode))
	for i, vs := range perNode {
		worst[i] = &vs[0]
		for j := range vs {
			if vs[j].compare(worst[i]) > 0 {
				worst[i] = &vs[j]
			}
		}
	}
	for i, vs := range perNode {
		for j := range vs {
			ok := true
			for k := range perNode {
				if k != i && vs[j].compare(worst[k]) > 0 {
					ok = false
					break
				}
			}
			if ok {
				sets = append(sets, vs[j])
			}
		}
	}
	return sets, "", false
}

// unavailableMsg is the FitError of the scheduling cycle as
// kube-scheduler writes it: "0/N nodes are available: <reasons>."
func unavailableMsg(u *model.Universe, s *model.State, pod int) string {
	return unavailable(u, s, pod) + "."
}

// fitError renders framework.FitError for the preemption's node statuses.
func fitError(nodes int, reasons map[string]int) string {
	hist := make([]string, 0, len(reasons))
	for r, k := range reasons {
		hist = append(hist, fmt.Sprintf("%d %s", k, r))
	}
	slices.Sort(hist)
	return fmt.Sprintf("0/%d nodes are available: %s.", nodes, strings.Join(hist, ", "))
}

// selectVictims is SelectVictimsOnNode on node n for every order of the
// equal-priority victims: the distinct outcomes in the order found, or
// none and the node's status reason.
func (pe *preemption) selectVictims(n int) (sets []victimSet, reason string, over bool) {
	u, s := pe.u, pe.s
	var pot []int
	for i := range s.Pods {
		if q := &s.Pods[i]; q.Phase != model.Free && int(q.Node) == n+1 && u.PodPriority(s, i) < pe.prio {
			pot = append(pot, i)
		}
	}
	if len(pot) == 0 {
		return nil, noVictimsReason, false
	}
	present := make([]bool, len(pot))
	pe.fits = map[string]bool{}
	if ok, st := pe.fitsWith(n, pot, present); !ok {
		return nil, st.Reason, false
	}
	// Most important first: priority, then (unknown start times) every
	// order; identical pods are one class whose lowest slots go first.
	slices.SortStableFunc(pot, func(a, b int) int { return cmpInt(u.PodPriority(s, b), u.PodPriority(s, a)) })
	class := make([]int, len(pot)) // class[i]: index in pot of i's class representative
	for i := range pot {
		class[i] = i
		for j := range i {
			if class[j] == j && model.IdenticalPods(s, pot[i], pot[j]) {
				class[i] = j
				break
			}
		}
	}
	remaining := make(map[int]int) // representative → pods left to place
	for i := range pot {
		remaining[class[i]]++
	}
	order := make([]int, 0, len(pot))
	taken := make([]bool, len(pot))
	orders := 0
	var walk func()
	walk = func() {
		if over {
			return
		}
		if len(order) == len(pot) {
			if orders++; orders > maxReprieveOrders {
				over = true
				return
			}
			vs := pe.reprieve(n, pot, order)
			set := slices.Sorted(slices.Values(vs.victims))
			for i := range sets {
				if slices.Equal(slices.Sorted(slices.Values(sets[i].victims)), set) && sets[i].violations == vs.violations {
					return
				}
			}
			sets = append(sets, vs)
			return
		}
		// The next pod: the highest priority left; among its classes any
		// one, taking the class's lowest untaken slot.
		top := int32(math.MinInt32)
		for i := range pot {
			if !taken[i] {
				top = max(top, u.PodPriority(s, pot[i]))
			}
		}
		for r := range pot {
			if class[r] != r || remaining[r] == 0 || u.PodPriority(s, pot[r]) != top {
				continue
			}
			// The lowest untaken member of class r.
			m := -1
			for j := range pot {
				if !taken[j] && class[j] == r && (m < 0 || pot[j] < pot[m]) {
					m = j
				}
			}
			taken[m] = true
			remaining[r]--
			order = append(order, m)
			walk()
			order = order[:len(order)-1]
			remaining[r]++
			taken[m] = false
		}
	}
	walk()
	return sets, "", over
}

// reprieve runs the reprieval for one order of the potential victims
// (indices into pot, most important first) and returns the victims.
func (pe *preemption) reprieve(n int, pot, order []int) victimSet {
	u, s := pe.u, pe.s
	allowed := slices.Clone(pe.pdbs)
	var violating, nonViolating []int
	for _, i := range order {
		v := pot[i]
		bad := false
		if len(u.Templates[s.Pods[v].Template].Labels) > 0 {
			for b := range u.PDBs {
				pdb := &u.PDBs[b]
				if pdb.Selector == nil || pdb.Selector.Empty() || !pdb.Selects(s, v) {
					continue
				}
				if allowed[b]--; allowed[b] < 0 {
					bad = true
				}
			}
		}
		if bad {
			violating = append(violating, i)
		} else {
			nonViolating = append(nonViolating, i)
		}
	}
	present := make([]bool, len(pot))
	isVictim := make([]bool, len(pot))
	vs := victimSet{node: n}
	for k, group := range [][]int{violating, nonViolating} {
		for _, i := range group {
			present[i] = true
			if ok, _ := pe.fitsWith(n, pot, present); !ok {
				present[i] = false
				isVictim[i] = true
				if k == 0 {
					vs.violations++
				}
			}
		}
	}
	// Both lists are in importance order, and upstream sorts the victims
	// by importance when both gave some: the order's own.
	for _, i := range order {
		if isVictim[i] {
			vs.victims = append(vs.victims, pot[i])
		}
	}
	if len(violating) == 0 || len(nonViolating) == 0 {
		vs.victims = vs.victims[:0]
		for _, group := range [][]int{violating, nonViolating} {
			for _, i := range group {
				if isVictim[i] {
					vs.victims = append(vs.victims, pot[i])
				}
			}
		}
	}
	if len(vs.victims) > 0 {
		vs.highest = u.PodPriority(s, vs.victims[0])
	}
	for _, v := range vs.victims {
		vs.sum += int64(u.PodPriority(s, v)) + math.MaxInt32 + 1
	}
	return vs
}

// fitsWith runs the filters on node n for the pod with the potential
// victims pot removed except those present (the dry run's NodeInfo after
// RemovePod and AddPod, whose PreFilter extensions recount what the
// filters read; the model recounts from the pods).
func (pe *preemption) fitsWith(n int, pot []int, present []bool) (bool, Status) {
	key := make([]byte, len(present))
	for i, b := range present {
		if b {
			key[i] = 1
		}
	}
	if ok, known := pe.fits[string(key)]; known {
		return ok, Status{}
	}
	sc := &pe.scratch
	buf := sc.Pods
	*sc = *pe.s
	sc.Pods = append(buf[:0], pe.s.Pods...)
	for i, v := range pot {
		if !present[i] {
			sc.Pods[v] = model.PodState{}
		}
	}
	pe.c.reset(pe.u, sc, pe.pod)
	st, _ := pe.c.standardFilters(n)
	ok := st.Code == Success
	pe.fits[string(key)] = ok
	return ok, st
}
