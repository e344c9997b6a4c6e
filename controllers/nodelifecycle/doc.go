// Package nodelifecycle holds the two controllers of Kubernetes' node
// lifecycle that the model keeps:
//
//   - NodeController (Kivi's node controller):
//     under Kubernetes' lifecycle it taints a node that is not Ready
//     not-ready or unreachable (NoExecute) and evicts the pods that do not
//     tolerate the taint, queuing those that tolerate it for a while for
//     the taint manager (tolerationseconds.go), unless the zone states
//     hold the taint back (a small zone in a partial disruption, every
//     zone fully disrupted: zones.go); under Kivi's lifecycle
//     (model.Options.KiviLifecycle) it evicts every pod of the node at
//     once, with no grace period and no rate limiting.
//   - TaintManager (Kivi's taint manager process; upstream's
//     taint-eviction-controller): a pod on a node with a NoExecute taint
//     it does not tolerate, or tolerates only for tolerationSeconds, is
//     evicted. The kubelet queues every pod it starts on a tainted node,
//     and a node's own taints never change, so checking each pod once
//     when it starts is enough for them.
//
// Evictions mark the pod Terminating and hand it to the kubelet, which
// removes it; they are reported with model.MarkEvicted. Differences from
// Kivi are listed in docs/divergences.md ("Node lifecycle and taint manager").
package nodelifecycle
