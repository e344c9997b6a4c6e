// Package descheduler models sigs.k8s.io/descheduler (v0.36) at Kivi's level
// of abstraction: one descheduling cycle per step, fired when the core
// controllers are quiescent after a pod started or was removed. A cycle
// runs, as upstream's runProfiles does, every profile's Deschedule plugins
// (deschedule.go) and then every profile's Balance plugins, all under one
// set of eviction limits. The Deschedule plugins look at pods one by one,
// node by node:
//
//   - RemovePodsViolatingNodeTaints evicts pods that do not tolerate a
//     NoSchedule (optionally PreferNoSchedule) taint of their node
//     (nodetaints.go);
//   - RemovePodsViolatingNodeAffinity evicts pods whose node fails their
//     required node affinity, or that some node would suit better by
//     their preferred node affinity (nodeaffinity.go);
//   - RemovePodsViolatingInterPodAntiAffinity evicts pods whose required
//     anti-affinity matches another pod of their domain
//     (podantiaffinity.go);
//   - RemoveFailedPods evicts (deletes) Failed pods (failedpods.go), and
//     PodLifeTime pods older than a limit or in given states
//     (podlifetime.go); what the model cannot know of a pod (its age, a
//     Failed pod's reason) is branched over (unknownage.go).
//
// Their evictions go through the evictor's limits as they are decided and
// are carried out owner by owner when the plugin (or pass) ends. The
// Balance plugins, in order:
//
//   - RemoveDuplicates spreads the pods of one ReplicaSet over the nodes
//     they may land on (removeduplicates.go);
//   - RemovePodsViolatingTopologySpreadConstraint evicts pods from topology
//     domains above the ideal average until every selected constraint is
//     within its maxSkew (topologyspread.go, balancedomains.go);
//   - LowNodeUtilization evicts pods from nodes above their target
//     utilisation while the underutilised nodes have headroom, and
//     HighNodeUtilization evicts pods from underutilised nodes while the
//     others have room (lownodeutilization.go, highnodeutilization.go,
//     nodeutilization.go); utilisation is the pods' requests against
//     allocatable.
//
// The plugins only plan: they return the pods to evict with the reason,
// and the cycle hands the plan to the DefaultEvictor (evictor.go), which
// applies the per-cycle limits and turns a pod Terminating for the
// kubelet. Planning is pure, so Explain can show what a cycle would decide.
//
// Kivi's descheduler mirrors v0.27 with several bugs; where it differs
// from v0.36 this package follows v0.36, and every such choice is listed
// in docs/divergences.md ("Descheduler"). Where upstream leaves an order to Go
// map iteration or the informer cache, the package either branches or
// fixes an order. Which pods go among pods its sort keys tie (which
// duplicates of a node, which pods of a domain) is a choice point over the
// distinct pods (ties.go: identical pods are one choice, choice 0 takes
// the lowest slots), so that the outcome does not depend on pod slots and
// reduction/symmetry may permute them. Where the order of nodes decides
// what goes (a disruption budget or a total or namespace eviction limit
// running out among them, a pod evicted on one node sparing a conflicting
// pod on another), the walk branches over the next node, one per orbit
// (budgetorder.go); elsewhere owners, nodes and domains go in a fixed
// order (owner key, node index, label value id), and evictions reach the
// kubelet queue owner by owner.
//
// The package therefore declares no symmetry fact (model.SymmetryBreaker):
//   - RemoveDuplicates and the deschedule plugins walk the Ready nodes
//     (an owner's nodes, for RemoveDuplicates) one at a time. Without a
//     budget or a total or namespace limit every node's evictions depend
//     on that node alone (the per-node limit is per node) and the order
//     only changes trace lines; with one, the walk branches as above, and
//     over which of a node's pods a budget lets through
//     (model.Tx.ThroughFirst).
//   - RemovePodsViolatingInterPodAntiAffinity strikes an evicted pod from
//     its list, so over a key several nodes share a value of, the node
//     visited first spares the pods of the other: the walk branches there
//     too (podantiaffinity.go, walkState), and picks a node's pods one at
//     a time, branching where a budget can run out among them.
//   - Tied pods a plugin plans to evict are a choice by content, and where
//     a per-node, namespace or total limit can cut a run of evictions
//     short the plugin branches over which pods of the run come first
//     (evictor.go, inLimitOrder), as upstream sends them in informer or
//     map order: which pods go never depends on their slots.
//   - LowNodeUtilization and HighNodeUtilization branch over which of the
//     equally used source nodes comes next (orbits merged) and over every
//     set of a node's pods some walk order evicts, cut to the limits
//     before it is chosen (nodeutilization.go); node indices only order
//     the choices, and pods are counted by identical groups. Kivi's
//     tie-break (node index order, the slot-order walk) switches symmetry
//     off anyway.
package descheduler
