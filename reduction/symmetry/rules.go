package symmetry

import (
	"github.com/kivi-go/kivi/model"
)

// Decision is what one rule says about a Universe: nothing (the zero
// value), single out some nodes (Pinned), switch node symmetry off for the
// whole universe (Off), or keep pod slots in place (PodsFixed, podrules.go).
// Reason says why, for reports and tests.
type Decision struct {
	Rule      string
	Off       bool
	PodsFixed bool
	Pinned    []int
	Reason    string
}

// rule is one way in which the model refers to a node by identity or by
// index order.
type rule interface {
	Name() string
	Decide(u *model.Universe) Decision
}

// rules are the symmetry breakers of the universe's own data (labels);
// the processes' behaviour declares its own (model.SymmetryBreaker:
// the scheduler's lowest-index tie-break, the descheduler's node walk and
// eviction limits, nodeName pins, nodeFailure targets, the node
// controller's and the CPU pattern's slot orders).
func rules() []rule {
	return []rule{
		sharedHostnames{},
	}
}

// decision turns a process's symmetry fact into a Decision.
func decision(f model.SymmetryFact) Decision {
	return Decision{Rule: f.Rule, Off: f.NodesInIndexOrder, Pinned: f.PinnedNodes, PodsFixed: f.PodSlotsInOrder, Reason: f.Reason}
}

// isHostnameKey reports whether key is one of u's hostname keys, whose
// values Compile sets to the node's own name: kubernetes.io/hostname
// always, Kivi's `hostname` only with its alias on. Without the alias
// `hostname` is an ordinary label (a manifest may give it values that
// nodes share or that no node name has), so it separates nodes like any
// other.
func isHostnameKey(u *model.Universe, key string) bool {
	return key == model.HostnameKey || key == model.KiviHostnameKey && u.Options.KiviHostnameAlias
}

// hostnameKeys lists u's hostname keys.
func hostnameKeys(u *model.Universe) []string {
	if u.Options.KiviHostnameAlias {
		return []string{model.HostnameKey, model.KiviHostnameKey}
	}
	return []string{model.HostnameKey}
}

// sharedHostnames: a hostname value that two nodes share (a manifest may
// set the label) makes them one spread domain; permuting one of them with
// a node of its own domain would merge and split domains. Such nodes stay
// put.
type sharedHostnames struct{}

func (sharedHostnames) Name() string { return "SharedHostname" }

func (r sharedHostnames) Decide(u *model.Universe) Decision {
	var pinned []int
	for n := range u.Nodes {
		for m := range u.Nodes {
			if m != n && sameHostname(u, &u.Nodes[n], &u.Nodes[m]) {
				pinned = append(pinned, n)
				break
			}
		}
	}
	if len(pinned) == 0 {
		return Decision{}
	}
	return Decision{Rule: r.Name(), Pinned: pinned, Reason: "nodes share a hostname label value"}
}

func sameHostname(u *model.Universe, a, b *model.Node) bool {
	for _, k := range hostnameKeys(u) {
		if va, ok := a.Labels[k]; ok && va == b.Labels[k] {
			return true
		}
	}
	return false
}
