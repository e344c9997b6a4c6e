package scheddiff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/model"
)

// Snapshot is one scheduling question in the features both schedulers
// share: nodes, the Running pods bound to them, and one pending pod. It is
// translated to API objects (ToAPI) and to the model (ToModel) from the
// same values, so any difference in the answers comes from the
// schedulers.
type Snapshot struct {
	Nodes    []Node
	Existing []Pod
	Pending  Pending
	// KiviInput: the snapshot stands for one of Kivi's inputs (a built-in
	// case, a case file), whose model nodes also carry Kivi's `hostname`
	// alias (model.Options.KiviHostnameAlias); otherwise it stands for
	// Kubernetes manifests, read without the alias.
	KiviInput bool
	// Config is a KubeSchedulerConfiguration document whose one profile
	// both schedulers run ("": the default profile): the model reads it
	// with the manifest reader, the real framework is built from it
	// (NewRealConfig).
	Config string
}

// Node is one node. Node i is named "n<i+1>" on both sides; both sides
// also label it kubernetes.io/hostname=<name> (the kubelet does; the model
// adds it in Compile), so Labels holds the other labels.
type Node struct {
	Labels map[string]string
	Taints []model.Taint
	// MilliCPU and MemMiB are allocatable: model units are millicores
	// and MiB.
	MilliCPU, MemMiB int64
	MaxPods          int
	// Scalar is the node's allocatable of extended resources
	// (nvidia.com/gpu), listed when present, even at 0.
	Scalar map[string]int64
	// Ready false: the node is not Ready; Down says how the node
	// lifecycle controller has handled it, which sets its Ready condition
	// and taints on the real side and its model.NodeStatus in the model.
	Ready bool
	Down  NodeDown
}

// Requests are a pod's (single container's) requests.
type Requests struct {
	MilliCPU, MemMiB int64
	// Scalar are extended resource requests (nvidia.com/gpu), written as
	// equal requests and limits, as the API server requires.
	Scalar map[string]int64
	// ExplicitZero: a zero request is written as "0" in the API object
	// rather than left out. Upstream's LeastAllocated scores a missing
	// request as 100m CPU / 200Mi memory, and so does the model for
	// requests a manifest leaves out (Requests.nonZero).
	ExplicitZero bool
}

// Pod is a Running pod bound to node Node.
type Pod struct {
	Node   int
	Labels map[string]string
	Req    Requests
	// SameRS: the pod belongs to the pending pod's ReplicaSet (same owner
	// and labels), which the system default spread constraints count; it
	// then has the pending pod's requests and inter-pod affinity.
	SameRS bool
	// PodAffinity and PodAntiAffinity are the pod's inter-pod terms
	// (affinity.go), unless SameRS.
	PodAffinity, PodAntiAffinity *model.PodAffinityDecl
	// Bare: no controller owns the pod (never with SameRS), so it has no
	// pod-template-hash; every other pod not of the pending pod's
	// ReplicaSet has a ReplicaSet, and a hash, of its own.
	Bare bool
	// Ports are its container ports (ports.go), unless SameRS.
	Ports Ports
}

// Pending is the pod to schedule. It belongs to ReplicaSet "incoming"
// (model: deployment "incoming"), so without spread constraints of its own
// it gets the system default constraints.
type Pending struct {
	Labels       map[string]string
	Req          Requests
	NodeSelector map[string]string
	// Required are node selector terms (ORed), each MatchExpressions only
	// (a NodeSelectorTerm has no matchLabels).
	Required    []model.Selector
	Preferred   []model.PreferredTerm
	Tolerations []model.Toleration
	Spread      []Spread
	// PodAffinity and PodAntiAffinity are the pod's inter-pod terms.
	PodAffinity, PodAntiAffinity *model.PodAffinityDecl
	// Ports are its container ports (ports.go), its ReplicaSet's too.
	Ports Ports
	// KiviLifecycle: the pod comes from a universe with Kivi's lifecycle,
	// whose templates do not get the DefaultTolerationSeconds admission
	// plugin's tolerations (model/noexecute.go); otherwise the real pod
	// gets them, as the API server gives them to every pod.
	KiviLifecycle bool
}

// Spread is a topology spread constraint with every field the model has.
type Spread struct {
	MaxSkew int
	Key     string
	When    model.WhenUnsatisfiable
	// MinDomains 0 is unset.
	MinDomains int
	// AffinityPolicy and TaintsPolicy: "" unset, "Honor" or "Ignore".
	AffinityPolicy, TaintsPolicy string
	Selector                     *model.Selector
	// MatchLabelKeys are merged into the selector with the pending pod's
	// values (by the API server at creation and by the plugin).
	MatchLabelKeys []string
}

