// Package stsdiff is a differential test of one sync of Kivi's
// StatefulSet controller (controllers/statefulset: Sync) against
// kube-controller-manager v1.36's StatefulSetController, run in process.
//
// A Case is a StatefulSet (replicas, spec.ordinals.start,
// podManagementPolicy OrderedReady or Parallel, updateStrategy
// RollingUpdate with a partition and sometimes maxUnavailable, or
// OnDelete), its ControllerRevisions with status.currentRevision and
// status.updateRevision (one revision; a rolling update in progress; a new
// template applied; a rollback; a third template), and its pods: ordinals
// in and out of range, each of a revision, Pending, Running (Ready, or
// in some cases not Ready) or Failed, some Terminating.
//
// Upstream's answer is the StatefulSetController of k8s.io/kubernetes
// v1.36.3 built by NewStatefulSetController over informer caches filled
// directly and a fake clientset holding the same objects; its unexported
// getPodsForStatefulSet and syncStatefulSet (reached by go:linkname: the
// body of its sync after the consistency store's check, which only
// decides whether a sync runs) run once, and the pods it creates (name and
// controller-revision-hash) and deletes are read from the clientset's
// actions. The MaxUnavailableStatefulSet feature gate (beta, off by
// default) is on exactly for the cases that give maxUnavailable, as the
// model assumes. The model's answer is Sync on the Case's model.State: the
// ordinals that appear (with their template) and the pods that begin
// terminating or go.
//
// Both sides must create the same ordinals at the same revisions and
// delete the same ordinals. A disagreement must belong to a known class
// (classify.go, with fidelity/classify) whose counterfactual removes it;
// the classes are written up in docs/divergences.md ("StatefulSet syncs
// against kube-controller-manager v1.36"). An unexplained one fails the
// test.
package stsdiff
