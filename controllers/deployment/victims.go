package deployment

import (
	"sort"

	"github.com/kivi-go/kivi/model"
)

// deletionRank is the sort key of one deletion candidate, after
// Kubernetes' ActivePodsWithRanks.Less (controller_utils.go, v1.36):
// unassigned before assigned, Pending before Running, not Ready before
// Ready (IsPodReady), then more co-located related pods first. The model
// has no pod ages, ready times, restart counts or deletion costs, so pods
// of equal rank
// are tied: rankForDeletion lists them by slot, and chooseVictims branches
// over which of them go (upstream prefers the newest pod; Kivi takes the
// lowest slot).
type deletionRank struct {
	slot       int
	bound      bool
	running    bool
	ready      bool
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
	if a.ready != b.ready {
		return !a.ready
	}
	if a.colocation != b.colocation {
		return a.colocation > b.colocation
	}
	return a.slot < b.slot
}

// tied reports whether a and b have equal rank: only the slot separates
// them, which stands for nothing Kubernetes compares.
func (a deletionRank) tied(b deletionRank) bool {
	return a.bound == b.bound && a.running == b.running && a.ready == b.ready && a.colocation == b.colocation
}

// rankForDeletion returns the active pods of slot rs of deployment d in
// deletion order. The co-location rank of a pod is the number of active
// pods of the whole deployment on its node (getIndirectlyRelatedPods:
// every ReplicaSet of the same owner; unbound pods share the node "").
func rankForDeletion(pods []model.PodState, d, rs int) []int {
	ranks := rankedCandidates(pods, d, rs)
	out := make([]int, len(ranks))
	for i, r := range ranks {
		out[i] = r.slot
	}
	return out
}

// chooseVictims returns n active pods of slot rs of deployment d to delete:
// every pod ranked strictly before the n-th one, and from the pods tied
// with the n-th one as many as are still needed, branching over which
// (model.Tx.ChoosePods: identical pods are one choice). The victims come out
// in rank order, the tied ones last.
func chooseVictims(tx *model.Tx, s *model.State, d, rs, n int) []int {
	ranks := rankedCandidates(s.Pods, d, rs)
	if n >= len(ranks) {
		n = len(ranks)
	}
	if n == 0 {
		return nil
	}
	lo, hi := n-1, n
	for lo > 0 && ranks[lo-1].tied(ranks[n-1]) {
		lo--
	}
	for hi < len(ranks) && ranks[hi].tied(ranks[n-1]) {
		hi++
	}
	out := make([]int, 0, n)
	for _, r := range ranks[:lo] {
		out = append(out, r.slot)
	}
	tied := make([]int, 0, hi-lo)
	for _, r := range ranks[lo:hi] {
		tied = append(tied, r.slot)
	}
	return append(out, tx.ChoosePods(s, tied, n-lo)...)
}

// rankedCandidates ranks the active pods of slot rs of deployment d.
func rankedCandidates(pods []model.PodState, d, rs int) []deletionRank {
	owner := uint8(d + 1)
	// onNode counts the owner's active pods by node value (0 = unbound).
	var small [256]int
	onNode := small[:]
	for i := range pods {
		if p := &pods[i]; p.Owner == owner && p.Active() {
			if int(p.Node) >= len(onNode) {
				onNode = append(onNode, make([]int, int(p.Node)+1-len(onNode))...)
			}
			onNode[p.Node]++
		}
	}
	var ranks []deletionRank
	for i := range pods {
		p := &pods[i]
		if p.Owner != owner || int(p.RS) != rs || !p.Active() {
			continue
		}
		ranks = append(ranks, deletionRank{slot: i, bound: p.Node != 0, running: p.Phase == model.Running, ready: p.Ready(),
			colocation: onNode[p.Node]})
	}
	sort.SliceStable(ranks, func(i, j int) bool { return ranks[i].before(ranks[j]) })
	return ranks
}
