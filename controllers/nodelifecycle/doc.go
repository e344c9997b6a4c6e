// Package nodelifecycle holds the two controllers of Kubernetes' node
// lifecycle that the model keeps:
//
//   - NodeController (Kivi's node controller, Kivi's controller models):
//     every pod bound to a node that is not Ready is evicted, with no grace
//     period, no not-ready/unreachable taints and no rate limiting.
//   - TaintManager (Kivi's taint manager process): a Running pod on a node
//     with a NoExecute taint it does not tolerate is evicted. Node taints
//     never change in the model, so checking each pod once when it starts
//     is enough.
//
// Evictions mark the pod Terminating and hand it to the kubelet, which
// removes it; they are reported with model.MarkEvicted. Differences from
// Kivi are listed in docs/divergences.md ("Divergences: workload controllers").
package nodelifecycle
