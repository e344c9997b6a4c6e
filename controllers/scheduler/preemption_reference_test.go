package scheduler

import (
	"math"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// refMaxOrders bounds the reference's orders: it enumerates every order
// of the equal-priority victims, which the tests keep small.
const refMaxOrders = 1 << 16

// refSelectVictims is the reference for selectVictims: SelectVictimsOnNode on node n for every order of the
// equal-priority victims: the distinct outcomes in the order found, or
// none and the node's status reason.
func (pe *preemption) refSelectVictims(n int) (sets []victimSet, reason string, over bool) {
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
	fits := map[string]bool{}
	if ok, st := pe.refFitsWith(n, pot, present, fits); !ok {
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
			if orders++; orders > refMaxOrders {
				over = true
				return
			}
			vs := pe.refReprieve(n, pot, order, fits)
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

// refReprieve runs the reprieval for one order of the potential victims
// (indices into pot, most important first) and returns the victims.
func (pe *preemption) refReprieve(n int, pot, order []int, fits map[string]bool) victimSet {
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
			if ok, _ := pe.refFitsWith(n, pot, present, fits); !ok {
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

// refFitsWith runs the filters on node n for the pod with the potential
// victims pot removed except those present (the dry run's NodeInfo after
// RemovePod and AddPod, whose PreFilter extensions recount what the
// filters read; the model recounts from the pods).
func (pe *preemption) refFitsWith(n int, pot []int, present []bool, fits map[string]bool) (bool, Status) {
	key := make([]byte, len(present))
	for i, b := range present {
		if b {
			key[i] = 1
		}
	}
	if ok, known := fits[string(key)]; known {
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
	fits[string(key)] = ok
	return ok, st
}
