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
// reduction/symmetry may permute them. The order of owners, nodes and domains
// is fixed (owner key, node index, label value id), and evictions reach
// the kubelet queue owner by owner.
package descheduler