// NodeName is the name of node i on both sides.
func NodeName(i int) string { return fmt.Sprintf("n%d", i+1) }

// ToModel translates s to the model: one template per existing pod not in
// the pending pod's ReplicaSet (so that each carries exactly its labels),
// the pending pod's template for the rest, the pending pod in the last pod
// slot, whose index is returned. Missing requests are the manifest
// reader's non-zero requests; a node that is not Ready has the status of
// its NodeDown.
func (s *Snapshot) ToModel() (*model.Universe, *model.State, int, error) {
	var u model.Universe
	for i, n := range s.Nodes {
		u.Nodes = append(u.Nodes, model.Node{Name: NodeName(i), CPU: n.MilliCPU, Memory: n.MemMiB,
			MaxPods: n.MaxPods, Labels: maps.Clone(n.Labels), Taints: slices.Clone(n.Taints)})
	}
	p := &s.Pending
	in := model.PodTemplate{Name: "incoming", Labels: maps.Clone(p.Labels), CPU: p.Req.MilliCPU, Memory: p.Req.MemMiB,
		NodeSelector: maps.Clone(p.NodeSelector), Required: p.Required, Preferred: p.Preferred, Tolerations: p.Tolerations,
		HostPorts: p.Ports.hostPorts()}
	in.NonZeroCPU, in.NonZeroMemory = p.Req.nonZero()
	setPodAffinity(&in, p.PodAffinity, p.PodAntiAffinity)
	for _, c := range p.Spread {
		in.Spread = append(in.Spread, model.SpreadConstraint{MaxSkew: c.MaxSkew, MinDomains: c.MinDomains,
			TopologyKey: c.Key, When: c.When, Selector: c.Selector, MatchLabelKeys: c.MatchLabelKeys,
			HonorNodeAffinity: c.AffinityPolicy != "Ignore", HonorNodeTaints: c.TaintsPolicy == "Honor"})
	}
	u.Templates = append(u.Templates, in)
	// Deployment 0 owns the pending pod and its ReplicaSet's pods; every
	// other pod has a deployment of its own.
	dep := func(name string, tmpl int) {
		u.Configs = append(u.Configs, model.DeploymentConfig{PodTemplate: tmpl})
		u.Deployments = append(u.Deployments, model.Deployment{Name: name})
	}
	dep("incoming", 0)
	// owner[i] is existing pod i's deployment (-1: bare), tmpl[i] its
	// template.
	owner, tmpl := make([]int, len(s.Existing)), make([]int, len(s.Existing))
	for i, e := range s.Existing {
		if e.SameRS {
			continue
		}
		t := model.PodTemplate{Name: fmt.Sprintf("pod%d", i+1), Labels: maps.Clone(e.Labels), CPU: e.Req.MilliCPU, Memory: e.Req.MemMiB,
			HostPorts: e.Ports.hostPorts()}
		t.NonZeroCPU, t.NonZeroMemory = e.Req.nonZero()
		setPodAffinity(&t, e.PodAffinity, e.PodAntiAffinity)
		u.Templates = append(u.Templates, t)
		tmpl[i], owner[i] = len(u.Templates)-1, -1
		if !e.Bare {
			dep(fmt.Sprintf("pod%d", i+1), len(u.Templates)-1)
			owner[i] = len(u.Deployments) - 1
		}
	}
	s.scalarToModel(&u)
	u.PodSlots = len(s.Existing) + 1
	u.Options.KiviHostnameAlias = s.KiviInput
	if s.Config != "" {
		prof, _, err := manifest.ReadSchedulerProfile("config.yaml", []byte(s.Config), s.nodeLabelSets())
		if err != nil {
			return nil, nil, 0, err
		}
		u.Scheduler.Profile = prof
	}
	if err := u.Compile(); err != nil {
		return nil, nil, 0, err
	}
	st := model.NewState(&u, 0)
	for d := range u.Deployments {
		st.Deps[d].Active = true
		st.Deps[d].Config = uint8(d)
		st.Deps[d].RS[0] = model.ReplicaSetState{Template: uint8(u.Configs[d].PodTemplate + 1)}
	}
	for i, e := range s.Existing {
		t := tmpl[i]
		st.Pods[i] = model.PodState{Phase: model.Running, Owner: uint8(owner[i] + 1), Template: uint8(t),
			Node: uint16(e.Node + 1), CPU: int32(u.Templates[t].CPU), Memory: int32(u.Templates[t].Memory)}
		if owner[i] >= 0 {
			st.Deps[owner[i]].Replicas++
			st.Deps[owner[i]].RS[0].Replicas++
		}
	}
	pod := len(s.Existing)
	st.Pods[pod] = model.PodState{Phase: model.Pending, Owner: 1, Template: 0,
		CPU: int32(p.Req.MilliCPU), Memory: int32(p.Req.MemMiB)}
	st.Deps[0].Replicas++
	st.Deps[0].RS[0].Replicas++
	for i, n := range s.Nodes {
		if !n.Ready {
			st.Nodes[i].Status = n.Down.modelStatus()
		}
	}
	return &u, st, pod, nil
}

