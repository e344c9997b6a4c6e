package lifecyclediff

import (
	"fmt"
	"slices"
	"strings"
)

// Condition is a node's Ready condition as the node lifecycle controller
// reads it: True, False (the kubelet reports the node not Ready) or
// Unknown (the kubelet stopped reporting).
type Condition uint8

const (
	ConditionTrue Condition = iota
	ConditionFalse
	ConditionUnknown
)

func (c Condition) String() string { return [...]string{"True", "False", "Unknown"}[c] }

// Taint is a node's own taint (spec.taints in the input).
type Taint struct{ Key, Value, Effect string }

func (t Taint) String() string { return fmt.Sprintf("%s=%s:%s", t.Key, t.Value, t.Effect) }

// Toleration is a pod's toleration; Seconds nil is no tolerationSeconds.
type Toleration struct {
	Key, Operator, Value, Effect string
	Seconds                      *int64
}

func (t Toleration) String() string {
	s := fmt.Sprintf("%s %s %q :%s", t.Key, t.Operator, t.Value, t.Effect)
	if t.Seconds != nil {
		s += fmt.Sprintf(" %ds", *t.Seconds)
	}
	return s
}

// Node is a node of the snapshot: its zone (topology.kubernetes.io/zone
// z<Zone>), its Ready condition, its own taints, and whether it carries
// node.kubernetes.io/exclude-disruption, which leaves it out of the node
// lifecycle controller's zone states. OutOfService, for a node that is
// not Ready: an operator taints it
// node.kubernetes.io/out-of-service=nodeshutdown:NoExecute (a node lost
// for good) once the node lifecycle controller has handled it.
type Node struct {
	Zone              int
	Ready             Condition
	Taints            []Taint
	ExcludeDisruption bool
	OutOfService      bool
}

// Phase is a pod's phase in the snapshot; every pod is bound to a node.
type Phase uint8

const (
	Pending Phase = iota
	Running
	// Terminating: Running with a deletion timestamp.
	Terminating
	Failed
)

func (p Phase) String() string { return [...]string{"Pending", "Running", "Terminating", "Failed"}[p] }

// Pod is a bare pod bound to Node with its own tolerations (before the
// DefaultTolerationSeconds admission plugin's).
type Pod struct {
	Node        int
	Phase       Phase
	Tolerations []Toleration
}

// Case is a snapshot: nodes with their Ready conditions and taints, pods
// bound to them. The flags are counterfactuals of the divergence classes
// (classify.go); a generated case has none set.
type Case struct {
	Nodes []Node
	Pods  []Pod
	// DownTaintUnseen compares which NoExecute and NoSchedule taints a
	// node that is not Ready carries, and the seconds of the pods evicted
	// after a toleration, by presence only.
	DownTaintUnseen bool
	// TerminatingEvictionUnseen leaves the eviction of the pods the input
	// gives Terminating out of the comparison (their force deletion by
	// the pod garbage collector stays in it).
	TerminatingEvictionUnseen bool
	// TaintEvictionOnly leaves the node lifecycle controller's passes out
	// of Upstream.Run: the taint eviction controller judges the nodes'
	// taints as the case gives them (the controller's own among them), as
	// it does between two of the controller's passes. The replay of the
	// taint manager's steps sets it; Model does not read it.
	TaintEvictionOnly bool
}

