package report

import (
	"fmt"
)

// SchemaVersion is the version of the JSON report (--json, shard files,
// and the document the HTML trace explorer embeds); docs/json.md states
// the policy: a version that only adds optional fields keeps the number,
// any other change of shape bumps it. Version 1 added it, and with it the
// per-step cluster snapshots of counterexamples (JSONIntent.Trace).
// Version 2 made every mode one shape (mode, warnings, a verdict and
// intents for the search too, shard files as reports) and added the
// objects each trace step changes.
const SchemaVersion = 2

// ClusterSnapshot is the cluster as the trace explorer draws it at one
// point of a counterexample: what a person reading the trace wants to
// see, not the model's encoding (no queues, no storage slots).
type ClusterSnapshot struct {
	Nodes       []NodeSnapshot       `json:"nodes"`
	Pods        []PodSnapshot        `json:"pods"`
	Deployments []DeploymentSnapshot `json:"deployments"`
}

// NodeSnapshot is one node.
type NodeSnapshot struct {
	Name string `json:"name"`
	// Zone is the node's topology.kubernetes.io/zone label (or the legacy
	// failure-domain label, or Kivi's "zone"); "" when it has none.
	Zone   string            `json:"zone,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
	// Status is Ready, NotReady, Unhealthy or Deleted; Ready repeats it as
	// a flag.
	Status string `json:"status"`
	Ready  bool   `json:"ready"`
	// Taints are "key=value:Effect" (or "key:Effect").
	Taints []string `json:"taints,omitempty"`
	// CPU is the allocatable CPU; RequestedCPU the requests of the pods on
	// the node plus the reserved CPU; UsedCPU their usage plus the reserved
	// CPU. All in model units.
	CPU          int64 `json:"cpu"`
	RequestedCPU int64 `json:"requestedCpu"`
	UsedCPU      int64 `json:"usedCpu"`
}

// PodSnapshot is one pod.
type PodSnapshot struct {
	// Name is stable across the trace and never reused for another pod:
	// "<deployment>-<n>" ("pod-<n>" for a bare pod), n counting the pods
	// of the deployment in the order they appear, or the name a running
	// cluster's dump gives a pod of the initial state. The model reuses
	// storage slots for new pods, so the slot cannot name a pod.
	Name string `json:"name"`
	// Slot is the model's storage slot for the pod (trace lines print
	// Name); a later pod may have the same slot.
	Slot       int    `json:"slot"`
	Deployment string `json:"deployment,omitempty"`
	// Phase is Pending, Running or Terminating.
	Phase string `json:"phase"`
	// Node is the node the pod is bound to; "" while unscheduled.
	Node string `json:"node,omitempty"`
	// NominatedNode is status.nominatedNodeName: the node a preemption
	// made room on for the unscheduled pod; "" when none.
	NominatedNode string `json:"nominatedNode,omitempty"`
	// Readiness is NotReady for a Running pod whose Ready condition is
	// False and ReadyNotAvailable for one Ready for less than its
	// workload's minReadySeconds; "" when Ready and available (every pod
	// of a template without probes, readiness gates or minReadySeconds).
	Readiness string `json:"readiness,omitempty"`
	// CPU is the pod's current CPU usage; CPURequest its request.
	CPU        int32 `json:"cpu"`
	CPURequest int64 `json:"cpuRequest"`
	// Evicted marks a Terminating pod that something other than its own
	// ReplicaSet deleted (the descheduler, the node controller, the taint
	// manager, a drain).
	Evicted bool `json:"evicted,omitempty"`
}

// DeploymentSnapshot is one deployment's replica counts.
type DeploymentSnapshot struct {
	Name string `json:"name"`
	// Number is the deployment's 1-based position in the model (trace
	// lines print Name).
	Number int  `json:"number"`
	Active bool `json:"active"`
	// Spec is spec.replicas; Ready the Running pods; Pending and
	// Terminating the others.
	Spec        int `json:"spec"`
	Ready       int `json:"ready"`
	Pending     int `json:"pending"`
	Terminating int `json:"terminating"`
	// HPADesired is what the deployment's HPA would recommend in this
	// state (its downscale window included); absent without an HPA.
	HPADesired *int `json:"hpaDesired,omitempty"`
	// CPU is the summed CPU usage of the deployment's Running pods (what
	// the HPA's metrics see).
	CPU int64 `json:"cpu"`
}

// JSONTrace is a counterexample step by step, each step with the cluster
// it leads to: the trace explorer's input.
type JSONTrace struct {
	// Initial is the cluster before the first step.
	Initial ClusterSnapshot `json:"initial"`
	Steps   []JSONTraceStep `json:"steps"`
	// LoopStart is the index in Steps where a lasso's cycle begins; -1
	// when the counterexample is not a lasso. (JSONIntent.LoopStart
	// counts lines instead.)
	LoopStart int `json:"loopStart"`
}

// JSONTraceStep is one step: the actor that took it, its trace lines
// (numbered as in JSONIntent.Counterexample) and the cluster after it.
type JSONTraceStep struct {
	Actor string     `json:"actor"`
	Lines []JSONStep `json:"lines"`
	// Objects are the objects whose own state the step changed (created,
	// modified or deleted), from the snapshots before and after it:
	// what a reader looks for first, without diffing clusters.
	Objects []JSONObject    `json:"objects"`
	Cluster ClusterSnapshot `json:"cluster"`
}

// JSONObject names one Kubernetes object of a snapshot.
type JSONObject struct {
	// Kind is Node, Deployment or Pod.
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// touched lists the objects whose own fields differ between two
// snapshots: a node's status, labels or taints; a deployment's spec or
// activity; a pod's existence, phase, node, CPU usage or eviction mark.
// Derived figures (a node's requested CPU, a deployment's ready count,
// an HPA's recommendation) follow from those and would only repeat them.
// Order: nodes, deployments, then pods, each in snapshot order, pods
// that disappeared after those that remain.
func touched(before, after ClusterSnapshot) []JSONObject {
	out := []JSONObject{}
	nodes := map[string]NodeSnapshot{}
	for _, n := range before.Nodes {
		nodes[n.Name] = n
	}
	for _, n := range after.Nodes {
		b, ok := nodes[n.Name]
		if !ok || b.Status != n.Status || fmt.Sprint(b.Labels) != fmt.Sprint(n.Labels) || fmt.Sprint(b.Taints) != fmt.Sprint(n.Taints) {
			out = append(out, JSONObject{"Node", n.Name})
		}
	}
	deps := map[string]DeploymentSnapshot{}
	for _, d := range before.Deployments {
		deps[d.Name] = d
	}
	for _, d := range after.Deployments {
		if b, ok := deps[d.Name]; !ok || b.Spec != d.Spec || b.Active != d.Active {
			out = append(out, JSONObject{"Deployment", d.Name})
		}
	}
	pods := map[string]PodSnapshot{}
	for _, p := range before.Pods {
		pods[p.Name] = p
	}
	for _, p := range after.Pods {
		b, ok := pods[p.Name]
		if !ok || b.Phase != p.Phase || b.Node != p.Node || b.NominatedNode != p.NominatedNode || b.Readiness != p.Readiness || b.CPU != p.CPU || b.Evicted != p.Evicted {
			out = append(out, JSONObject{"Pod", p.Name})
		}
		delete(pods, p.Name)
	}
	for _, p := range before.Pods {
		if _, gone := pods[p.Name]; gone {
			out = append(out, JSONObject{"Pod", p.Name})
		}
	}
	return out
}

// jsonTrace converts a rendered trace to its JSON form. Lines are
// numbered as JSON() numbers the counterexample (the cycle marker takes
// no number there).
func (t *Trace) jsonTrace() *JSONTrace {
	out := &JSONTrace{Initial: filled(t.Initial), LoopStart: t.LoopStart, Steps: make([]JSONTraceStep, 0, len(t.Steps))}
	if out.LoopStart >= len(t.Steps) {
		out.LoopStart = -1
	}
	i := 0
	prev := t.Initial
	for _, st := range t.Steps {
		js := JSONTraceStep{Actor: st.Actor, Cluster: filled(st.Cluster), Lines: []JSONStep{}, Objects: touched(prev, st.Cluster)}
		prev = st.Cluster
		for _, l := range st.Lines {
			js.Lines = append(js.Lines, JSONStep{Step: i, Component: l.Component, Message: l.Message})
			i++
		}
		out.Steps = append(out.Steps, js)
	}
	return out
}

// filled returns c with empty lists where it has none (a trace without
// snapshots): the document's arrays are never null.
func filled(c ClusterSnapshot) ClusterSnapshot {
	if c.Nodes == nil {
		c.Nodes = []NodeSnapshot{}
	}
	if c.Pods == nil {
		c.Pods = []PodSnapshot{}
	}
	if c.Deployments == nil {
		c.Deployments = []DeploymentSnapshot{}
	}
	return c
}
