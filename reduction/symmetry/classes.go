package symmetry

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Analysis is the node symmetry of a Universe: the classes of
// interchangeable nodes and the rules that restricted them.
type Analysis struct {
	// Classes partition the node indices; each class is ascending and the
	// classes are ordered by their first node. Singletons included.
	Classes [][]int
	// Decisions are the rules that fired (pinned nodes, node symmetry
	// off, pod slots fixed).
	Decisions []Decision
	// Pods says whether pod slots are permuted too (no pod rule fired).
	Pods bool
	// DomainKey is the topology key whose domains are interchangeable
	// (domains.go), when some are.
	DomainKey string
	// domains are the groups of interchangeable domains.
	domains []domainGroup
}

// Domains returns the groups of interchangeable topology domains:
// Domains()[g][d] lists the classes of domain d of group g, and the
// domains of a group have classes of the same sizes in the same order.
func (a Analysis) Domains() [][][][]int {
	out := make([][][][]int, len(a.domains))
	for i, g := range a.domains {
		out[i] = g.blocks
	}
	return out
}

// Off reports whether some rule switched symmetry off.
func (a Analysis) Off() bool {
	for _, d := range a.Decisions {
		if d.Off {
			return true
		}
	}
	return false
}

// Trivial reports whether every class is a singleton: there are no
// nodes to permute (pods may still be, see Pods).
func (a Analysis) Trivial() bool {
	if len(a.domains) > 0 {
		return false
	}
	for _, c := range a.Classes {
		if len(c) > 1 {
			return false
		}
	}
	return true
}

// Classes partitions the nodes of a compiled Universe into classes of
// interchangeable nodes (see the package documentation), given the
// symmetry facts of the processes that run on it
// (model.SymmetryFactsOf). An uncompiled Universe, or one where a fact
// switches symmetry off, gets singletons.
func Classes(u *model.Universe, facts []model.SymmetryFact) [][]int { return Analyze(u, facts).Classes }

// Analyze computes the classes and says which facts and rules restricted
// them: the processes' node facts, the universe's own rules, then the
// processes' pod-slot facts.
func Analyze(u *model.Universe, facts []model.SymmetryFact) Analysis {
	var a Analysis
	if !u.Compiled() {
		a.Decisions = append(a.Decisions, Decision{Rule: "Uncompiled", Off: true, PodsFixed: true, Reason: "the universe is not compiled: no NodeFit to compare"})
		a.Classes = singletons(len(u.Nodes))
		return a
	}
	var nodeDecisions, podDecisions []Decision
	for _, f := range facts {
		if f.NodesInIndexOrder || len(f.PinnedNodes) > 0 {
			nodeDecisions = append(nodeDecisions, decision(f))
		} else if f.PodSlotsInOrder {
			podDecisions = append(podDecisions, decision(f))
		}
	}
	for _, r := range rules() {
		if d := r.Decide(u); d.Rule != "" {
			nodeDecisions = append(nodeDecisions, d)
		}
	}
	pinned := make([]bool, len(u.Nodes))
	a.Pods = true
	for _, d := range append(nodeDecisions, podDecisions...) {
		a.Decisions = append(a.Decisions, d)
		for _, n := range d.Pinned {
			if n >= 0 && n < len(pinned) {
				pinned[n] = true
			}
		}
		if d.PodsFixed {
			a.Pods = false
		}
	}
	if a.Off() {
		a.Classes = singletons(len(u.Nodes))
		return a
	}
	byKey := map[string]int{}
	read := u.NodeLabelKeysRead()
	for n := range u.Nodes {
		if pinned[n] {
			a.Classes = append(a.Classes, []int{n})
			continue
		}
		k := staticKey(u, n, read)
		if i, ok := byKey[k]; ok {
			a.Classes[i] = append(a.Classes[i], n)
			continue
		}
		byKey[k] = len(a.Classes)
		a.Classes = append(a.Classes, []int{n})
	}
	a.DomainKey, a.domains = domainGroups(u, a.Classes, pinned)
	return a
}

func singletons(n int) [][]int {
	out := make([][]int, n)
	for i := range out {
		out[i] = []int{i}
	}
	return out
}

// staticKey renders everything static that a step can read of node n,
// except its name and hostname label values: nodes with equal keys are
// interchangeable. NodeFit is included per template so that any
// nodeSelector, affinity term, nodeName or kubernetes.io/os pod label
// (the kubelet's admission) that tells nodes apart (for
// example one naming a hostname) separates them; of the other labels only
// those whose keys are read (the topology keys, model.NodeLabelKeysRead)
// are, so nodes that differ in a label nothing reads, or only in the node
// type the input grouped them by, are interchangeable.
func staticKey(u *model.Universe, n int, read map[string]bool) string {
	node := &u.Nodes[n]
	var b strings.Builder
	fmt.Fprintf(&b, "cpu=%d mem=%d rcpu=%d rmem=%d pods=%d rpods=%d\n",
		node.CPU, node.Memory, node.ReservedCPU, node.ReservedMemory, node.MaxPods, node.ReservedPods)
	// The kubelet's memory eviction thresholds (its node-pressure
	// eviction manager), which a percentage of capacity makes differ
	// between nodes of equal allocatable memory.
	fmt.Fprintf(&b, "eviction=%+v\n", node.Eviction)
	if len(u.ScalarResources) > 0 {
		// The scalar resources (extended resources such as nvidia.com/gpu)
		// decide fit like cpu and memory; the kubelet reads whether the
		// node lists them.
		fmt.Fprintf(&b, "scalar=%v rscalar=%v listed=%v\n", node.Scalar, node.ReservedScalar, node.ScalarListed)
	}
	keys := make([]string, 0, len(node.Labels))
	for k := range node.Labels {
		if !isHostnameKey(u, k) && read[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "label %q=%q\n", k, node.Labels[k])
	}
	// Every node carries the hostname keys after Compile; record their
	// presence so that a node lacking one (impossible today) stays apart.
	for _, k := range hostnameKeys(u) {
		_, ok := node.Labels[k]
		fmt.Fprintf(&b, "has %q=%t\n", k, ok)
	}
	taints := make([]string, len(node.Taints))
	for i, t := range node.Taints {
		taints[i] = fmt.Sprintf("%q=%q:%s", t.Key, t.Value, t.Effect)
	}
	sort.Strings(taints)
	for _, t := range taints {
		fmt.Fprintf(&b, "taint %s\n", t)
	}
	for t := range u.Templates {
		fmt.Fprintf(&b, "fit %d %+v\n", t, u.Templates[t].Fit[n])
	}
	return b.String()
}
