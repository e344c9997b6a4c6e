// Package cases generates Kivi's eight built-in cases C1..C8
// (Kivi's case definitions) as model.Clusters: the original topology at a
// scale s (the -s option, default 3), its no-violation variant (-cn), and
// the scaling-search bounds of its "Scaling template".
//
// The generators reproduce Kivi's case generator field by field, in our
// terms:
//
//   - Kivi's nodes carry free resources (cpuLeft) and a pod count; our
//     model derives free resources from the pods' requests, so a node is
//     its capacity (64) with its initial pods, plus a reservation for
//     load the model does not track (C5's small nodes).
//   - Kivi names every object by a running id (nodes 1..N, then pods, then
//     the deployment); node and deployment names keep those numbers, so
//     traces read as Kivi's do ("{Id 10, index 1}"). Kivi's idle pod
//     slots become Cluster.PodSlots.
//   - Settings are written the Kubernetes way: whenUnsatisfiable
//     DoNotSchedule/ScheduleAnyway, node affinity as selectors over node
//     labels, taints as {key, value, effect}, the descheduler's profiles
//     by plugin name.
//   - Node types appear in order of first appearance and only if the
//     original topology has a node of that type, as Kivi's template
//     generator derives them (so C7 at scale 1 has one node type).
//
// Every difference from Kivi's generated configuration is listed in
// docs/divergences.md ("Built-in cases and case files").
package cases
