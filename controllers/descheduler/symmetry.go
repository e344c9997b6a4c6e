package descheduler

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

var _ model.SymmetryBreaker = (*Controller)(nil)

// SymmetryFacts of the descheduler:
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
//     a key two nodes share a value of, a pod evicted on a lower-index
//     node spares the pods of a higher one: the walk order decides.
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
	d := u.Descheduler
	if d == nil {
		return nil
	}
	var out []model.SymmetryFact
	if f, ok := antiAffinityNodeWalk(u); ok {
		out = append(out, f)
	}
	return out
}

// antiAffinityNodeWalk is the fact of a RemovePodsViolatingInterPodAntiAffinity
// whose domains span nodes: some template's required anti-affinity term
// has a key with the same value on two nodes.
func antiAffinityNodeWalk(u *model.Universe) (model.SymmetryFact, bool) {
	enabled := false
	for _, p := range u.Descheduler.Profiles {
		enabled = enabled || p.Deschedule.Has(model.RemovePodsViolatingInterPodAntiAffinity)
	}
	if !enabled {
		return model.SymmetryFact{}, false
	}
	for t := range u.Templates {
		for _, k := range u.Templates[t].PodAntiAffinity {
			seen := map[model.ValueID]bool{}
			for n := range u.Nodes {
				v := u.Nodes[n].LabelSet.Get(k.Key)
				if v != 0 && seen[v] {
					return model.SymmetryFact{Rule: "DeschedulerAntiAffinityNodeWalk", NodesInIndexOrder: true, Reason: fmt.Sprintf(
						"RemovePodsViolatingInterPodAntiAffinity walks nodes in index order and template %q's anti-affinity key %s spans nodes",
						u.Templates[t].Name, k.TopologyKey)}, true
				}
				seen[v] = true
			}
		}
	}
	return model.SymmetryFact{}, false
}
