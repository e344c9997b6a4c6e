// Package podgcdiff is a differential test of Kivi's deletion of a Node
// object (model.DeleteNodeObject, the deleteNode event) and of the pod
// garbage collector's step that collects its pods afterwards
// (controllers/podgc, Orphaned) against
// kube-controller-manager v1.36's pod garbage collector, run in process:
// its gcOrphaned pass, which force-deletes the pods bound to a node that
// no longer exists, after marking those not yet terminal Failed with the
// DisruptionTarget condition.
//
// A Case is 1–4 nodes, some of them deleted, and 0–8 pods, each bound to
// one of them or to none, Pending, Running, Terminating or Failed, each
// the one pod of its own Job. Two answers are compared for every pod:
//
//   - whether it is deleted;
//   - whether the deletion counts as a failure of its Job under a
//     podFailurePolicy whose one rule ignores the DisruptionTarget
//     condition: upstream, whether the pod the collector deleted had the
//     condition (the collector's status patch added it, or it had none);
//     in the model, whether the Job's failure count grew.
//
// Upstream's collector waits out a 40 s quarantine before it believes a
// node deleted and runs every 20 s. TestDifferential sets the quarantine
// to 0 and makes one pass, the moment the model's collection steps stand
// for. TestWindow runs the window: a 300 ms quarantine, a first pass
// (which must delete nothing, as the model's deletion step deletes no
// pod), and a pass after the quarantine, which must collect the pods of
// exactly the nodes whose collector the model enables, with the model's
// fates (docs/divergences.md, "kubectl delete node").
//
// Run: cd fidelity && go test -v ./podgcdiff/ [-rapid.checks N].
package podgcdiff
