// Package hpa is the model's HorizontalPodAutoscaler: one process that
// serves every deployment's HPA, run when the core controllers are quiet.
//
// The arithmetic (calc.go) follows Kubernetes v1.36
// pkg/controller/podautoscaler: replica_calculator.go (ready / unready /
// missing pods, the truncated utilisation percentage, the inclusive
// tolerance, the dampened recomputation with its direction-flip rules) and
// horizontal.go (entry cases, the maximum over metrics, invalid metrics,
// the legacy min / max / max(2·current, 4) clamp). It is pure and
// table-tested against Kubernetes' own test vectors.
//
// The controller (hpa.go) maps the model onto it: a deployment's pods are
// all pods it owns (every ReplicaSet), Terminating pods are ignored,
// Pending pods are unready, Running pods are ready and their current usage
// is their metric sample. Kivi's HPA differs in
// several ways, listed in docs/divergences.md (HPA).
//
// The downscale stabilisation window (window.go) is an option, off by
// default as in Kivi: HPA.ScaleDownStabilizationSyncs = W keeps the
// highest recommendation of the current and the W previous sync periods
// in the deployment's state and scales to their maximum (Kubernetes'
// legacy stabilizeRecommendation, seeded at the first sync). The model
// has no clock, so the HPA also re-syncs the deployments whose last
// evaluation the window held back, in quiescent states only: each such
// step is one 15 s sync period passing for all of them at once (HPAs
// share the wall clock), and the events compete with it.
//
// An HPA with spec.behavior (behavior.go, behavior_reconcile.go) takes
// upstream's other path, normalizeDesiredReplicasWithBehaviors: windows in
// both directions, rate policies with selectPolicy over the scale events
// of their periods, per-direction tolerances. Its memory
// (model.HPAMemory) counts the same sync periods, and a period also
// passes while it remembers a scale event some policy still reads.
//
// Metrics whose values the model does not know (Pods, Object and External
// metrics, a ContainerResource metric on one of several containers) are
// the environment (unknown.go, environment.go): each sync branches over
// every distinct outcome of the counts upstream's formula yields from some
// value, and a sync period may pass at quiescence whenever one of them
// would change a deployment.
package hpa
