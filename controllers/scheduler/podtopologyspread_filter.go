package scheduler

import (
	"math"
	"slices"
)

// podTopologySpreadFilter enforces the pod's DoNotSchedule spread
// constraints (podtopologyspread/filtering.go, v1.36). The counting is
// cycle.preFilterSpread; Filter only compares.
type podTopologySpreadFilter struct{}

func (podTopologySpreadFilter) Name() string { return "PodTopologySpread" }

const (
	reasonSpread      = "node(s) didn't match pod topology spread constraints"
	reasonSpreadNoKey = reasonSpread + " (missing required label)"
)

// Filter checks every hard constraint: a node without the key is
// unresolvable; otherwise 'existing matching num' + 'self-match (1 or 0)'
// − 'global minimum' must not exceed maxSkew. A node whose value is no
// counted domain (it failed an inclusion policy, or lacks another
// constraint's key) counts 0.
func (podTopologySpreadFilter) Filter(c *cycle, n int) Status {
	if c.plan.spreadFilterOff {
		return Status{}
	}
	for i := range c.hard {
		k := &c.hard[i]
		v := k.value(n)
		if v == 0 {
			return reject(UnschedulableAndUnresolvable, reasonSpreadNoKey)
		}
		minMatch := c.hardMin[i]
		if int(c.hardDomains[i]) < k.minDomains {
			minMatch = 0
		}
		matchNum := c.dom[k.off+int(v)]
		if matchNum == noDomain {
			matchNum = 0
		}
		self := int32(0)
		if k.self {
			self = 1
		}
		if int(matchNum+self-minMatch) > k.maxSkew {
			return reject(Unschedulable, reasonSpread)
		}
	}
	return Status{}
}

// preFilterSpread counts the domains of the hard constraints over every
// node in the snapshot (NotReady ones included): a node lacking the key of
// any hard constraint contributes to none; a node failing one
// constraint's inclusion policies is skipped for that constraint only;
// a domain exists as soon as one eligible node carries its value, even with
// 0 pods (calPreFilterState).
func (c *cycle) preFilterSpread() {
	if len(c.hard) == 0 {
		return
	}
	for n, hasKeys := range c.set.hardKeys {
		if !hasKeys {
			continue
		}
		for i := range c.hard {
			k := &c.hard[i]
			if !k.includes(c.s, n) {
				continue
			}
			d := &c.dom[k.off+int(k.value(n))]
			if *d == noDomain {
				*d = 0
				c.hardDomains[i]++
			}
			*d += c.matchOn(k, n)
		}
	}
	c.subtractRemovedTerminating()
	for i := range c.hard {
		k := &c.hard[i]
		lo := int32(math.MaxInt32)
		for _, d := range c.dom[k.off : k.off+k.values] {
			if d != noDomain {
				lo = min(lo, d)
			}
		}
		c.hardMin[i] = lo
	}
}

// noDomain marks a value of cycle.dom that is no domain of its
// constraint.
const noDomain = math.MinInt32

// subtractRemovedTerminating is upstream's RemovePod (updateWithPod with
// delta −1) for the terminating pods a preemption's dry run removed:
// their domain on a node that has every hard key loses one pod for each
// constraint that selects them and whose inclusion policies admit the
// node, as for the removed pods that were counted; the count may fall
// below zero, and the filter compares it as it is.
func (c *cycle) subtractRemovedTerminating() {
	for i := range c.removedTerminating {
		q := &c.removedTerminating[i]
		n := int(q.Node) - 1
		if !c.set.hardKeys[n] {
			continue
		}
		rows := c.set.counted[q.Template]
		if c.set.ownerMatters && q.Owner != c.p.Owner {
			rows = c.set.foreign[q.Template]
		}
		for j := range c.hard {
			k := &c.hard[j]
			if k.includes(c.s, n) && slices.Contains(rows, k.row) {
				c.dom[k.off+int(k.value(n))]--
			}
		}
	}
}
