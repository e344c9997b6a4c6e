package model

// View is a read-only view of one cluster state for user predicates
// (custom intents): names instead of indices, counts instead of slots.
type View struct {
	u *Universe
	s *State
}

// NewView wraps a state of u.
func NewView(u *Universe, s *State) View { return View{u: u, s: s} }

// Nodes returns the names of the nodes in index order, but for those
// deleted (a deleteNode event): the nodes the cluster lists.
func (v View) Nodes() []string {
	out := make([]string, 0, len(v.u.Nodes))
	for i, n := range v.u.Nodes {
		if !v.s.Nodes[i].Deleted() {
			out = append(out, n.Name)
		}
	}
	return out
}

func (v View) node(name string) int {
	for i, n := range v.u.Nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}

func (v View) deployment(name string) int {
	for i, d := range v.u.Deployments {
		if d.Name == name {
			return i
		}
	}
	return -1
}

// NodeReady reports whether the named node is Ready.
func (v View) NodeReady(node string) bool {
	n := v.node(node)
	return n >= 0 && v.s.Nodes[n].Status == Ready
}

// NodeLabel returns a label of the named node ("" if absent).
func (v View) NodeLabel(node, key string) string {
	n := v.node(node)
	if n < 0 {
		return ""
	}
	return v.u.Nodes[n].Labels[key]
}

// PodsOnNode counts the Running pods on the named node; deployment ""
// counts every workload's pods.
func (v View) PodsOnNode(node, deployment string) int {
	n := v.node(node)
	d := v.deployment(deployment)
	count := 0
	for i := range v.s.Pods {
		p := &v.s.Pods[i]
		if p.Phase == Running && int(p.Node) == n+1 && (deployment == "" || int(p.Owner) == d+1) {
			count++
		}
	}
	return count
}

// PodsByLabel counts the Running pods of a deployment ("" for all) per
// value of a node label (e.g. a zone): the domains of a topology key,
// over the nodes that are not deleted.
func (v View) PodsByLabel(key, deployment string) map[string]int {
	d := v.deployment(deployment)
	out := map[string]int{}
	for n, node := range v.u.Nodes {
		val, ok := node.Labels[key]
		if !ok || v.s.Nodes[n].Deleted() {
			continue
		}
		if _, seen := out[val]; !seen {
			out[val] = 0
		}
		for i := range v.s.Pods {
			p := &v.s.Pods[i]
			if p.Phase == Running && int(p.Node) == n+1 && (deployment == "" || int(p.Owner) == d+1) {
				out[val]++
			}
		}
	}
	return out
}

// Replicas returns a deployment's spec replicas and its pods by phase.
func (v View) Replicas(deployment string) (spec int, counts DeploymentCounts) {
	d := v.deployment(deployment)
	if d < 0 {
		return 0, DeploymentCounts{}
	}
	return int(v.s.Deps[d].Replicas), Counts(v.s, d)
}

// Pending counts Pending pods (unbound or not yet started) of every
// workload.
func (v View) Pending() int {
	count := 0
	for i := range v.s.Pods {
		if v.s.Pods[i].Phase == Pending {
			count++
		}
	}
	return count
}

// Universe and State give full access for what the view does not offer.
func (v View) Universe() *Universe { return v.u }

// State returns the underlying state; predicates must not modify it.
func (v View) State() *State { return v.s }
