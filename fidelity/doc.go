// Package fidelity is the root of the nested module that measures Kivi's
// models against the real Kubernetes code they re-implement. It lives in
// a module of its own so that the main module never depends on
// k8s.io/kubernetes: only this module imports it (go.mod pins the staging
// modules to the matching release).
//
// Subpackages:
//   - scheddiff: the scheduler model (controllers/scheduler) against
//     kube-scheduler's default profile, run in process on random
//     snapshots, and on every scheduling decision of the counterexamples
//     of the built-in cases and the example case files (trace replay),
//     and of random runs of the incident library, the worked example and
//     the realistic shapes (TestReplayRandomRuns).
//   - hpadiff: the HPA model (controllers/hpa) against
//     kube-controller-manager's replica calculator and legacy
//     normalisation (stabilisation window, min/max and scale-up clamps);
//     and every sync of an HPA of one CPU Utilization metric along the
//     random runs walk draws (TestReplayRandomRuns): the replica count
//     the model writes against the real calculator's and normalisation's;
//     and which HPAs find AmbiguousSelector (several HPAs of one workload,
//     target selectors that overlap) against validateAndParseSelector
//     (TestAmbiguousSelector).
//   - rsdiff: the ReplicaSet model's scale-down victims
//     (controllers/deployment) against the ReplicaSet controller's
//     getPodsToDelete and controller.ActivePodsWithRanks, on random pod
//     sets, both for upstream's tied pick and for every model branch;
//     and every scale-down of the random runs walk draws
//     (TestReplayRandomRuns), each deletion set steered and tied.
//   - rolloutdiff: one sync of the Deployment model (controllers/deployment:
//     rollouts, proportional scaling on a scaling event, paused
//     Deployments) against the DeploymentController's syncDeployment, on
//     random deployments in the middle of a rollout.
//   - stsdiff: one sync of the StatefulSet model (controllers/statefulset)
//     against the StatefulSetController's UpdateStatefulSet, on random
//     StatefulSets, revisions and pods (the pods created, with their
//     revision, and deleted).
//   - jobdiff: one sync of the Job model (controllers/job) against the
//     Job controller's syncJob, on random Jobs and pods, finished pods at
//     every stage of the tracking with finalizers (the pods created and
//     deleted, the finished condition, the succeeded and failed counts).
//   - deschedulerdiff: the descheduler model's four Balance plugins and
//     its five Deschedule plugins (RemoveFailedPods, PodLifeTime,
//     RemovePodsViolatingNodeTaints, RemovePodsViolatingNodeAffinity,
//     RemovePodsViolatingInterPodAntiAffinity; controllers/descheduler)
//     against sigs.k8s.io/descheduler v0.36,
//     their evictions through the API server's eviction subresource, and
//     the PodDisruptionBudget status and eviction decision (model/pdb.go)
//     against the disruption controller and that subresource.
//   - templatediff: the manifest reader's pod-template comparison
//     (inputs/manifest StoredPodTemplate: does a kubectl apply change the
//     template?) against the API server's defaulting and the Deployment
//     and StatefulSet controllers' template equality.
//   - pdbdiff: the PodDisruptionBudget status and eviction decision
//     (model/pdb.go, pdbsync.go) against the disruption controller's
//     sync and the eviction subresource, for Deployments, StatefulSets,
//     Jobs and bare pods in every readiness and termination state, each
//     pod evicted alone and sequences of evictions with and without the
//     controller's resync.
//   - admissiondiff: the manifest reader's input side (inputs/manifest)
//     against the API server's pod defaulting, LimitRange defaulting and
//     validation and LimitRanger admission, and against the DaemonSet
//     controller's NodeShouldRunDaemonPod.
//   - quotadiff: the ResourceQuota admission (model/resourcequota.go,
//     with the manifest reader's quotas and templates) against the
//     ResourceQuota admission plugin's evaluator and kube-apiserver's pod
//     evaluator, over the quota controller's usage, on random namespaces
//     of quotas, scopes, existing pods and a new pod.
//   - lifecyclediff: the node lifecycle controller's not-ready and
//     unreachable taints and the taint eviction controller's decisions
//     (controllers/nodelifecycle, model/noexecute.go) against the node
//     lifecycle controller's passes, with its zone states, and the taint
//     eviction controller's processPodOnNode, on random nodes, taints,
//     tolerations and pod phases; and every decision of the node
//     controller, the taint manager and the events that change a node's
//     NoExecute taint along the random runs walk draws
//     (TestReplayRandomRuns): the taints placed, held back or removed,
//     each pod evicted at once, later or kept, the terminating pods
//     force-deleted.
//   - evictiondiff: the kubelet's node-pressure eviction for memory
//     (controllers/kubelet evictionmanager.go, model/kubeletconfig.go)
//     against the eviction manager of pkg/kubelet/eviction, driven
//     through NewManager and Start with a fake summary provider and clock,
//     on random nodes, thresholds and pods (the pods evicted, in order,
//     and the MemoryPressure condition).
//   - kubeletadmitdiff: the kubelet's admission (controllers/kubelet
//     admission.go and preemption.go, with the manifest reader's
//     templates) against the kubelet's admit handlers of pkg/kubelet (the
//     eviction manager's Admit, the predicate admit handler's
//     GeneralPredicates and NoExecute taints, the critical pod admission
//     handler and its preemption), on random nodes, pods the kubelet runs
//     and a new pod pinned to the node (the verdict, its reason and the
//     pods preempted).
//   - podgcdiff: the deletion of a Node object (model.DeleteNodeObject,
//     the deleteNode event) and the collection of its pods (podgc.Orphaned)
//     against the pod garbage collector's gcOrphaned pass, on random nodes
//     (some deleted) and pods (bound or not, Pending, Running, Terminating
//     or Failed): which pods are deleted, and whether the deletion counts
//     against a Job whose podFailurePolicy ignores DisruptionTarget; with
//     a quarantine, that the first pass deletes nothing and which nodes
//     the pass after it collects (the model's collectors enabled).
//   - classify: the known-divergence classes and the counterfactual test
//     that names them, shared by hpadiff, admissiondiff, stsdiff,
//     jobdiff, pdbdiff, lifecyclediff, evictiondiff, quotadiff and
//     kubeletadmitdiff, with the rapid settings (Checks), klog's
//     silencing and the outcome counter of their tests.
//   - evictionapi: the API server's Eviction subresource over an
//     in-memory pod store, shared by pdbdiff and deschedulerdiff.
//   - walk: the random runs of every incident of examples/incidents and
//     its fixed twin, the worked example (examples/inputs) and the
//     realistic shapes (bench.Shapes) that the replay tests of scheddiff,
//     rsdiff, hpadiff and lifecyclediff walk, step by step.
//   - podspec: the containers (requests and limits as written, their
//     YAML) of the pod specs admissiondiff, quotadiff and
//     kubeletadmitdiff draw.
package fidelity
