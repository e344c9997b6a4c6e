package model

// Ties among pods. Kubernetes breaks the last ties between candidates by
// things the model does not track (pod age, readiness time, restart
// counts, informer listing order), so the controllers leave the choice
// open: they branch over which of the tied pods go. Pods that are fully identical (equal
// PodState, neither waiting in a pod queue) are interchangeable, so only
// how many of each identical group go is a choice, and the lowest slots
// of a group go first. The outcome is then a function of the pods'
// contents, not of their slots, which is what lets model/symmetry permute
// pod slots.

// identicalGroups partitions pods (slots) into groups of identical pods,
// each group in ascending slot order, groups ordered by their first
// member's position in pods.
func identicalGroups(s *State, pods []int) [][]int {
	var groups [][]int
	for _, p := range pods {
		placed := false
		for g := range groups {
			if identicalPods(s, groups[g][0], p) {
				groups[g] = insertSorted(groups[g], p)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []int{p})
		}
	}
	return groups
}

// identicalPods reports whether slots a and b hold pods no step can tell
// apart: equal PodState, and neither is pending in a pod queue (a queue
// position belongs to one slot).
func identicalPods(s *State, a, b int) bool {
	return a == b || (s.Pods[a] == s.Pods[b] && !inPodQueue(s, a) && !inPodQueue(s, b))
}

// inPodQueue reports whether slot p is pending in a queue of pod ids.
func inPodQueue(s *State, p int) bool {
	for _, q := range []Queue{SchedulerQueue, KubeletQueue, TaintManagerQueue} {
		for _, x := range s.Queues[q] {
			if int(x) == p {
				return true
			}
		}
	}
	return false
}

func insertSorted(xs []int, x int) []int {
	i := len(xs)
	for i > 0 && xs[i-1] > x {
		i--
	}
	xs = append(xs, 0)
	copy(xs[i+1:], xs[i:])
	xs[i] = x
	return xs
}

// ChoosePods picks k of the candidate pods (slots), branching through
// tx.Choose over every multiset of distinct pods: identical pods are
// grouped, how many of each group go is the choice (the last group takes
// the rest), and the lowest slots of a group go first. The picks come out
// group by group, groups ordered by their first member's position in
// candidates. Choice 0 takes as many as it can from the earliest groups,
// so the first branch is Kivi's lowest-slot pick when the candidates are
// in slot order.
func (tx *Tx) ChoosePods(s *State, candidates []int, k int) []int {
	return chooseFromGroups(tx, identicalGroups(s, candidates), k)
}

func chooseFromGroups(tx *Tx, groups [][]int, k int) []int {
	rest := 0
	for _, g := range groups {
		rest += len(g)
	}
	var out []int
	for i, g := range groups {
		rest -= len(g)
		take := k
		if i < len(groups)-1 {
			lo, hi := max(0, k-rest), min(len(g), k)
			take = hi - tx.Choose(hi-lo+1)
		}
		out = append(out, g[:take]...)
		k -= take
	}
	return out
}
