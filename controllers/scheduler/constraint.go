package scheduler

import "github.com/kivi-go/kivi/model"

// Keys and skews of kube-scheduler's system default spread constraints
// (podtopologyspread/plugin.go, systemDefaultConstraints, v1.36). Both are
// ScheduleAnyway, so they only score.
const (
	zoneKey             = model.ZoneKey
	defaultHostnameSkew = 3
	defaultZoneSkew     = 5
)

// constraint is one spread constraint of a template, resolved for
// counting: either one of the template's own constraints, or a system
// default constraint (spec == nil) whose selector is the owner's ReplicaSet
// selector. Constraints are static: a plan resolves them once per universe.
type constraint struct {
	spec *model.SpreadConstraint // nil for a system default
	// defaultKey is a default constraint's topology key (spec == nil).
	defaultKey string
	key        model.KeyID
	maxSkew    int
	minDomains int
	// hostname: the key is kubernetes.io/hostname, which PodTopologySpread
	// scoring counts per node instead of per domain.
	hostname bool
	// absent: the key was never interned, so no node carries it.
	absent bool
	// honorTaints: the node taints policy is Honor, so a node that is not
	// Ready is excluded unless the pod tolerates the node lifecycle
	// controller's taints it carries (nodeDown), and a cordoned node
	// unless it tolerates the unschedulable taint (toleratesUnschedulable)
	// and the memory-pressure taint (toleratesMemoryPressure; see
	// includes).
	honorTaints, toleratesUnschedulable, toleratesMemoryPressure bool
	nodeDown                                                     model.NodeDownTolerances
	// self: the incoming pod matches its own selector.
	self bool
	// revision: the constraint's merged selector asks for the incoming
	// pod's pod-template-hash (model.SameRevision, for an owned pod), so
	// only pods of its owner and template match.
	revision bool
	// nodeValue[n] is node n's value id for the key (0 = absent).
	nodeValue []model.ValueID
	// eligible[n]: node n passes the static part of the node inclusion
	// policies (the template's node affinity and taints).
	eligible []bool
	// off is the constraint's first entry in cycle.dom; values (the key's
	// value ids, 0 = the key is absent) index from there. row is the
	// constraint's row in cycle.match.
	off, values, row int
}

// counts reports whether the constraint's selector matches pods of
// template t when the incoming pod is of template tmpl, for pods of the
// incoming pod's owner (sameOwner) or of another owner or none. An empty
// ({}) selector counts no existing pod (countPodsMatchSelector). A system
// default's selector is the one DefaultSelector derives from the owning
// ReplicaSet: the deployment's labels plus pod-template-hash, i.e. the
// same owner and the same template; a merged pod-template-hash asks the
// same of the pods the selector matches.
func (k *constraint) counts(t, tmpl int, sameOwner bool) bool {
	if k.spec == nil || k.revision {
		if !sameOwner || t != tmpl {
			return false
		}
	}
	return k.spec == nil || !k.spec.CountsNone(k.revision) && k.spec.MatchesTemplate[t]
}

// includes reports whether node n passes the constraint's node inclusion
// policies (NodeAffinityPolicy, NodeTaintsPolicy) in state s: the static
// part (eligible), and the dynamic taints under NodeTaintsPolicy Honor. A
// deleted node is in no domain: the snapshot no longer lists it.
func (k *constraint) includes(s *model.State, n int) bool {
	return k.eligible[n] && !s.Nodes[n].Deleted() && !k.taintedNow(s.Nodes[n])
}

// taintedNow reports whether, under NodeTaintsPolicy Honor, a node in
// state st carries a taint of the state that the pod does not tolerate:
// the lifecycle controller's not-ready or unreachable taints on a node
// that is not Ready (model.NodeStatus.LifecycleTaints), its unschedulable
// taint on a cordoned node.
func (k *constraint) taintedNow(st model.NodeState) bool {
	return k.honorTaints && (!k.nodeDown.Tolerate(st.Status) || st.Cordoned && !k.toleratesUnschedulable ||
		st.MemoryPressure && !k.toleratesMemoryPressure)
}

// value returns node n's value id for the constraint's key (0 = absent).
func (k *constraint) value(n int) model.ValueID { return k.nodeValue[n] }

// fromSpec resolves one of template t's own constraints for its owned
// pods or its bare ones; tmpl is t's index.
func fromSpec(u *model.Universe, t *model.PodTemplate, sc *model.SpreadConstraint, tmpl int, owned bool) constraint {
	k := constraint{
		spec: sc, key: sc.Key, maxSkew: sc.MaxSkew, minDomains: max(sc.MinDomains, 1),
		hostname: sc.Key == u.Hostname, honorTaints: sc.HonorNodeTaints,
		self: sc.MatchesTemplate[tmpl], values: u.Labels.NumValues(sc.Key) + 1,
		revision: owned && sc.Revision == model.SameRevision,
	}
	k.resolveNodes(u, t, sc.HonorNodeAffinity)
	return k
}

// systemDefault resolves a system default constraint of template t on key
// name. Its inclusion policies are the API defaults (Honor affinity,
// Ignore taints).
func systemDefault(u *model.Universe, t *model.PodTemplate, name string, maxSkew int) constraint {
	k := constraint{maxSkew: maxSkew, minDomains: 1, self: true, values: 1, defaultKey: name}
	id, ok := u.Labels.LookupKey(name)
	k.absent = !ok
	if ok {
		k.key = id
		k.hostname = id == u.Hostname
		k.values = u.Labels.NumValues(id) + 1
	}
	k.resolveNodes(u, t, true)
	return k
}

// resolveNodes records every node's value of the key (all 0 when the key
// is absent) and the static inclusion policies for pods of template t.
func (k *constraint) resolveNodes(u *model.Universe, t *model.PodTemplate, honorAffinity bool) {
	k.nodeDown = t.NodeDownTolerance
	k.toleratesUnschedulable = t.ToleratesUnschedulable
	k.toleratesMemoryPressure = t.ToleratesMemoryPressure()
	k.nodeValue = make([]model.ValueID, len(u.Nodes))
	k.eligible = make([]bool, len(u.Nodes))
	for n := range u.Nodes {
		if !k.absent {
			k.nodeValue[n] = u.Nodes[n].LabelSet.Get(k.key)
		}
		f := &t.Fit[n]
		k.eligible[n] = (!honorAffinity || f.Affinity) && (!k.honorTaints || !f.NoSchedule && !f.NoExecute)
	}
}
