package rsdiff

import (
	_ "unsafe" // go:linkname

	v1 "k8s.io/api/core/v1"

	// The ReplicaSet controller: getPodsToDelete below is its code.
	_ "k8s.io/kubernetes/pkg/controller/replicaset"
)

// getPodsToDelete is the ReplicaSet controller's own getPodsToDelete
// (pkg/controller/replicaset/replica_set.go, v1.36.3), reached by
// go:linkname because it is unexported: for diff < len(filteredPods) it
// ranks filteredPods with getPodsRankedByRelatedPodsOnSameNode (the rank of
// a pod is the number of active relatedPods on its node) and sorts them by
// controller.ActivePodsWithRanks (sort.Sort, not stable), then returns the
// first diff. It sorts filteredPods in place.
//
//go:linkname getPodsToDelete k8s.io/kubernetes/pkg/controller/replicaset.getPodsToDelete
func getPodsToDelete(filteredPods, relatedPods []*v1.Pod, diff int) []*v1.Pod
