// Package pdbdiff is a differential test of Kivi's PodDisruptionBudgets
// (model/pdb.go, pdbsync.go: the disruption controller's status and the
// Eviction API's decision, which drain, the descheduler and the
// scheduler's preemption read) against kube-controller-manager v1.36's
// disruption controller and the API server's eviction subresource, run in
// process.
//
// A Case is a namespace or two of workloads (Deployments, one or two
// ReplicaSets of them holding pods, StatefulSets, Jobs and bare pods,
// spec.replicas 0–12), their pods in every phase, readiness and
// terminating mix the model holds, one to three budgets (a workload's
// pods, a tier of several workloads, every pod, or none; minAvailable or
// maxUnavailable as an integer or a percentage, or neither; either
// unhealthy-pod policy or none), and a sequence of evictions of bound
// pods. Three answers are compared:
//
//   - every budget's status: the model's Universe.Disruption against the
//     status the disruption controller's own sync writes (currentHealthy,
//     desiredHealthy, expectedPods, disruptionsAllowed, and whether the
//     sync failed);
//   - each pod evicted alone against those statuses: the model's
//     CheckEviction outcome and Reason against the eviction
//     subresource's answer (201, 429 or 500, and the 429's cause);
//   - the sequence, the model checking each eviction against the state
//     the ones before it left (as drain's round does), upstream either
//     with the controller resyncing every budget between evictions
//     (Case.Resync) or without, each eviction seeing the
//     disruptionsAllowed the decrements before it wrote (checkAndDecrement
//     and DisruptedPods).
//
// Upstream is the real code: the disruption controller built by
// NewDisruptionController over informer stores filled directly, its
// unexported sync reached by go:linkname, with a REST mapper, scale
// client and discovery that answer for Jobs as an API server does (no
// scale subresource); the eviction subresource is the pod registry's own
// EvictionREST over an in-memory pod store (package evictionapi) that
// keeps a deleted pod with a deletion timestamp, or removes it at once
// when it is terminal, as the pod strategy's graceful deletion does.
//
// A disagreement must belong to a known Class (classify.go) whose
// counterfactual removes it; the classes are written up in
// docs/divergences.md ("PodDisruptionBudgets against the disruption
// controller and the Eviction API"). An unexplained one fails the test.
package pdbdiff
