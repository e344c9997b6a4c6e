// Package kubelet is the model's kubelet: one process that plays the
// kubelets of every node, reduced to the two transitions the control plane
// can observe — a bound Pending pod starts (Running), and a Terminating pod
// is removed (its slot becomes Free).
//
// Behaviour follows Kivi's kubelet with the counters
// derived instead of stored; the differences are listed in
// docs/divergences.md ("Pod lifecycle and kubelet"). Starting and removing are instantaneous:
// no container runtime, readiness probes or grace periods, so a Running pod
// is a ready replica.
package kubelet
