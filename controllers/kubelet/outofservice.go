package kubelet

// podGCComponent names the pod garbage collector in trace lines, as
// controllers/podgc does (this package imports only model).
const podGCComponent = "pod-garbage-collector-controller"

// A Terminating pod on a node that is not Ready and carries the
// node.kubernetes.io/out-of-service taint is force-deleted by the pod
// garbage collector (gcTerminating, every 20 s upstream). The model has
// no clock and lets the kubelet's step remove it, as it removes any pod
// whose deletion nothing holds back (model.ForceDeletedOutOfService),
// with the collector's trace line: no step of its own, the same state.
