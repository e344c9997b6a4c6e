// Package events gives behaviour to the environment events and user
// commands of a Universe (model.Event): CPU usage changes, the CPU usage
// patterns of pod templates, the completions of Jobs' pods, kernel
// panics, node maintenance, node failures, and the kubectl commands
// createTargetDeployment, apply, create, scale and drain (cordon,
// evictions through the PodDisruptionBudgets, uncordon). It also provides the init process, which starts the
// after-stable events once the cluster is first quiescent.
//
// Every event is one model.Process whose memory lives in
// State.EventVars[e.VarOffset : e.VarOffset+e.VarLen] (layout fixed by
// model.Universe.Compile). Events gate themselves by the init phase
// (State.Init): First events move only while the phase is InitFirst and
// the step that completes the last of them opens InitMain; Main events
// move from InitMain on; AfterStable events only in InitStable.
//
// The granularity of every transition follows Kivi:
// a guard step that only moves the
// event into its body is a transition of its own where Kivi has one,
// because other processes may change the state between the guard and the
// body, which does not re-check it. Kivi's logical clock is gone
// (docs/model.md): every "time − x ≥ k ∨ Q5-empty" guard is State.ControllerAndHPAQueuesEmpty.
//
// Deliberate differences from Kivi are listed in
// docs/divergences.md ("Events and environment").
package events

// Trace components of the events: who acts in the cluster when an event
// happens (docs/traces.md). A command is the user's kubectl; a change of
// a node is the node itself (its kubelet stops reporting, the machine
// panics or is taken down); a change of a pod's load is its workload.
const (
	KubectlComponent = "kubectl"
	// GitOpsComponent names a GitOps controller's re-apply (selfheal.go).
	GitOpsComponent   = "gitops"
	NodeComponent     = "node"
	WorkloadComponent = "workload"
)
