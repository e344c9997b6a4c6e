package model

// queueDeploymentsOutOfSync queues, for the Deployment controller, every
// created deployment whose initial pods do not number its ReplicaSets'
// replicas or that is in the middle of a rollout (an older ReplicaSet
// with replicas, DeploymentDecl.OldReplicaSet), and every created Job
// that is not finished (a StatefulSet's pods are compared with its own
// replicas). The controllers list every workload when they start and
// sync it: the Deployment controller goes on with a rollout, the
// ReplicaSet controller creates (or deletes) the pods that its
// ReplicaSet lacks (or has too many of), and the Job controller the pods
// its Job still wants (a Job's RS[0] counts no replicas). A deployment
// whose pods already match would sync to no change, so it is not queued.
func queueDeploymentsOutOfSync(u *Universe, s *State) {
	pods := make([][2]int, len(s.Deps))
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Active() && p.Owner > 0 {
			pods[p.Owner-1][p.RS&1]++
		}
	}
	for d := range s.Deps {
		ds := &s.Deps[d]
		if !ds.Active {
			continue
		}
		var outOfSync bool
		switch {
		case u.IsJob(d):
			outOfSync = !ds.JobFinished.Finished()
		case u.IsStatefulSet(d):
			// A StatefulSet has no ReplicaSet: its own spec.replicas.
			outOfSync = pods[d][0]+pods[d][1] != int(ds.Replicas)
		default:
			outOfSync = pods[d][0] != int(ds.RS[0].Replicas) || pods[d][1] != int(ds.RS[1].Replicas) || ds.RS[1].Replicas > 0
		}
		if outOfSync {
			s.Enqueue(DeploymentQueue, d)
		}
	}
}
