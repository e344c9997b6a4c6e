package scheduler

import (
	"math"

	"github.com/kivi-go/kivi/model"
)

// referenceCycle runs the scheduling cycle of pod slot pod of s the plain
// way, as the reference for the fast path (plan, one-pass counting,
// scratch reuse, direct plugin calls, the decision memo): a fresh cycle,
// the constraints resolved from the template on the spot, label values
// looked up in the nodes' label sets, requests from
// model.Universe.Requested, matching pods counted node by node, filters
// and scores called through the profile's plugin interfaces, and every
// feasible node scored even when only one is.
func referenceCycle(u *model.Universe, s *model.State, pod int) *cycle {
	c := &cycle{u: u, s: s, pod: pod, p: s.Pods[pod]}
	c.t = &u.Templates[c.p.Template]
	c.fit = c.t.Fit
	set := referenceConstraints(u, c.p)
	c.set = &set
	c.hard, c.soft, c.softDefault = set.all[:set.hard], set.all[set.hard:], set.softDefault
	N := len(u.Nodes)
	c.requested = make([]model.Resources, N)
	for n := range N {
		c.requested[n] = u.Requested(s, n)
	}
	// LeastAllocated's non-zero requests, counted from the templates.
	c.scoredReq = make([]model.Resources, N)
	for n := range N {
		c.scoredReq[n] = model.Resources{CPU: u.Nodes[n].ReservedCPU, Memory: u.Nodes[n].ReservedMemory}
		for i := range s.Pods {
			if q := &s.Pods[i]; model.InSchedulerCache(q) && q.NodeOf() == n {
				t := &u.Templates[q.Template]
				c.scoredReq[n].CPU += max(t.CPU, t.NonZeroCPU)
				c.scoredReq[n].Memory += max(t.Memory, t.NonZeroMemory)
			}
		}
	}
	c.match = make([]int32, len(set.all)*N)
	for j := range set.all {
		for n := range N {
			for i := range s.Pods {
				q := &s.Pods[i]
				if (q.Phase == model.Pending || q.Phase == model.Running) && q.NodeOf() == n && referenceMatches(&set.all[j], q, &c.p) {
					c.match[j*N+n]++
				}
			}
		}
	}
	c.dom = make([]int32, set.values)
	for i := range c.dom {
		c.dom[i] = noDomain
	}
	c.hardMin = make([]int32, set.hard)
	c.hardDomains = make([]int32, set.hard)
	c.preFilterSpread()
	// InterPodAffinity from a plan of its own (nonZero: LeastAllocated
	// reads the scoredReq counted above).
	c.plan = &plan{u: u, nonZero: true, revisions: u.HasRevisionMatch()}
	c.plan.interPod, c.plan.interPodBare, c.plan.interPodTabs = newInterPodPlans(u)
	c.plan.resolveProfile(u)
	c.preFilterInterPod()
	// NodePorts from the model's own derivation of the ports in use.
	c.portsTaken = make([]bool, N)
	for n := range N {
		c.portsTaken[n] = u.HostPortsInUse(s, int(c.p.Template), n, pod, model.InSchedulerCache)
	}
	pr := defaultProfile()
	pr.standard = false
	pr.scores[len(pr.scores)-1] = referenceBalancedAllocation{}
	c.filter(&pr)
	if len(c.feasible) > 0 {
		c.score(&pr)
	}
	return c
}

// referenceHosts is referenceCycle's decision: the top-scoring feasible
// nodes.
func referenceHosts(u *model.Universe, s *model.State, pod int) []int {
	c := referenceCycle(u, s, pod)
	if len(c.feasible) == 0 || len(c.feasible) > 1 && u.Templates[s.Pods[pod].Template].PreferredInvalid {
		return nil
	}
	return c.topNodes()
}

