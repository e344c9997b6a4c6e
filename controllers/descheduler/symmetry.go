package descheduler

import "github.com/kivi-go/kivi/model"

var _ model.SymmetryBreaker = (*Controller)(nil)

// SymmetryFacts of the descheduler: none, for these reasons:
//   - RemoveDuplicates and the deschedule plugins walk the Ready nodes
//     (an owner's nodes, for RemoveDuplicates) one at a time. Without a
//     disruption budget or a total or namespace eviction limit every
//     node's evictions depend on that node alone (the per-node limit is
//     per node) and the order only changes trace lines. A budget or one
//     of those limits couples the nodes: the walk then branches over the
//     order upstream may take, one node per orbit (budgetorder.go), and
//     over which of a node's pods a budget lets through
//     (model.Tx.ThroughFirst; RemovePodsViolatingInterPodAntiAffinity
//     picks a node's pods one at a time and branches over each pick where
//     a budget can run out among them, podantiaffinity.go), so neither
//     needs a fact.
//   - RemovePodsViolatingInterPodAntiAffinity also strikes an evicted pod
//     from its list, so when a template's required anti-affinity term has
//     a key two nodes share a value of, a pod evicted on the node visited
//     first spares the pods of the other: there the walk branches over
//     which node comes next, one per orbit (podantiaffinity.go, coupled).
//   - It branches over which tied pods it plans to evict, and where a
//     per-node, namespace or total limit can cut a run of evictions short
//     it branches over which pods of the run come first, by content
//     (evictor.go, inLimitOrder), as upstream sends them in informer or
//     map order: which pods go never depends on their slots, so the
//     limits need no pod fact.
//   - LowNodeUtilization and HighNodeUtilization need no fact of their
//     own: they branch over which of the equally used source nodes comes
//     next (orbits merged) and over every set of a node's pods some walk
//     order evicts, cut to the limits before it is chosen
//     (nodeutilization.go); node indices only order the choices, and pods
//     are counted by identical groups. Kivi's tie-break (node index order,
//     the slot-order walk) switches symmetry off anyway.
func (*Controller) SymmetryFacts(u *model.Universe) []model.SymmetryFact {
	return nil
}
