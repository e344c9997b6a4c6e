// Package evictiondiff measures the kubelet's eviction manager model
// (controllers/kubelet evictionmanager.go, model/kubeletconfig.go and
// memorypressure.go) against the real one, k8s.io/kubernetes
// pkg/kubelet/eviction v1.36, driven as a whole through its exported
// API: eviction.NewManager with a fake summary provider, a fake clock and
// a capturing killPodFunc, its thresholds from eviction.ParseThresholdConfig,
// and Manager.Start, whose housekeeping loop runs one synchronize per
// summary the driver hands it (the provider's Get is the handshake).
//
// A case is one node (memory capacity, kube- and system-reserved), a
// kubelet configuration (evictionHard, evictionSoft with its grace
// period, evictionMinimumReclaim for memory.available) and running pods
// (memory requests, limits, priorities, usage). Both sides run until the
// node settles; compared are the pods evicted, in order (the model's
// ties are choices: upstream's pick must be one of them), and whether
// the node ever reported the MemoryPressure condition. Disagreements are
// named by classes (classify.go).
package evictiondiff
