package scheduler

import "math"

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
		matchNum := max(c.dom[k.off+int(v)], 0)
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
			if *d < 0 {
				*d = 0
				c.hardDomains[i]++
			}
			*d += c.matchOn(k, n)
		}
	}
	for i := range c.hard {
		k := &c.hard[i]
		lo := int32(math.MaxInt32)
		for _, d := range c.dom[k.off : k.off+k.values] {
			if d >= 0 {
				lo = min(lo, d)
			}
		}
		c.hardMin[i] = lo
	}
}
