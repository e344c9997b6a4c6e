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
// candidate: upstream stops its dry run, from a random offset, once it
// has max(10 % of the potential nodes, 100) candidates and chooses among
// those, which is all of them below 100 potential nodes; above, it may
// also choose a node that is not the best of all, which the model does
// not explore.

// Messages of the preemption plugin.
const (
	noVictimsReason    = "No preemption victims found for incoming pod"
	notHelpfulReason   = "Preemption is not helpful for scheduling"
	neverPreemptReason = "not eligible due to preemptionPolicy=Never."
)

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
		if s.Pods[v].Phase == model.Terminating {
			// Already being deleted: upstream's executor skips the
			// deletion and its event.
			continue
		}
		if tx.Tracing() {
			tx.Log(Component, "Pod %s: Preempted by pod %s on node %s", s.PodRef(v), s.PodRef(p), u.Nodes[pick.node].Name)
		}
		// The victim carries the DisruptionTarget condition
		// (PreemptionByScheduler).
		model.MarkPreempted(u, s, v)
		if d := s.RequestDeletion(v); d >= 0 {
			tx.Mark(model.MarkEvicted(d))
		}
	}
	return preempted, ""
}

// candidates runs the dry run on every potential node and returns the
// victim sets pickOneNodeForPreemption may choose, in node order, or the
// FitError message when there is none. bound reports that a node had
// more reprieval states than maxReprieveStates.
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
			return nil, fmt.Sprintf("more than %d reprieval states of potential victims on node %s", maxReprieveStates, u.Nodes[n].Name), true
		}
		if len(vs) == 0 {
			for _, r := range splitReasons(reason) {
				reasons[r]++
			}
			continue
		}
		perNode = append(perNode, vs)
	}
	if len(perNode) == 0 {
		listed := listedNodes(s)
		if absent := listed - len(potential); absent > 0 {
			reasons[notHelpfulReason] += absent
		}
		return nil, fitError(listed, reasons), false
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
//
// Identical pods (model.IdenticalPods) form a class: the filters cannot
// tell its members apart, so an outcome depends on how many of each class
// are reprieved, not which, and the search runs over counts per class
// (reprieval) rather than over orders, whose number grows as a
// multinomial in the pods of equal priority.
func (pe *preemption) selectVictims(n int) (sets []victimSet, reason string, over bool) {
	u, s := pe.u, pe.s
	var pot []int
	for i := range s.Pods {
		if q := &s.Pods[i]; model.InSchedulerCache(q) && int(q.Node) == n+1 && u.PodPriority(s, i) < pe.prio {
			pot = append(pot, i)
		}
	}
	if len(pot) == 0 {
		return nil, noVictimsReason, false
	}
	r := reprieval{pe: pe, node: n, classes: pe.victimClasses(pot), seen: map[string]bool{}}
	pe.fits = map[string]bool{}
	if ok, st := r.fits(make([]int, len(r.classes))); !ok {
		return nil, st.Reason, false
	}
	r.labelAndReprieveViolating(make([]int, len(r.classes)), make([]int, len(r.classes)), make([]int, len(r.classes)))
	if r.over {
		return nil, "", true
	}
	return r.sets, "", false
}

// victimClass is one class of identical potential victims on a node.
type victimClass struct {
	pods []int // slots, ascending: the members taken first come first
	prio int32
	// budgets: the PodDisruptionBudgets whose selector selects the
	// class's pods.
	budgets []int
}

// victimClasses groups the potential victims pot (slots, ascending) into
// classes of identical pods, most important first: higher priority, then
// lower first slot.
func (pe *preemption) victimClasses(pot []int) []victimClass {
	u, s := pe.u, pe.s
	var classes []victimClass
	for _, v := range pot {
		found := false
		for c := range classes {
			if model.IdenticalPods(s, classes[c].pods[0], v) {
				classes[c].pods = append(classes[c].pods, v)
				found = true
				break
			}
		}
		if found {
			continue
		}
		vc := victimClass{pods: []int{v}, prio: u.PodPriority(s, v)}
		if len(u.Templates[s.Pods[v].Template].Labels) > 0 {
			for b := range u.PDBs {
				if pdb := &u.PDBs[b]; pdb.Selector != nil && !pdb.Selector.Empty() && pdb.Selects(s, v) {
					vc.budgets = append(vc.budgets, b)
				}
			}
		}
		classes = append(classes, vc)
	}
	slices.SortStableFunc(classes, func(a, b victimClass) int { return cmpInt(b.prio, a.prio) })
	return classes
}

// maxReprieveStates bounds the states of the reprieval search on one
// node; past it the step fails with a model bound rather than leave
// outcomes out.
const maxReprieveStates = 1 << 16

// reprieval explores SelectVictimsOnNode over every order of the
// potential victims, most important first, with start times (which order
// pods of equal priority) unknown. Upstream walks the victims in that
// order, labels each as violating a PodDisruptionBudget or not (the
// budgets' allowed disruptions, decremented by every victim they select,
// run out), then reprieves the violating ones in order and after them the
// others: a pod goes back when the pod being scheduled still fits.
//
// The search has two phases. The first follows an order pod by pod over
// the classes some budget selects (the others are never violating and
// have no part in it): it labels the pods and reprieves the violating
// ones as they come (their pass sees only earlier violating pods),
// remembering the counts per class it has seen. The non-violating pods
// may then come in any order of decreasing priority: putting them all
// before the violating pods of their priority keeps every label (a budget
// that lets them all through lets any of their orders through, and a
// violating pod that comes later still finds its budget spent). The
// second phase (maximalNonViolating) derives the outcomes of all those
// orders at once, because the filters are monotone here: a victim put
// back never helps the pod fit. Resources, topology spread and
// anti-affinity either way only get harder to pass with more pods; the
// pod's own required pod affinity can be helped, but the node is a
// candidate only if the pod fits with every potential victim gone, and a
// term satisfied then stays satisfied with pods put back.
type reprieval struct {
	pe      *preemption
	node    int
	classes []victimClass
	seen    map[string]bool
	sets    []victimSet
	over    bool
	// states counts the search's steps, bounded by maxReprieveStates.
	states int
}

// visit reports whether the phase's counts are new, and marks them seen.
func (r *reprieval) visit(phase byte, counts ...[]int) bool {
	key := make([]byte, 0, 1+2*len(counts)*len(r.classes))
	key = append(key, phase)
	for _, cs := range counts {
		for _, k := range cs {
			key = append(key, byte(k), byte(k>>8))
		}
	}
	if r.seen[string(key)] {
		return false
	}
	r.seen[string(key)] = true
	return r.step()
}

// step counts a step of the search and reports whether the bound allows
// it.
func (r *reprieval) step() bool {
	if r.states++; r.states > maxReprieveStates {
		r.over = true
	}
	return !r.over
}

// next returns the classes the first phase may take next: of those some
// budget selects, the ones of the highest priority with members left.
func (r *reprieval) next(taken []int) []int {
	var cs []int
	for c := range r.classes {
		if len(r.classes[c].budgets) == 0 || taken[c] == len(r.classes[c].pods) {
			continue
		}
		if len(cs) > 0 && r.classes[c].prio < r.classes[cs[0]].prio {
			break
		}
		cs = append(cs, c)
	}
	return cs
}

// labelAndReprieveViolating is the first phase: taken members of each
// class so far, of which violating ones, of which kept1 reprieved.
func (r *reprieval) labelAndReprieveViolating(taken, violating, kept1 []int) {
	if r.over || !r.visit(1, taken, violating, kept1) {
		return
	}
	cs := r.next(taken)
	if len(cs) == 0 {
		r.maximalNonViolating(violating, kept1, make([]int, len(r.classes)), 0)
		return
	}
	for _, c := range cs {
		bad := false
		for _, b := range r.classes[c].budgets {
			allowed := r.pe.pdbs[b]
			for d := range r.classes {
				if slices.Contains(r.classes[d].budgets, b) {
					allowed -= taken[d]
				}
			}
			if allowed-1 < 0 {
				bad = true
			}
		}
		taken[c]++
		if bad {
			violating[c]++
			kept1[c]++
			fits, _ := r.fits(kept1)
			if !fits {
				kept1[c]--
			}
			r.labelAndReprieveViolating(taken, violating, kept1)
			if fits {
				kept1[c]--
			}
			violating[c]--
		} else {
			r.labelAndReprieveViolating(taken, violating, kept1)
		}
		taken[c]--
	}
}

// maximalNonViolating is the second phase when the filters are
// monotone: the non-violating members of each class some order reprieves
// (kept2) are exactly the counts with which the pod fits (next to the
// kept1 violating ones) and to which no non-violating victim could be
// added: a victim of priority p did not fit when its turn came, so it
// does not fit with every pod of priority p or more kept, and an order
// that puts the kept pods of each priority before its victims reaches
// those counts. It assigns kept2 class by class from class c on (classes
// are in priority order), pruning counts with which the pod no longer
// fits and, once a priority is complete, those its victims would fit.
func (r *reprieval) maximalNonViolating(violating, kept1, kept2 []int, c int) {
	if !r.step() {
		return
	}
	present := make([]int, len(r.classes))
	for d := range present {
		present[d] = kept1[d] + kept2[d]
	}
	if ok, _ := r.fits(present); !ok {
		return
	}
	if c == 0 || c == len(r.classes) || r.classes[c].prio != r.classes[c-1].prio {
		// The priority before c is complete: its victims must not fit.
		for d := c - 1; d >= 0 && (c == 0 || r.classes[d].prio == r.classes[c-1].prio); d-- {
			if kept2[d] == len(r.classes[d].pods)-violating[d] {
				continue
			}
			present[d]++
			fits, _ := r.fits(present)
			present[d]--
			if fits {
				return
			}
		}
	}
	if c == len(r.classes) {
		r.outcome(violating, kept1, kept2)
		return
	}
	// Most kept first: the outcomes come in the order of the orders that
	// take the first classes first.
	for k := len(r.classes[c].pods) - violating[c]; k >= 0; k-- {
		kept2[c] = k
		r.maximalNonViolating(violating, kept1, kept2, c+1)
	}
	kept2[c] = 0
}

// outcome records the victims of a finished order unless an earlier
// order had the same: of each class, the members not reprieved (its
// last slots), most important first.
func (r *reprieval) outcome(violating, kept1, kept2 []int) {
	u, s := r.pe.u, r.pe.s
	vs := victimSet{node: r.node}
	for c := range r.classes {
		vc := &r.classes[c]
		kept := kept1[c] + kept2[c]
		vs.victims = append(vs.victims, vc.pods[kept:]...)
		vs.violations += violating[c] - kept1[c]
	}
	for i := range r.sets {
		if r.sets[i].violations == vs.violations && slices.Equal(r.sets[i].victims, vs.victims) {
			return
		}
	}
	if len(vs.victims) > 0 {
		vs.highest = u.PodPriority(s, vs.victims[0])
	}
	for _, v := range vs.victims {
		vs.sum += int64(u.PodPriority(s, v)) + math.MaxInt32 + 1
	}
	r.sets = append(r.sets, vs)
}

// fits runs the filters on the node for the pod with every potential
// victim removed but the first present[c] members of each class c (the
// dry run's NodeInfo after RemovePod and AddPod, whose PreFilter
// extensions recount what the filters read; the model recounts from the
// pods). Members of a class are identical: which ones stay is immaterial.
func (r *reprieval) fits(present []int) (bool, Status) {
	pe := r.pe
	key := make([]byte, 0, 2*len(present))
	for _, k := range present {
		key = append(key, byte(k), byte(k>>8))
	}
	if ok, known := pe.fits[string(key)]; known {
		return ok, Status{}
	}
	sc := &pe.scratch
	buf := sc.Pods
	*sc = *pe.s
	sc.Pods = append(buf[:0], pe.s.Pods...)
	removed := pe.c.removedTerminating[:0]
	for c := range r.classes {
		for _, v := range r.classes[c].pods[present[c]:] {
			if sc.Pods[v].Phase == model.Terminating {
				removed = append(removed, sc.Pods[v])
			}
			sc.Pods[v] = model.PodState{}
		}
	}
	pe.c.removedTerminating = removed
	pe.c.reset(pe.u, sc, pe.pod)
	st, _ := pe.c.standardFilters(r.node)
	pe.c.removedTerminating = removed[:0]
	ok := st.Code == Success
	pe.fits[string(key)] = ok
	return ok, st
}
