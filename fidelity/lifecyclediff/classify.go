package lifecyclediff

import (
	"context"
	"slices"

	v1 "k8s.io/api/core/v1"

	"github.com/kivi-go/kivi/fidelity/classify"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
)

// The names of the known causes of disagreement (docs/divergences.md,
// "Node lifecycle and taint eviction against the controllers"); "" is
// agreement.
const (
	Agree = ""
	// DownTaintUnexplored: the model gives a node that is not Ready the
	// unreachable taints (NoSchedule and NoExecute), and the not-ready ones
	// only where the choice decides whether some pod of the node is
	// evicted at once or at all, or some pod tolerates the two keys
	// differently; upstream gives a node that reports Ready False the
	// not-ready ones. Which pods are evicted, at once, later or never, is
	// the same; only the taints' key and the seconds of a later eviction
	// differ. Counterfactual: both compared by presence only.
	DownTaintUnexplored = "not-ready taint unexplored"
	// InputControllerTaint: a node of the input carries a taint of the
	// node lifecycle controller's keys itself; the model keeps a node's
	// own taints for ever, upstream's controller removes (or swaps) them
	// when they do not match the node's Ready condition, racing the taint
	// eviction controller. Counterfactual: the input has no such taint.
	InputControllerTaint = "controller taint in the input"
	// TerminalPod: upstream's taint eviction controller deletes a Failed
	// pod on a tainted node as any other (processPodOnNode reads no
	// phase); the model leaves Failed pods to the pod garbage collector,
	// which may delete them at any time. Counterfactual: no Failed pod.
	TerminalPod = "terminal pod"
	// TerminatingPod: a pod already being deleted is deleted again
	// upstream (a no-op: it keeps its deletion timestamp); the model
	// skips it. Counterfactual: the eviction of the pods the input gives
	// Terminating is left out of the comparison (whether the pod garbage
	// collector force-deletes them stays in it).
	TerminatingPod = "terminating pod"
	// KubeletRejects: a bound Pending pod on a node with a NoExecute taint
	// of its own that it does not tolerate is deleted by upstream's taint
	// eviction controller at once; the model's kubelet rejects it at
	// admission (Failed), as a real kubelet would if it came first, on a
	// Ready node at once, on one that is not Ready when it is back (the
	// node controller judges the pods of a node it taints not-ready or
	// unreachable, not those of one whose taint the zone states hold
	// back). Counterfactual: the pod is Running.
	KubeletRejects = "kubelet rejects"
	// Unexplained: no known class removes the disagreement.
	Unexplained = "unexplained"
)

// zoneNodeConditions returns the Ready conditions of c's nodes per zone,
// as monitorNodeHealth gathers them for handleDisruption.
func (c *Case) zoneNodeConditions() map[int][]*v1.NodeCondition {
	out := map[int][]*v1.NodeCondition{}
	for _, n := range c.Nodes {
		if n.ExcludeDisruption {
			continue
		}
		out[n.Zone] = append(out[n.Zone], &v1.NodeCondition{Type: v1.NodeReady, Status: v1.ConditionStatus(n.Ready.String())})
	}
	return out
}

// ZoneStates returns the state of each zone of c (sorted by zone) by
// the node lifecycle controller's own ComputeZoneState, at the default
// --unhealthy-zone-threshold.
func (up *Upstream) ZoneStates(c *Case) []nodelifecycle.ZoneState {
	byZone := c.zoneNodeConditions()
	var zones []int
	for z := range byZone {
		zones = append(zones, z)
	}
	slices.Sort(zones)
	var out []nodelifecycle.ZoneState
	for _, z := range zones {
		_, st := up.zones.ComputeZoneState(byZone[z])
		out = append(out, st)
	}
	return out
}

// The zone states' values (nodelifecycle's stateFullDisruption and
// statePartialDisruption).
const (
	fullDisruption    nodelifecycle.ZoneState = "FullDisruption"
	partialDisruption nodelifecycle.ZoneState = "PartialDisruption"
)

func (up *Upstream) classes() []classify.Class[*Case] {
	dropPods := func(c *Case, drop func(Pod) bool) *Case {
		d := *c
		d.Pods = slices.DeleteFunc(slices.Clone(c.Pods), drop)
		return &d
	}
	hasPod := func(c *Case, f func(Pod) bool) bool { return slices.ContainsFunc(c.Pods, f) }
	hasNode := func(c *Case, f func(Node) bool) bool { return slices.ContainsFunc(c.Nodes, f) }
	controllerTaint := func(t Taint) bool { return t.Key == notReadyKey || t.Key == unreachableKey }
	pending := func(p Pod) bool { return p.Phase == Pending }
	return []classify.Class[*Case]{{
		Name: DownTaintUnexplored,
		Applies: func(c *Case) bool {
			return !c.DownTaintUnseen && hasNode(c, func(n Node) bool { return n.Ready == ConditionFalse })
		},
		Fix: func(c *Case) *Case { d := *c; d.DownTaintUnseen = true; return &d },
	}, {
		Name: InputControllerTaint,
		Applies: func(c *Case) bool {
			return hasNode(c, func(n Node) bool { return slices.ContainsFunc(n.Taints, controllerTaint) })
		},
		Fix: func(c *Case) *Case {
			d := *c
			d.Nodes = slices.Clone(c.Nodes)
			for i := range d.Nodes {
				d.Nodes[i].Taints = slices.DeleteFunc(slices.Clone(d.Nodes[i].Taints), controllerTaint)
			}
			return &d
		},
	}, {
		Name:    TerminalPod,
		Applies: func(c *Case) bool { return hasPod(c, func(p Pod) bool { return p.Phase == Failed }) },
		Fix:     func(c *Case) *Case { return dropPods(c, func(p Pod) bool { return p.Phase == Failed }) },
	}, {
		Name: TerminatingPod,
		Applies: func(c *Case) bool {
			return !c.TerminatingEvictionUnseen && hasPod(c, func(p Pod) bool { return p.Phase == Terminating })
		},
		Fix: func(c *Case) *Case { d := *c; d.TerminatingEvictionUnseen = true; return &d },
	}, {
		Name:    KubeletRejects,
		Applies: func(c *Case) bool { return hasPod(c, pending) },
		Fix: func(c *Case) *Case {
			d := *c
			d.Pods = slices.Clone(c.Pods)
			for i := range d.Pods {
				if pending(d.Pods[i]) {
					d.Pods[i].Phase = Running
				}
			}
			return &d
		},
	}}
}

// Verdict is the comparison of one case.
type Verdict = classify.Verdict[Result]

// Check compares the model (with plant, normally nil) with upstream on c
// and names the cause of a disagreement (classify.Compare).
func (up *Upstream) Check(ctx context.Context, c *Case, plant Plant) (Verdict, error) {
	return classify.Compare(up.classes(), c, func(d *Case) (Result, error) { return d.Model(plant) },
		func(d *Case) (Result, error) { return up.Run(ctx, d) }, Result.Equal, Unexplained)
}