func (c *Case) String() string {
	var b strings.Builder
	for i, n := range c.Nodes {
		excluded := ""
		if n.ExcludeDisruption {
			excluded = " exclude-disruption"
		}
		if n.OutOfService {
			excluded += " out-of-service"
		}
		fmt.Fprintf(&b, "node n%d zone z%d%s Ready=%s taints %v\n", i, n.Zone, excluded, n.Ready, n.Taints)
	}
	for i, p := range c.Pods {
		fmt.Fprintf(&b, "pod p%d on n%d %s tolerations %v\n", i, p.Node, p.Phase, p.Tolerations)
	}
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{c.DownTaintUnseen, "down-taint-unseen"},
		{c.TerminatingEvictionUnseen, "terminating-eviction-unseen"},
		{c.TaintEvictionOnly, "taint-eviction-only"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	if len(flags) > 0 {
		fmt.Fprintf(&b, "counterfactuals: %s\n", strings.Join(flags, ", "))
	}
	return b.String()
}

// NodeName and PodName name the objects on both sides.
func NodeName(i int) string { return fmt.Sprint("n", i) }
func PodName(i int) string  { return fmt.Sprint("p", i) }

// ZoneName is node zone z's topology.kubernetes.io/zone.
func ZoneName(z int) string { return fmt.Sprint("z", z) }

// Eviction is what becomes of a pod on its node.
type Eviction uint8

const (
	// Never: the pod stays on the node.
	Never Eviction = iota
	// AtOnce: deleted as soon as the taint manager sees the taints.
	AtOnce
	// Later: deleted tolerationSeconds after the taint, unless it goes.
	Later
	// Rejected: the kubelet's admission fails the pod (model only: a
	// bound Pending pod on a Ready node whose NoExecute taint it does not
	// tolerate).
	Rejected
)

func (e Eviction) String() string { return [...]string{"never", "at once", "later", "rejected"}[e] }

// PodAnswer is the fate of one pod: its eviction and, for Later, after
// how many seconds; ForceDeleted: the pod garbage collector's
// gcTerminating removes it, Terminating on a node that is not Ready and
// carries the out-of-service taint (once any later eviction is due).
type PodAnswer struct {
	Eviction     Eviction
	Seconds      int64
	ForceDeleted bool
}

func (a PodAnswer) String() string {
	s := a.Eviction.String()
	if a.Eviction == Later {
		s = fmt.Sprintf("later (%d s)", a.Seconds)
	}
	if a.ForceDeleted {
		s += ", force-deleted"
	}
	return s
}

// NodeAnswer is the node lifecycle controller's taints on a node: the
// keys among node.kubernetes.io/not-ready and unreachable the node
// carries with effect NoExecute, and with effect NoSchedule, sorted.
type NodeAnswer struct {
	NoExecute, NoSchedule []string
}

// Result is one side's answer to a Case.
type Result struct {
	Nodes []NodeAnswer
	Pods  []PodAnswer
	// The case's counterfactual flags, for Equal; evictionUnseen[i]:
	// pod i's eviction is left out of the comparison.
	downTaintUnseen bool
	evictionUnseen  []bool
}

func (r Result) String() string {
	var b strings.Builder
	for i, n := range r.Nodes {
		fmt.Fprintf(&b, "  n%d NoExecute %v NoSchedule %v\n", i, n.NoExecute, n.NoSchedule)
	}
	for i, p := range r.Pods {
		fmt.Fprintf(&b, "  p%d %s\n", i, p)
	}
	return b.String()
}

// Equal compares two answers, by presence only where the case's
// counterfactuals say so.
func (r Result) Equal(o Result) bool {
	if len(r.Nodes) != len(o.Nodes) || len(r.Pods) != len(o.Pods) {
		return false
	}
	keys := func(a, b []string, presence bool) bool {
		if presence {
			return (len(a) == 0) == (len(b) == 0)
		}
		return slices.Equal(a, b)
	}
	for i := range r.Nodes {
		if !keys(r.Nodes[i].NoExecute, o.Nodes[i].NoExecute, r.downTaintUnseen) ||
			!keys(r.Nodes[i].NoSchedule, o.Nodes[i].NoSchedule, r.downTaintUnseen) {
			return false
		}
	}
	for i := range r.Pods {
		a, b := r.Pods[i], o.Pods[i]
		if a.ForceDeleted != b.ForceDeleted {
			return false
		}
		if i < len(r.evictionUnseen) && r.evictionUnseen[i] {
			continue
		}
		if a.Eviction != b.Eviction || a.Eviction == Later && a.Seconds != b.Seconds && !r.downTaintUnseen {
			return false
		}
	}
	return true
}

// The node lifecycle controller's taint keys (v1.TaintNodeNotReady,
// v1.TaintNodeUnreachable), and the operator's out-of-service taint
// (v1.TaintNodeOutOfService, with the value the Kubernetes documentation
// gives it).
const (
	notReadyKey       = "node.kubernetes.io/not-ready"
	unreachableKey    = "node.kubernetes.io/unreachable"
	outOfServiceKey   = "node.kubernetes.io/out-of-service"
	outOfServiceValue = "nodeshutdown"
)

// newResult is an empty answer to c, with c's counterfactuals.
func (c *Case) newResult() Result {
	r := Result{Pods: make([]PodAnswer, len(c.Pods)), downTaintUnseen: c.DownTaintUnseen}
	if c.TerminatingEvictionUnseen {
		r.evictionUnseen = make([]bool, len(c.Pods))
		for i, p := range c.Pods {
			r.evictionUnseen[i] = p.Phase == Terminating
		}
	}
	return r
}

// controllerKeys returns, sorted, the keys among the node lifecycle
// controller's that taints carry with effect.
func controllerKeys(taints []Taint, effect string) []string {
	var out []string
	for _, t := range taints {
		if t.Effect == effect && (t.Key == notReadyKey || t.Key == unreachableKey) && !slices.Contains(out, t.Key) {
			out = append(out, t.Key)
		}
	}
	slices.Sort(out)
	return out
}
