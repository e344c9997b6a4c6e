// Package deschedulerdiff is a differential test of Kivi's descheduler
// model (controllers/descheduler) and its PodDisruptionBudgets
// (model/pdb.go) against sigs.k8s.io/descheduler v0.36, the disruption
// controller of kube-controller-manager v1.36 and the API server's
// eviction subresource, all run in process.
//
// A Snapshot is one descheduling cycle of one Balance plugin
// (LowNodeUtilization, HighNodeUtilization, RemoveDuplicates or
// RemovePodsViolatingTopologySpreadConstraint), or of one Deschedule
// plugin: RemoveFailedPods or PodLifeTime (lifetime.go: pods Failed with a
// reason, of an age, ContainerCreating, for PodLifeTime restarted after
// an OOM kill and showing it or its back-off), RemovePodsHavingTooManyRestarts
// (restarts.go: container and init-container restarts, around and above
// the 255 a model pod slot holds, a restarted Running pod sometimes
// waiting in CrashLoopBackOff, a Pending pod's restarted init container
// waiting in CrashLoopBackOff, terminated with an error or running; the
// plugin's namespaces and labelSelector), RemovePodsViolatingNodeTaints,
// RemovePodsViolatingNodeAffinity or
// RemovePodsViolatingInterPodAntiAffinity (violations.go: disk labels,
// taint values, Exists tolerations of a key, of every taint and of the
// unschedulable taint, required and preferred node affinity, required
// pod anti-affinity over the hostname or zone, over named namespaces or
// namespaceSelector {}, the plugins' taint and nodeAffinityType args and
// labelSelector), with random arguments and
// DefaultEvictor arguments (nodeFit, evictSystemCriticalPods), eviction
// limits, Ready nodes with allocatable, zones, taints and cordons, pods
// of one to three Deployments bound to them (Running, Pending or
// terminating; requests, system-critical priority, a zone nodeSelector,
// tolerations, spread constraints) and budgets. A Running pod is Ready
// unless its readiness probe fails (one in eight) or its container
// crashed and has not run again (waiting in CrashLoopBackOff, or
// terminated OOMKilled), as the kubelet reports it; the disruption
// controller and the Eviction API read that condition. The snapshots
// whose pods crash (PodLifeTime, RemovePodsHavingTooManyRestarts) have
// budgets in two of three, often over a crashing pod's Deployment, of
// either unhealthyPodEvictionPolicy, with minAvailable or maxUnavailable
// often near the number of pods they select. In a third of the
// snapshots the Deployments and budgets are spread over two or three
// namespaces, with a per-namespace eviction limit more often than not and
// sometimes the plugin's namespace filter (namespaces.include/exclude,
// evictableNamespaces.exclude) over them.
//
// In half the snapshots (evictor.go) the DefaultEvictor's constraints
// are drawn, each in one of three of those: labelSelector (matchLabels or
// matchExpressions over the app and tier labels, or empty),
// namespaceLabelSelector (over an env label the Namespace objects may
// carry, and kubernetes.io/metadata.name; every namespace has its
// Namespace object in the descheduler's informer), minReplicas 0–4 (the
// pods' owner reference names their ReplicaSet's UID, which the
// DefaultEvictor's index counts), the PodsWithoutPDB protection
// (ignorePodsWithoutPDB or podProtections.extraEnabled, over the budgets
// drawn), minPodAge, and noEvictionPolicy (unset, Preferred or
// Mandatory), with the descheduler.alpha.kubernetes.io/evict annotation
// on a Dep's pods in one of six and prefer-no-eviction in one of four.
// minPodAge is drawn only as the model, which has no clock, can agree
// with it: a started pod (Running, Failed, or terminating after running)
// carries a status.startTime older than every minPodAge drawn (2 days;
// the lifetime snapshots' pods, 5 s old or more, get minPodAge 1s), a
// Pending pod none, even one showing ContainerCreating (which a kubelet
// would have given one; the model protects every Pending pod,
// docs/divergences.md). The test logs, for each constraint, how often it
// decided the evictions (the model's branches without it differ). In
// every snapshot a Deployment requesting both cpu and memory limits what
// it requests in one of three (QoS class Guaranteed), so that the plugins
// that sort candidates by priority and QoS class take its pods after the
// Burstable ones of their priority.
//
// The snapshot is translated to a
// model.Universe and model.State (model.go) and to API objects (api.go),
// the namespaces being the templates', Deployments' and budgets' on one
// side and metadata.namespace on the other.
//
// The model's answer is every branch of one descheduler.Controller
// Step, enumerated with model.Tx as the System does, and for the
// node-utilisation plugins the node classes its Explain reports. The
// real answer is the plugin built by its own constructor over the
// descheduler's fake framework handle, with the DefaultEvictor and
// PodEvictor, run under several listing orders (the pods of a node are
// sorted by a random rank, as the descheduler's own test handle's sorter
// does; the nodes handed to Balance are shuffled; map order is Go's).
// Evictions go to a fake clientset whose eviction subresource is the API
// server's EvictionREST (evictionapi.go) over budgets whose status the
// disruption controller's own sync computed (disruption.go). Every real
// run's evicted set must be one of the model's branches up to pods the
// model holds identical (podKey: Deployment, node, phase, and the
// restart count and readiness the pod's slot holds), and the node
// classes must be equal; the test logs how often every model branch was
// reached by the orders tried.
//
// A disagreement must belong to a known Class (classify.go) whose
// counterfactual removes it; the classes are written up in
// docs/divergences.md ("Descheduler against sigs.k8s.io/descheduler
// v0.36"). With -census, TestDifferential counts the unexplained ones by
// kind (disagreementKind) over all its snapshots instead of stopping at
// the first. TestBudgets compares the budgets' status and every pod's
// eviction outcome alone, with no class allowed. TestZeroLimit gives one
// of the PodEvictor's limits as 0 (Snapshot.ZeroLimit), which admits no
// eviction on either side.
package deschedulerdiff
