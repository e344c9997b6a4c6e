package descheduler

import "github.com/kivi-go/kivi/model"

// profileConstraints is what one profile's DefaultEvictor constraints
// (model.EvictorConstraints) decide, computed when the cycle starts: the
// constraints read the pods as the descheduler's informer lists them at
// the start of the cycle, before the cycle's own evictions.
type profileConstraints struct {
	u *model.Universe
	p *model.DeschedulerProfile
	// none: the profile sets no constraint, and every pod passes.
	none bool
	// refusedTemplate[t]: labelSelector or the PodsWithoutPDB protection
	// refuses the pods of template t (Filter).
	refusedTemplate []bool
	// refusedNamespace[t]: namespaceLabelSelector refuses the pods of
	// template t (PreEvictionFilter).
	refusedNamespace []bool
	// ownerPods counts the pods of each owner (ownerOf) in any phase,
	// when minReplicas is above 1.
	ownerPods   map[owner]int
	minReplicas int
	// minPodAge: a pod the kubelet has not started is too young.
	minPodAge bool
}

// owner is a pod's controller as its ownerReference names it: a
// Deployment's pods are owned by their ReplicaSet (the deployment and
// its ReplicaSet slot), a StatefulSet's and a Job's by the workload.
type owner struct {
	workload uint8
	rs       uint8
}

func ownerOf(u *model.Universe, p *model.PodState) owner {
	o := owner{workload: p.Owner}
	if p.Owner != 0 && u.OwnerKind(int(p.Owner)-1) == "ReplicaSet" {
		o.rs = p.RS
	}
	return o
}

// newConstraints decides every profile's constraints for the pods of s.
func newConstraints(u *model.Universe, s *model.State) []profileConstraints {
	if u.Descheduler == nil {
		return nil
	}
	out := make([]profileConstraints, len(u.Descheduler.Profiles))
	var counts map[owner]int
	for i := range u.Descheduler.Profiles {
		out[i] = constraintsOf(u, s, &u.Descheduler.Profiles[i], &counts)
	}
	return out
}

// constraintsOf decides profile p's constraints; *counts holds the pods
// of each owner once some profile has needed them.
func constraintsOf(u *model.Universe, s *model.State, p *model.DeschedulerProfile, counts *map[owner]int) profileConstraints {
	e := &p.Evictor
	pc := profileConstraints{u: u, p: p, none: *e == (model.EvictorConstraints{})}
	if pc.none {
		return pc
	}
	pc.refusedTemplate = make([]bool, len(u.Templates))
	pc.refusedNamespace = make([]bool, len(u.Templates))
	for t := range u.Templates {
		tmpl := &u.Templates[t]
		pc.refusedTemplate[t] = !e.LabelSelectorAdmits(tmpl) || e.PodsWithoutPDB && !u.CoveredByBudget(t)
		pc.refusedNamespace[t] = !e.NamespaceAdmits(u, tmpl)
	}
	pc.minPodAge = e.MinPodAge != ""
	if e.MinReplicas > 1 {
		if *counts == nil {
			*counts = map[owner]int{}
			for j := range s.Pods {
				if ps := &s.Pods[j]; ps.Phase != model.Free && ps.Owner != 0 {
					(*counts)[ownerOf(u, ps)]++
				}
			}
		}
		pc.ownerPods, pc.minReplicas = *counts, e.MinReplicas
	}
	return pc
}

// constrained returns profile p's constraints in this cycle (decided on
// first use for a profile outside the universe's policy, as a test's).
func (c *cycle) constrained(p *model.DeschedulerProfile) *profileConstraints {
	for i := range c.constraints {
		if c.constraints[i].p == p {
			return &c.constraints[i]
		}
	}
	var counts map[owner]int
	c.constraints = append(c.constraints, constraintsOf(c.u, c.s, p, &counts))
	return &c.constraints[len(c.constraints)-1]
}

// admits is the Filter's part of the constraints: labelSelector,
// PodsWithoutPDB, minReplicas and minPodAge.
func (pc *profileConstraints) admits(ps *model.PodState) bool {
	if pc.none {
		return true
	}
	if pc.refusedTemplate[ps.Template] {
		return false
	}
	if pc.minPodAge && ps.Phase == model.Pending {
		return false
	}
	return pc.minReplicas == 0 || ps.Owner == 0 || pc.ownerPods[ownerOf(pc.u, ps)] >= pc.minReplicas
}

// namespaceAdmits is the PreEvictionFilter's part: namespaceLabelSelector.
func (pc *profileConstraints) namespaceAdmits(ps *model.PodState) bool {
	return pc.none || !pc.refusedNamespace[ps.Template]
}

// evictorAdmits is DefaultEvictor.Filter past the pod's phase and node,
// which the callers check: the evict annotation admits the pod whatever
// else holds; under noEvictionPolicy Mandatory the prefer-no-eviction
// annotation refuses it; otherwise it must be owned (bare pods are
// protected unless the caller lifts it: FailedBarePods), unprotected by
// priority or storage (model.DeschedulerProfile.Protects) and admitted by
// the constraints.
func (c *cycle) evictorAdmits(p *model.DeschedulerProfile, ps *model.PodState, owned bool) bool {
	t := &c.u.Templates[ps.Template]
	switch {
	case t.DeschedulerEvict:
		return true
	case t.PreferNoEviction && p.Evictor.NoEvictionPolicy == "Mandatory":
		return false
	}
	return owned && !p.Protects(t) && c.constrained(p).admits(ps)
}
