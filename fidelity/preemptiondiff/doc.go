// Package preemptiondiff is a differential test of the scheduler model's
// DefaultPreemption (controllers/scheduler, preemption.go) against
// kube-scheduler v1.36's own plugin
// (pkg/scheduler/framework/plugins/defaultpreemption and
// pkg/scheduler/framework/preemption), run in process on the default
// profile's framework (fidelity/scheddiff) as its handle.
//
// A Snapshot is a small cluster (2–6 nodes; Deployments of 2–4
// priorities with Running pods, sometimes one terminating;
// PodDisruptionBudgets; sometimes pending pods nominated to nodes) and
// one pending pod, sometimes nominated itself, that mostly fits no node.
// The framework's PodNominator is kube-scheduler's scheduling queue
// holding the pending pods. The real side runs the scheduling cycle's
// Filter phase (the pod's nominated node first, then every node, each
// through RunFilterPluginsWithNominatedPods), then the plugin's
// eligibility check, its dry run (Evaluator.DryRunPreemption, which calls
// SelectVictimsOnNode on every potential node) and its choice
// (Evaluator.SelectCandidate, that is pickOneNodeForPreemption) under
// several assignments of start times to the pods, with budget statuses
// the disruption controller's own sync wrote. The model's side is every
// branch of one scheduler step. Both answers are compared: whether the
// pod fits and then that the model binds it to a node the real cycle may
// choose, whether preemption is possible (and otherwise the FitError
// message), and, when it is, that each real outcome (node and victims,
// up to pods the model holds identical) is one of the model's branches.
// Every disagreement must belong to a known class (classify.go) whose
// counterfactual removes it, else the test fails with rapid's minimal
// snapshot. Results are in docs/divergences.md
// ("Preemption against kube-scheduler v1.36").
package preemptiondiff