// referenceConstraints resolves the constraints of incoming pod p: the
// template's DoNotSchedule ones, then its ScheduleAnyway ones, or the
// system defaults for an owned pod of a template without any.
func referenceConstraints(u *model.Universe, p model.PodState) constraintSet {
	t := &u.Templates[p.Template]
	var set constraintSet
	for _, when := range []model.WhenUnsatisfiable{model.DoNotSchedule, model.ScheduleAnyway} {
		for i := range t.Spread {
			sc := &t.Spread[i]
			if sc.When != when {
				continue
			}
			k := constraint{spec: sc, key: sc.Key, maxSkew: sc.MaxSkew, minDomains: max(sc.MinDomains, 1),
				hostname: sc.Key == u.Hostname, honorTaints: sc.HonorNodeTaints,
				self: sc.MatchesTemplate[p.Template], values: u.Labels.NumValues(sc.Key) + 1}
			referenceNodes(u, t, &k, sc.HonorNodeAffinity)
			set.all = append(set.all, k)
		}
		if when == model.DoNotSchedule {
			set.hard = len(set.all)
		}
	}
	set.softDefault = len(t.Spread) == 0 && p.Owner != 0
	if set.softDefault {
		for _, d := range []struct {
			key  string
			skew int
		}{{model.HostnameKey, defaultHostnameSkew}, {zoneKey, defaultZoneSkew}} {
			k := constraint{maxSkew: d.skew, minDomains: 1, self: true, values: 1}
			id, ok := u.Labels.LookupKey(d.key)
			k.absent = !ok
			if ok {
				k.key, k.hostname, k.values = id, id == u.Hostname, u.Labels.NumValues(id)+1
			}
			referenceNodes(u, t, &k, true)
			set.all = append(set.all, k)
		}
	}
	for i := range set.all {
		set.all[i].off, set.all[i].row = set.values, i
		set.values += set.all[i].values
	}
	has := func(ks []constraint, n int) bool {
		for i := range ks {
			if ks[i].absent || u.Nodes[n].LabelSet.Get(ks[i].key) == 0 {
				return false
			}
		}
		return true
	}
	for n := range u.Nodes {
		set.hardKeys = append(set.hardKeys, has(set.all[:set.hard], n))
		set.softKeys = append(set.softKeys, has(set.all[set.hard:], n))
	}
	return set
}

// referenceNodes fills k's node values and static inclusion for pods of
// template t.
func referenceNodes(u *model.Universe, t *model.PodTemplate, k *constraint, honorAffinity bool) {
	k.nodeDown = t.NodeDownTolerance
	k.toleratesUnschedulable = t.ToleratesUnschedulable
	for n := range u.Nodes {
		v := model.ValueID(0)
		if !k.absent {
			v = u.Nodes[n].LabelSet.Get(k.key)
		}
		k.nodeValue = append(k.nodeValue, v)
		f := t.Fit[n]
		eligible := true
		if honorAffinity && !f.Affinity {
			eligible = false
		}
		if k.honorTaints && (f.NoSchedule || f.NoExecute) {
			eligible = false
		}
		k.eligible = append(k.eligible, eligible)
	}
}

// referenceMatches reports whether existing pod q counts for constraint k
// of incoming pod p: an empty selector counts no pod; a system default
// counts the pods of p's ReplicaSet (same owner, same template).
func referenceMatches(k *constraint, q, p *model.PodState) bool {
	if k.spec == nil {
		return q.Owner == p.Owner && q.Template == p.Template
	}
	return !k.spec.CountsNone(p.Owner != 0) && k.spec.Matches(p, q)
}

// referenceBalancedAllocation is BalancedAllocation written the way
// upstream states it, for any number of resources: the fractions in use
// of the resources the node has (capped at 1), their standard deviation
// (half the distance for two, the root mean square deviation for more),
// the balance score (1 − σ)·100 before and after the pod, and the change
// mapped into 50..100. It reads the node's requests from cycle.requested,
// which referenceCycle fills from model.Universe.Requested.
type referenceBalancedAllocation struct{ balancedAllocationScore }

func (referenceBalancedAllocation) Score(c *cycle, n int) int64 {
	node, used := c.u.Nodes[n], c.requested[n]
	alloc := []int64{node.CPU, node.Memory}
	before := []int64{used.CPU, used.Memory}
	after := []int64{used.CPU + c.t.CPU, used.Memory + c.t.Memory}
	score := func(req []int64) int64 {
		var fr []float64
		var sum float64
		for i := range req {
			if alloc[i] == 0 {
				continue
			}
			f := math.Min(float64(req[i])/float64(alloc[i]), 1)
			fr = append(fr, f)
			sum += f
		}
		sigma := 0.0
		switch {
		case len(fr) == 2:
			sigma = math.Abs((fr[0] - fr[1]) / 2)
		case len(fr) > 2:
			mean, sq := sum/float64(len(fr)), 0.0
			for _, f := range fr {
				sq += (f - mean) * (f - mean)
			}
			sigma = math.Sqrt(sq / float64(len(fr)))
		}
		return int64((1 - sigma) * float64(maxNodeScore))
	}
	return maxNodeScore/2 + (maxNodeScore/2+score(after)-score(before))/2
}