// String renders s compactly for disagreement reports.
func (s *Snapshot) String() string {
	var b strings.Builder
	if s.KiviInput {
		b.WriteString("  Kivi input: the model's nodes have the hostname alias\n")
	}
	if s.Config != "" {
		b.WriteString("  scheduler configuration:\n    " + strings.ReplaceAll(strings.TrimSpace(s.Config), "\n", "\n    ") + "\n")
	}
	for i, n := range s.Nodes {
		fmt.Fprintf(&b, "  node %s: cpu %dm mem %dMi pods %d ready %t labels %v", NodeName(i), n.MilliCPU, n.MemMiB, n.MaxPods, n.Ready, sortedMap(n.Labels))
		if !n.Ready {
			fmt.Fprintf(&b, " down %s", n.Down)
		}
		if len(n.Scalar) > 0 {
			fmt.Fprintf(&b, " scalar %v", n.Scalar)
		}
		if len(n.Taints) > 0 {
			fmt.Fprintf(&b, " taints %v", n.Taints)
		}
		b.WriteByte('\n')
	}
	for i, e := range s.Existing {
		fmt.Fprintf(&b, "  pod%d on %s: %s labels %v sameRS %t bare %t%s%s\n", i+1, NodeName(e.Node), e.Req, sortedMap(e.Labels), e.SameRS, e.Bare, affinityString(e.PodAffinity, e.PodAntiAffinity), e.Ports)
	}
	p := &s.Pending
	fmt.Fprintf(&b, "  pending: %s labels %v%s", p.Req, sortedMap(p.Labels), p.Ports)
	if len(p.NodeSelector) > 0 {
		fmt.Fprintf(&b, " nodeSelector %v", sortedMap(p.NodeSelector))
	}
	if len(p.Required) > 0 {
		fmt.Fprintf(&b, " required %s", terms(p.Required))
	}
	for _, t := range p.Preferred {
		fmt.Fprintf(&b, " preferred(%d %s)", t.Weight, terms([]model.Selector{t.Term}))
	}
	if len(p.Tolerations) > 0 {
		fmt.Fprintf(&b, " tolerations %v", p.Tolerations)
	}
	b.WriteString(affinityString(p.PodAffinity, p.PodAntiAffinity))
	for _, c := range p.Spread {
		fmt.Fprintf(&b, "\n    spread %s maxSkew %d %s minDomains %d affinity %q taints %q selector %s matchLabelKeys %v",
			c.Key, c.MaxSkew, c.When, c.MinDomains, c.AffinityPolicy, c.TaintsPolicy, selector(c.Selector), c.MatchLabelKeys)
	}
	b.WriteByte('\n')
	return b.String()
}

func (r Requests) String() string {
	s := fmt.Sprintf("req %dm/%dMi", r.MilliCPU, r.MemMiB)
	if len(r.Scalar) > 0 {
		s += fmt.Sprintf(" %v", r.Scalar)
	}
	if r.ExplicitZero {
		s += " (zeros explicit)"
	}
	return s
}

func sortedMap(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func terms(ts []model.Selector) string {
	var parts []string
	for i := range ts {
		parts = append(parts, selector(&ts[i]))
	}
	return strings.Join(parts, " OR ")
}

func selector(s *model.Selector) string {
	if s == nil {
		return "nil"
	}
	var parts []string
	if len(s.MatchLabels) > 0 {
		parts = append(parts, sortedMap(s.MatchLabels))
	}
	for _, r := range s.MatchExpressions {
		parts = append(parts, fmt.Sprintf("%s %s %v", r.Key, r.Operator, r.Values))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// nodeLabelSets are the nodes' label sets.
func (s *Snapshot) nodeLabelSets() []map[string]string {
	out := make([]map[string]string, len(s.Nodes))
	for i, n := range s.Nodes {
		out[i] = n.Labels
	}
	return out
}
