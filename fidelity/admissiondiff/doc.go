// Package admissiondiff is a differential test of the input side of
// Kivi's manifest reader (inputs/manifest, entry point LoadStream)
// against the API server and kube-controller-manager of k8s.io/kubernetes
// v1.36, run in process. Two comparisons are made:
//
//   - Limits (limits.go, limits_real.go): a Deployment of 1–3 containers
//     and 0–2 init containers with random cpu and memory requests and
//     limits (absent, explicit 0, several spellings) and 0–2 LimitRanges
//     in its namespace. The model's answer is LoadStream's: an error
//     naming a LimitRange field (the LimitRange refused), an error saying
//     the LimitRange "rejects the pod" or the API server does, or the
//     template's effective CPU (millicores) and memory (MiB, rounded up).
//     Upstream's is the API server's pipeline at creation: the
//     LimitRanges defaulted (SetDefaults_LimitRangeItem) and validated
//     (ValidateLimitRange); the pod built from the template and defaulted
//     (SetDefaults_Pod: a limit without a request is the request),
//     converted to the internal type, LimitRanger's PodMutateLimitFunc for
//     every LimitRange in input order, the pod's container resource
//     validation (a request above its limit), LimitRanger's
//     PodValidateLimitFunc for every LimitRange, and component-helpers'
//     PodRequests on the admitted pod, converted as the model converts.
//
//   - DaemonSets (daemons.go): 1–6 nodes with labels, taints of every
//     effect (the node lifecycle controller's keys among them) and
//     cordons, and one DaemonSet with nodeName, nodeSelector, required
//     node affinity, tolerations and hostNetwork, loaded next to a
//     Deployment that tolerates everything. The model's answer is which
//     nodes' types have the daemon pod's request reserved; upstream's is
//     pkg/controller/daemon's NodeShouldRunDaemonPod, read as the model's
//     rule states it: the pod was created on the node before the node
//     lifecycle controller added its not-ready and unreachable NoSchedule
//     taints (shouldRun on the node without them) and may continue running
//     there (shouldContinueRunning on the node as it is). The plain
//     shouldRun and shouldContinueRunning are counted too.
//
// Every disagreement must belong to a known Class (classify.go): a cause
// with a counterfactual that removes it, such that the answers then agree.
// The classes are written up in docs/divergences.md ("LimitRanger against
// the API server v1.36", "DaemonSet placement against
// kube-controller-manager v1.36"); a disagreement no class explains fails
// the test.
package admissiondiff
