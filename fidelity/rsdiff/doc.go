// Package rsdiff is a differential test of the deletion ranking of Kivi's
// ReplicaSet model (controllers/deployment, victims.go: which active pods a
// scale-down deletes) against kube-controller-manager v1.36's ReplicaSet
// controller, run in process.
//
// A Case is one scale-down: pods of one deployment in one or two
// ReplicaSets (the victim set, whose template is the deployment's, and a
// sibling set of another revision), unbound or on one of 1–3 nodes,
// Pending or Running, plus pods of an unrelated deployment, and the number
// of victim-set pods to delete. The model's answer is every successor of
// the deployment controller's Step on the Case's model.State, enumerated
// with model.Tx as the System does (the model branches over pods of tied
// rank; identical pods are one choice). Upstream's answer is the
// ReplicaSet controller's own getPodsToDelete (reached by go:linkname,
// upstream.go), which ranks by controller.ActivePodsWithRanks; the glue
// around it is restated here: the candidates are the victim set's active
// pods and the related pods every active pod of the deployment
// (getIndirectlyRelatedPods), listed in a random order (the informer's).
//
// Upstream breaks the model's ties with readiness time, restart counts,
// creation time and deletion cost, which the model does not track. The
// comparison runs both ways:
//
//   - tied: every pod has equal values for those keys (the same creation
//     and readiness time, no restarts, no deletion cost), so upstream's
//     pick among tied pods is its sort's and the listing order's; the set
//     it deletes must be one of the model's branches, up to pods the model
//     holds identical (equal model.PodState);
//   - steered: for every model branch, its pods get one container restart
//     (ActivePodsWithRanks' 7th key, after the ranks the model follows),
//     and upstream must then delete exactly that branch: each branch is a
//     set upstream deletes under some values of the untracked keys.
//
// A disagreement must belong to a known Class (classify.go) whose
// counterfactual removes it; the classes are written up in
// docs/divergences.md ("ReplicaSet deletion ranking against
// kube-controller-manager v1.36"). An unexplained one fails the test.
package rsdiff
