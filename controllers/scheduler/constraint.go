package scheduler

import "github.com/kivi-go/kivi/model"

// Keys and skews of kube-scheduler's system default spread constraints
// (podtopologyspread/plugin.go, systemDefaultConstraints, v1.36). Both are
// ScheduleAnyway, so they only score.
const (
	zoneKey             = "topology.kubernetes.io/zone"
	defaultHostnameSkew = 3
	defaultZoneSkew     = 5
)

// constraint is one spread constraint of the cycle's pod, resolved for
// counting: either one of the template's own constraints, or a system
// default constraint (spec == nil) whose selector is the owner's ReplicaSet
// selector.
type constraint struct {
	spec       *model.SpreadConstraint // nil for a system default
	key        model.KeyID
	maxSkew    int
	minDomains int
	// hostname: the key is kubernetes.io/hostname, which PodTopologySpread
	// scoring counts per node instead of per domain.
	hostname bool
	// absent: the key was never interned, so no node carries it.
	absent                     bool
	honorAffinity, honorTaints bool
	// self: the incoming pod matches its own selector.
	self bool
	// off is the constraint's first entry in cycle.dom; values (the key's
	// value ids, 0 = the key is absent) index from there. row is the
	// constraint's row in cycle.match.
	off, values, row int
}

// matches reports whether existing pod q counts for the constraint when the
// incoming pod is of template tmpl and owner owner. An empty ({}) selector
// counts no existing pod (countPodsMatchSelector). The default selector is
// the one DefaultSelector derives from the owning ReplicaSet: the
// deployment's labels plus pod-template-hash, i.e. the same owner and the
// same template.
func (k *constraint) matches(q *model.PodState, tmpl, owner uint8) bool {
	if k.spec == nil {
		return q.Owner == owner && q.Template == tmpl
	}
	return !k.spec.SelectorEmpty && k.spec.MatchesTemplate[q.Template]
}

// includes reports whether node n passes the constraint's node inclusion
// policies (NodeAffinityPolicy, NodeTaintsPolicy). A node that is not Ready
// carries the lifecycle controller's not-ready NoSchedule taint, which
// deployment pods do not tolerate.
func (k *constraint) includes(c *cycle, n int) bool {
	if k.honorAffinity && !c.fit[n].Affinity {
		return false
	}
	if k.honorTaints {
		f := &c.fit[n]
		if f.NoSchedule || f.NoExecute || c.s.Nodes[n].Status != model.Ready {
			return false
		}
	}
	return true
}

// value returns node n's value id for the constraint's key (0 = absent).
func (k *constraint) value(c *cycle, n int) model.ValueID {
	if k.absent {
		return 0
	}
	return c.u.Nodes[n].LabelSet.Get(k.key)
}

// fromSpec resolves one of the template's own constraints.
func fromSpec(u *model.Universe, sc *model.SpreadConstraint, tmpl int) constraint {
	return constraint{
		spec: sc, key: sc.Key, maxSkew: sc.MaxSkew, minDomains: max(sc.MinDomains, 1),
		hostname: sc.Key == u.Hostname, honorAffinity: sc.HonorNodeAffinity, honorTaints: sc.HonorNodeTaints,
		self: sc.MatchesTemplate[tmpl], values: u.Labels.NumValues(sc.Key) + 1,
	}
}

// systemDefault resolves a system default constraint on key name. Its
// inclusion policies are the API defaults (Honor affinity, Ignore taints).
func systemDefault(u *model.Universe, name string, maxSkew int) constraint {
	k := constraint{maxSkew: maxSkew, minDomains: 1, honorAffinity: true, self: true, values: 1}
	id, ok := u.Labels.LookupKey(name)
	if !ok {
		k.absent = true
		return k
	}
	k.key = id
	k.hostname = id == u.Hostname
	k.values = u.Labels.NumValues(id) + 1
	return k
}
