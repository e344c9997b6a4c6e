// Package jobdiff is a differential test of one sync of Kivi's Job
// controller (controllers/job: Sync) against kube-controller-manager
// v1.36's Job controller, run in process.
//
// A Case is a NonIndexed Job (parallelism 0..5, completions unset or
// 0..6, backoffLimit 0..3, sometimes suspended), the pods that finished
// and are gone (status.succeeded and status.failed), and its pods:
// Pending, Running, Succeeded or Failed, some of them Terminating. A
// finished pod is in one of the three stages of upstream's tracking with
// finalizers: new (it still has the batch.kubernetes.io/job-tracking
// finalizer and is in no count), uncounted (its UID is in
// status.uncountedTerminatedPods: a previous sync saw it, its finalizer
// is still on) or counted (its finalizer is gone and status.succeeded or
// status.failed includes it). The model has no such stages: it counts a
// pod's success when the pod completes and frees its slot, and counts a
// Failed or Terminating pod from the pod itself until it is gone
// (model.CountJob), so each stage maps to the same model state.
//
// Upstream's answer is the Job controller of k8s.io/kubernetes v1.36.3
// built by newControllerWithClock over informer caches filled directly
// and a fake clientset holding the same objects, with a fake clock; its
// unexported syncJob (reached by go:linkname) runs once. One sync is
// enough: syncJob adds the finished pods it has not counted yet to its
// counts before it decides anything (getNewFinishedPods), and counts them
// in the status and removes their finalizers within the same sync
// (trackJobStatusAndRemoveFinalizers), so a second sync would find
// nothing more to record. The pods it creates and deletes are read from
// the clientset's actions, the Job's conditions and counters from the Job
// it wrote. The model's answer is Sync on the Case's model.State.
//
// A Case may have a podFailurePolicy (rules on exit codes, on
// DisruptionTarget, or on a condition no pod has) or podReplacementPolicy
// Failed, and its failed pods exit codes and the DisruptionTarget
// condition; a Failed pod whose containers ran, or a deleted one, is gone
// in the model, its outcome applied by model.ForgetJobPod with the choice
// upstream's exit code gives (Case.gone).
//
// TestDifferentialIndexed draws Indexed Jobs (indexed_test.go), with
// backoffLimitPerIndex, maxFailedIndexes and FailIndex rules; their pods
// carry a completion index and a failure-count annotation, and both
// sides must also create the same indexes and write the same
// status.failedIndexes.
//
// Both sides must create as many pods, delete the same pods, reach the
// same finished condition (Complete, Failed or none) and the same
// succeeded and failed counts. A disagreement must belong to a known
// class (classify.go, with fidelity/classify) whose counterfactual
// removes it; the classes are written up in docs/divergences.md ("Jobs
// against kube-controller-manager v1.36"). An unexplained one fails the
// test.
package jobdiff
