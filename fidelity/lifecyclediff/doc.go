// Package lifecyclediff is a differential test of Kivi's node lifecycle
// controller and taint eviction (controllers/nodelifecycle: the node
// controller's not-ready and unreachable taints, the taint manager;
// model/noexecute.go, notready.go, initialtaints.go: the compiled
// tolerations of NoExecute taints, with the DefaultTolerationSeconds
// admission plugin's) against kube-controller-manager v1.36's node
// lifecycle controller and taint eviction controller, run in process.
//
// A Case is a snapshot: 1–5 nodes in one or two zones (some excluded from
// the zone states by node.kubernetes.io/exclude-disruption), each with a Ready
// condition (True, False: the kubelet reports the node not Ready,
// Unknown: it stopped reporting) and its own taints (NoExecute,
// NoSchedule, PreferNoSchedule, now and then with a key of the node
// lifecycle controller's), and 0–8 pods bound to them, Pending, Running,
// Terminating or Failed, with random tolerations (any key or none,
// Exists, Equal or no operator, a value, any effect or none,
// tolerationSeconds none, 0 or positive). A node that is not Ready may be
// lost for good: an operator then taints it
// node.kubernetes.io/out-of-service=nodeshutdown:NoExecute. Two answers
// are compared:
//
//   - each node's taints of the node lifecycle controller's keys
//     (node.kubernetes.io/not-ready and unreachable), NoExecute and
//     NoSchedule, after its passes;
//   - each pod's fate on its node as tainted then (with the operator's
//     taint): evicted at once, later (after how many seconds: the least
//     tolerationSeconds of the tolerations used), or never; and whether
//     the pod garbage collector force-deletes it once the later
//     evictions are due (Terminating on a node that is not Ready and
//     carries the out-of-service taint).
//
// The model's answer comes from its own steps: the node controller's
// (every combination of its choice of taint, keeping the one that gives
// each node that is not Ready the taint its condition calls for where
// the model offers it), then the kubelet's and the taint manager's until
// their queues are empty. Upstream is the real code: the pods through the
// API server's toleration validation and the DefaultTolerationSeconds
// plugin; a node lifecycle controller built by NewNodeLifecycleController
// over informer stores filled directly and a fake clientset, its
// unexported monitorNodeHealth and doNoExecuteTaintingPass (three passes)
// and doNoScheduleTaintingPass reached by go:linkname (the zone states
// come from its own ComputeZoneState and handleDisruption, at the default
// thresholds; the eviction rate is unlimited, see Upstream); then a taint
// eviction controller built by tainteviction.New over the nodes as those
// passes left them, its handleNodeUpdate (processPodOnNode for each pod
// of the node, with GetMatchingTolerations and getMinTolerationTime) by
// go:linkname, its eviction queue on a fake clock: a pod deleted at once
// has a delete with the pod's grace period, one to be deleted later has
// a timer. The fake clientset deletes a pod as the API server does (a
// pod bound to a node, not terminal, only gets a deletion timestamp
// unless the grace period is 0). The operator's taint is on the node
// before handleNodeUpdate runs (one pass sees both taints). Then the
// clock runs past every timer, and the pod garbage collector, built by
// podgc.NewPodGC, runs its unexported gcTerminating (go:linkname; no
// feature gate in v1.36: NodeOutOfServiceVolumeDetach went GA in v1.28
// and is gone): a pod it deletes with grace period 0 is force-deleted.
// The model's operator is model.SetOutOfService after the node
// controller's step (the out-of-service event's step), and a pod gone
// from a node that is not Ready was force-deleted (the model runs the
// pod garbage collector in the kubelet's step).
//
// TestReplayRandomRuns replays the model's own decisions along the random
// runs of fidelity/walk (every incident and its fixed twin, the worked
// example, the realistic shapes): on each step of the node controller,
// of the taint manager, and of an event that changes a node's NoExecute
// taint (a node Ready again, the operator's out-of-service taint), the
// state the decision is made on becomes a Case (every node that exists,
// with its zone, its own taints, the controller's taints it carries, its
// Ready condition as the controller sees it, which for a node that is
// not Ready is the condition the model decided; every bound pod with its
// template's tolerations) and runs upstream: the node controller's
// passes on the state before its step, the taint eviction controller
// alone (Case.TaintEvictionOnly) on the taints the nodes carry before
// the taint manager's step or after the operator's taint, the node
// controller's passes on the world after a node is Ready again. The
// NoExecute taint the step places, holds back or removes, and each pod
// it judges (evicted at once, later and after how many seconds, kept;
// force-deleted by the pod garbage collector) must be upstream's, for
// the step taken and for every other branch of the node controller or
// the taint manager at its state; a node the model taints unreachable
// (or holds back without a key) without exploring not-ready runs
// upstream again with its condition False, and its pods' evictions must
// agree by presence. Only the classes below may explain a disagreement;
// TestReplayPlantedBugs plants TestPlantedBugs' universe bugs in the
// runs and sees each caught.
//
// A disagreement must belong to a known class (classify.go) whose
// counterfactual removes it; the classes are written up in
// docs/divergences.md ("Node lifecycle and taint eviction against
// kube-controller-manager v1.36"). An unexplained one fails the test.
package lifecyclediff
