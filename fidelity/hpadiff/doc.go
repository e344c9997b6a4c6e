// Package hpadiff is a differential test of Kivi's HPA model
// (controllers/hpa) against kube-controller-manager v1.36's horizontal pod
// autoscaler (k8s.io/kubernetes/pkg/controller/podautoscaler), run in
// process.
//
// A Case is one HPA evaluation of a CPU Utilization target in the
// features the model covers: the current replica count, minReplicas and
// maxReplicas, the target, the tolerance, the pods (Running and ready with
// a metric sample, Pending, terminating, Running but not ready, Running
// without a sample, each with its CPU request and usage) and the
// downscale stabilisation memory (earlier recommendations with their age
// in sync periods).
//
// Two comparisons are made (real.go, model.go):
//
//   - Calculation: the model's replica calculator
//     (hpa.UtilizationReplicas, with the pods grouped into ready, unready
//     and missing as upstream's groupPods does) against upstream's
//     ReplicaCalculator.GetResourceReplicas, fed by a fake metrics client
//     and a fake pod lister. The answer is the proposed replica count, or
//     an error / an invalid proposal. No disagreement is tolerated.
//
//   - Evaluation: the model's whole evaluation (hpa.Recommend over a
//     model.State: its own pod grouping, the entry cases, the
//     stabilisation window and the legacy normalisation) against
//     GetResourceReplicas followed by upstream's normalizeDesiredReplicas
//     (stabilizeRecommendation and convertDesiredReplicasWithRules),
//     called in process on a HorizontalController whose recommendation
//     memory is seeded with the case's. reconcileAutoscaler's entry cases
//     (0 replicas, above max, below min) are transcribed, since they sit
//     inside reconcileAutoscaler with the API calls. The answer is the
//     desired replica count.
//
//   - Behavior (behavior.go): histories of an HPA with spec.behavior
//     (random windows, policies and selectPolicy, proposals and sync
//     periods passing) through the model's hpa.NormalizeWithBehavior,
//     RecordRecommendation, StoreScaleEvent and AdvanceBehavior against
//     upstream's normalizeDesiredReplicasWithBehaviors, storeScaleEvent and
//     recordInitialRecommendation on one HorizontalController, whose
//     remembered timestamps move 15 s into the past for each period. The
//     answer is the desired count of every evaluation; no disagreement is
//     tolerated. TestTolerance checks a behavior's tolerance quantity
//     against tolerancesForHpa's float.
//
// Every disagreement must belong to a known Class (classify.go): a cause
// with a counterfactual that removes it, such that the answers then agree.
// The classes are written up in docs/divergences.md ("HPA replica
// calculation against kube-controller-manager v1.36"); a disagreement no
// class explains fails the test.
//
// Upstream's Tolerances has unexported fields and normalizeDesiredReplicas
// is an unexported method: real.go builds the former with an unsafe
// conversion from a struct of the same layout (checked at start) and
// reaches the latter with go:linkname, as behavior.go reaches
// normalizeDesiredReplicasWithBehaviors and storeScaleEvent.
package hpadiff
