// Package scheddiff is a differential test of Kivi's scheduler model
// (controllers/scheduler) against kube-scheduler v1.36's framework with
// the default profile (every default plugin at its default weight), run
// in process.
//
// A Snapshot is one scheduling question in the features the model covers
// (nodes with labels, taints, allocatable resources, extended resources
// such as nvidia.com/gpu in a third of the snapshots, and readiness: a
// node that is not Ready carries the node lifecycle controller's taints
// of its Ready condition, False or Unknown, its NoExecute taint placed or
// held back by the zone states (nodedown.go); bound
// pods with requests and inter-pod affinity; a pending pod with requests,
// nodeSelector, node affinity, tolerations, topology spread constraints
// and inter-pod affinity). It is translated
// to API objects for the real framework (api.go, real.go) and to a
// model.Universe and model.State for the model (snapshot.go); the two
// answers compared are the feasible nodes and the top-scoring nodes.
//
// Every disagreement must belong to a known Class (classify.go): a cause
// with a counterfactual that removes it, such that the answers then agree.
// The classes are written up in docs/divergences.md ("Measured against
// kube-scheduler v1.36"); a disagreement no class explains fails the test.
//
// Trace replay (replay.go, replay_test.go) asks the real framework every
// scheduling decision of the model's counterexamples (C1..C8, the
// example case files and the incident library), and of random runs of
// the incidents, the worked example and the realistic shapes
// (replay_walk_test.go). A model state is translated by StateToAPI, which
// shares the node and pod-spec translation with ToAPI and is checked
// against it on random snapshots. A placement must be among the real
// top-scoring nodes, "no feasible node" must be the real Filter phase
// rejecting every node; a replayed decision that disagrees must belong to
// one of the known classes, judged by the same counterfactuals
// (Replayer.Judge), or the test fails.
package scheddiff
