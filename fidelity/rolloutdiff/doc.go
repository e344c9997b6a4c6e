// Package rolloutdiff is a differential test of one sync of Kivi's
// Deployment model (controllers/deployment: ScaleReplicaSets, the
// ReplicaSet specs and annotations a sync writes) against
// kube-controller-manager v1.36's DeploymentController, run in process.
//
// A Case is a Deployment in the middle of a rollout: two ReplicaSets of
// two pod templates with replicas (Pending and Running pods), the
// deployment.kubernetes.io/desired-replicas and max-replicas annotations
// the controller wrote at its last scale, the strategy (RollingUpdate
// with maxSurge and maxUnavailable as integers or percentages, or
// Recreate), which set is the older (a rollback makes the older one
// current again), and a spec.replicas that may differ from the
// annotation (a scaling event: an HPA or kubectl scale in the middle of
// the rollout). Sometimes neither set has the deployment's template (a
// third revision applied). One case in four is paused (spec.paused): the
// sync then scales the sets there are and creates none; a paused case may
// have no set at all, one set of an older template, a saturated new set
// or only inactive sets. Upstream's answer is the DeploymentController
// of k8s.io/kubernetes v1.36.3 built by NewDeploymentController over
// informer caches filled directly and a fake clientset holding the same
// objects; its unexported syncDeployment (reached by go:linkname) runs
// once and the ReplicaSets are read back from the clientset. The model's
// answer is ScaleReplicaSets on the Case's model.State.
//
// Both sides must give every ReplicaSet the same replicas, and every
// ReplicaSet that is active afterwards the same annotations. A
// disagreement must belong to a known Class (classify.go) whose
// counterfactual removes it; the classes are written up in
// docs/divergences.md ("Deployment rollouts against
// kube-controller-manager v1.36"). An unexplained one fails the test.
package rolloutdiff
