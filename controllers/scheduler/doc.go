// Package scheduler models kube-scheduler as one model.Process: a
// scheduling queue ordered by priority (PrioritySort; first come first
// among equals, priorityqueue.go) drained in one step, one default
// profile with DefaultPreemption as its PostFilter (preemption.go), no
// backoff queue.
//
// Each scheduling cycle follows the framework's shape (Kubernetes v1.36,
// pkg/scheduler/schedule_one.go): every node runs the filter plugins in the
// default profile's order and stops at the first rejection; the feasible
// nodes are scored by every score plugin, each plugin's scores are
// normalised over the feasible nodes and multiplied by the plugin weight,
// and the node with the highest total wins. Where several nodes share the
// top score the model either branches over them (model.BranchOnTies: a real
// scheduler leaves the choice open) or takes the lowest index (Kivi).
//
// Filters, in the default profile's order:
//   - NodeReady: a node that is not Ready carries the node lifecycle
//     controller's not-ready NoSchedule and NoExecute taints, which reject
//     every pod that does not tolerate both (stands for NodeUnschedulable
//   - TaintToleration of those taints).
//   - NodeName, TaintToleration (NoSchedule and NoExecute), NodeAffinity
//     (nodeSelector and required terms), NodeResourcesFit (requests against
//     allocatable minus the requests of the node's pods), PodTopologySpread
//     (DoNotSchedule constraints, podtopologyspread/filtering.go),
//     InterPodAffinity (required pod affinity and anti-affinity, and the
//     existing pods' required anti-affinity, interpodaffinity.go).
//
// Scores and weights: TaintToleration 3, NodeAffinity 2, NodeResourcesFit
// (LeastAllocated, with non-zero requests) 1, PodTopologySpread 2
// (ScheduleAnyway constraints, or the system default constraints when the
// template declares none), InterPodAffinity 2 (preferred terms both ways,
// existing pods' required affinity at weight 1),
// NodeResourcesBalancedAllocation 1 (how the pod changes the balance of
// cpu and memory in use).
//
// Speed without a second semantics: a cycle is a pure function of the
// pods bound to each node (counted by template and by whether they count
// for spreading), the node statuses and the incoming pod's template and
// constraint set. A Step computes it once for all its runs (the System
// re-runs a step once per tied node; model.Tx.Recall), and a cycle
// remembers recent answers by that exact input (memo.go), since the
// exploration asks the same question in every order of the same
// placements; idle cycles, and their memos, are kept for the Scheduler's
// lifetime (cyclePool). A reference implementation (reference_test.go) checks
// every intermediate result and every answer under rapid.
//
// Every deliberate difference from Kivi is listed in
// docs/divergences.md ("Scheduler"). Explain renders one cycle for humans.
package scheduler
