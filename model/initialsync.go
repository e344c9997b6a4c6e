package model

// queueDeploymentsOutOfSync queues, for the Deployment controller, every
// created deployment whose initial pods do not number its replicas. The
// controller lists every Deployment when it starts and syncs it, and the
// ReplicaSet controller then creates (or deletes) the pods that its
// ReplicaSet lacks (or has too many of); a deployment whose pods already
// match would sync to no change, so it is not queued.
func queueDeploymentsOutOfSync(s *State) {
	pods := make([]int, len(s.Deps))
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Active() && p.Owner > 0 {
			pods[p.Owner-1]++
		}
	}
	for d := range s.Deps {
		if ds := &s.Deps[d]; ds.Active && pods[d] != int(ds.RS[0].Replicas) {
			s.Enqueue(DeploymentQueue, d)
		}
	}
}
