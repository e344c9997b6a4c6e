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
// The comparisons (real.go, model.go, behavior.go, ambiguous.go,
// overlap.go):
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
//   - AmbiguousSelector (ambiguous.go): a namespace of 2..4 Deployments
//     whose selectors may select each other's pods (labels and
//     selectors drawn from a small alphabet, matchExpressions included),
//     1..4 HPAs on them (some sharing a target) and the pods that exist
//     (Running, Pending or Terminating). The model reads the case as a
//     running cluster's dump (manifest.LoadStream, Cluster.Build) and
//     answers, per HPA, hpa.AmbiguousNow and the counts its HPA step
//     leaves; upstream runs validateAndParseSelector (go:linkname) on a
//     HorizontalController whose hpaSelectors registry holds every HPA's
//     target selector (every HPA has synced once) and whose pod lister
//     holds the pods, and an ambiguous or out-of-range HPA's outcome is
//     reconcileAutoscaler's entry case. The decisions are compared
//     everywhere, the outcomes where no HPA of the workload would read
//     its metrics; the known classes are AmbClasses.
//
//   - Selected pods (overlap.go): a namespace drawn as for
//     AmbiguousSelector, each Deployment with one container (its name and
//     its CPU and memory requests, some missing) and pods Ready, not
//     Ready, Pending or Terminating with drawn usage, and HPAs on distinct
//     Deployments whose target selectors never select one Deployment's
//     pods together (no AmbiguousSelector), each with one metric:
//     Resource or ContainerResource CPU or memory, Utilization or
//     AverageValue, or a Pods, Object or External one. The model reads
//     the case as a running cluster's dump and answers hpa.Recommend
//     without a window (a resource metric) or
//     hpa.MetricRecommendations (the counts a metric outside the model
//     can give, over the pods the HPA lists); upstream runs the replica
//     calculator over a pod lister holding every pod of the namespace
//     with the target's selector, its REST metrics client over a fake
//     resource metrics API (PodMetrics labelled as their pods), and
//     normalizeDesiredReplicas, or the custom and external metrics'
//     calculators at every value. The known classes are OvClasses. One
//     run of 10^4 cases (-cases 200000): 13 307 HPAs, 10 501 reading
//     their metric, 3 877 of those listing 9 728 pods of other
//     Deployments; 57 disagreements, all classified (56
//     container-metric-on-pod-without-container, 1
//     container-metric-request-read-from-target-template).
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
// normalizeDesiredReplicasWithBehaviors and storeScaleEvent and
// ambiguous.go validateAndParseSelector (whose controller's unexported
// registry, pod lister and event recorder it sets through reflect).
package hpadiff
