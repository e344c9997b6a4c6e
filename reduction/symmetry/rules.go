package symmetry

import (
	"fmt"

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

// rules are every symmetry breaker, checked in this order.
func rules() []rule {
	return []rule{
		lowestIndexTieBreak{},
		deschedulerLimitedNodeWalk{},
		nodeNamePins{},
		nodeFailureTargets{},
		sharedHostnames{},
	}
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

// lowestIndexTieBreak: with model.LowestIndex the scheduler binds to the
// first top-scoring node in index order, so a pod lands on a different
// node's content after a permutation (controllers/scheduler/scheduler.go,
// scheduleOne).
type lowestIndexTieBreak struct{}

func (lowestIndexTieBreak) Name() string { return "LowestIndexTieBreak" }

func (r lowestIndexTieBreak) Decide(u *model.Universe) Decision {
	if u.Options.TieBreak != model.LowestIndex {
		return Decision{}
	}
	return Decision{Rule: r.Name(), Off: true, Reason: "the scheduler takes the lowest-index node among ties"}
}

// deschedulerLimitedNodeWalk: RemoveDuplicates lists duplicates walking the
// Ready nodes in index order and evicts in that order
// (controllers/descheduler/removeduplicates.go); with a total or namespace
// eviction limit the walk is cut short, so the nodes with the lowest
// indices lose their duplicates first. Without those limits every node's
// evictions depend on that node alone (the per-node limit is per node)
// and the order only changes trace lines.
type deschedulerLimitedNodeWalk struct{}

func (deschedulerLimitedNodeWalk) Name() string { return "DeschedulerLimitedNodeWalk" }

func (r deschedulerLimitedNodeWalk) Decide(u *model.Universe) Decision {
	d := u.Descheduler
	if d == nil || (d.MaxTotal == 0 && d.MaxPerNamespace == 0) {
		return Decision{}
	}
	for _, p := range d.Profiles {
		if hasPlugin(p, model.RemoveDuplicates) {
			return Decision{Rule: r.Name(), Off: true, Reason: fmt.Sprintf(
				"profile %q runs RemoveDuplicates in node index order under a total (%d) or namespace (%d) eviction limit",
				p.Name, d.MaxTotal, d.MaxPerNamespace)}
		}
	}
	return Decision{}
}

// nodeNamePins: a template's nodeName binds its pods to one node without
// the scheduler (controllers/deployment/replicaset.go), so that node is
// named by identity.
type nodeNamePins struct{}

func (nodeNamePins) Name() string { return "NodeNamePin" }

func (r nodeNamePins) Decide(u *model.Universe) Decision {
	var pinned []int
	for _, t := range u.Templates {
		if t.NodeName > 0 {
			pinned = append(pinned, t.NodeName-1)
		}
	}
	if len(pinned) == 0 {
		return Decision{}
	}
	return Decision{Rule: r.Name(), Pinned: pinned, Reason: "a pod template's nodeName names the node"}
}

// nodeFailureTargets: nodeFailure(i) takes one given node down
// (events/nodefailure.go).
type nodeFailureTargets struct{}

func (nodeFailureTargets) Name() string { return "NodeFailureTarget" }

func (r nodeFailureTargets) Decide(u *model.Universe) Decision {
	var pinned []int
	for _, e := range u.Events {
		if e.Kind == model.NodeFailure {
			pinned = append(pinned, e.Node)
		}
	}
	if len(pinned) == 0 {
		return Decision{}
	}
	return Decision{Rule: r.Name(), Pinned: pinned, Reason: "a nodeFailure event names the node"}
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

func hasPlugin(p model.DeschedulerProfile, b model.BalancePlugin) bool {
	for _, x := range p.Balance {
		if x == b {
			return true
		}
	}
	return false
}
