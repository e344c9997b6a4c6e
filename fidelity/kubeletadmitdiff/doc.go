// Package kubeletadmitdiff is a differential test of Kivi's kubelet
// admission (controllers/kubelet admission.go, hostports.go, scalar.go,
// pressure.go, on the templates inputs/manifest reads) against the
// kubelet of k8s.io/kubernetes v1.36, run in process.
//
// A case is one node (allocatable cpu, memory, ephemeral-storage, pods
// and an extended resource, labels, taints of every effect, the
// MemoryPressure condition), 1–3 pod specs pinned to it by spec.nodeName
// (containers, init containers and sidecars with cpu, memory,
// ephemeral-storage and extended resource requests and limits, pod-level
// resources, a RuntimeClass with an overhead, nodeSelector, required
// node affinity, tolerations, host ports or the host's network,
// system-node-critical priority), the pods the kubelet already runs
// (Running or Terminating, and a DaemonSet's pod) and the spec of the
// new pod it admits.
//
// The model's answer (model.go) is one step of the model's kubelet with
// the new pod bound and queued, every run of it (its choices among pods
// its preemption leaves tied), the reason read from its trace.
// Upstream's (upstream.go) is the kubelet's admit handlers this
// comparison covers, in the kubelet's order: the eviction manager's
// Admit (eviction.NewManager; under pressure after one housekeeping cycle
// on a summary below its threshold) and the predicate admit handler
// (lifecycle.NewPredicateAdmitHandler: GeneralPredicates —
// NodeResourcesFit, node affinity and nodeSelector, NodeName, NodePorts —
// and the NoExecute taints) with the critical pod admission handler
// (preemption.NewCriticalPodAdmissionHandler), over a fake node getter
// and no device plugins, the running pods given as the kubelet gives
// them. Pods are built as the API server stores them: defaulted
// (SetObjectDefaults_Pod), with their PriorityClass's priority, the
// RuntimeClass's overhead and the DefaultTolerationSeconds admission's
// tolerations. Compared is the verdict with its reason (OutOfcpu,
// OutOfmemory, OutOfpods, OutOf<extended resource>, NodeAffinity,
// NodePorts, TaintToleration, Evicted with the node's conditions,
// UnexpectedAdmissionError) and the pods the critical pod admission
// handler preempts: upstream's must be one of the model's choices (every
// run of its kubelet step), up to pods that are alike.
//
// Every disagreement must belong to a known class (classify.go), written
// up in docs/divergences.md ("Kubelet admission against the kubelet
// v1.36"); a disagreement no class explains fails the test.
package kubeletadmitdiff
