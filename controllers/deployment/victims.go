package deployment

import (
	"sort"

	"github.com/kivi-go/kivi/model"
)

// deletionRank is the sort key of one deletion candidate, after
// Kubernetes' ActivePodsWithRanks.Less (controller_utils.go, v1.36):
// unassigned before assigned, Pending before Running (Running pods are
// the ready ones), then more co-located related pods first. The model
// has no pod ages, restart counts or deletion costs, so remaining ties go
// to the lowest slot, Kivi's tie-break (upstream prefers the newest pod).
type deletionRank struct {
	slot       int
	bound      bool
	running    bool
	colocation int
}

// before reports whether a is deleted before b.
func (a deletionRank) before(b deletionRank) bool {
	if a.bound != b.bound {
		return !a.bound
	}
	if a.running != b.running {
		return !a.running
	}
	if a.colocation != b.colocation {
		return a.colocation > b.colocation
	}
	return a.slot < b.slot
}

// rankForDeletion returns the active pods of slot rs of deployment d in
// deletion order. The co-location rank of a pod is the number of active
// pods of the whole deployment on its node (getIndirectlyRelatedPods:
// every ReplicaSet of the same owner; unbound pods share the node "").
func rankForDeletion(pods []model.PodState, d, rs int) []int {
	owner := uint8(d + 1)
	var onNode [256]int
	for i := range pods {
		if p := &pods[i]; p.Owner == owner && p.Active() {
			onNode[p.Node]++
		}
	}
	var ranks []deletionRank
	for i := range pods {
		p := &pods[i]
		if p.Owner != owner || int(p.RS) != rs || !p.Active() {
			continue
		}
		ranks = append(ranks, deletionRank{slot: i, bound: p.Node != 0, running: p.Phase == model.Running,
			colocation: onNode[p.Node]})
	}
	sort.SliceStable(ranks, func(i, j int) bool { return ranks[i].before(ranks[j]) })
	out := make([]int, len(ranks))
	for i, r := range ranks {
		out[i] = r.slot
	}
	return out
}
