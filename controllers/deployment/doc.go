// Package deployment is the model's Deployment controller merged with the
// ReplicaSet controller (Kivi's deploymentController, Kivi's controller models):
// one process that serves every deployment.
//
// Per queued deployment it does what Kubernetes' controllers do together
// (pkg/controller/deployment and pkg/controller/replicaset, v1.36):
//
//   - find the ReplicaSet whose template is the deployment's current pod
//     template (revision.go), creating one on a template change;
//   - on a scaling event (spec.replicas differs from the desired-replicas
//     annotation of the active sets) scale instead of rolling out: the
//     only active set to spec, or every active set of a RollingUpdate
//     deployment in proportion to its size (proportional.go);
//   - roll out: RollingUpdate follows reconcileNewReplicaSet /
//     reconcileOldReplicaSets with maxSurge and maxUnavailable
//     (rolling.go), Recreate scales the old sets to zero, waits until no
//     old pod exists and then scales the new set up (recreate.go); without
//     a template change both reduce to scaling the current set to spec;
//   - reconcile every ReplicaSet's pods with its spec replicas
//     (replicaset.go): create pods in the lowest free slots, or delete the
//     pods ranked first by ActivePodsWithRanks (victims.go).
//
// A deployment has two ReplicaSet slots, so at most two revisions exist at
// once; a third template merges the two older revisions into one old set
// (revision.go). Kivi's controller works on counters and has no working
// rollout; the differences are listed in docs/divergences.md ("ReplicaSet and Deployment controllers").
package deployment
