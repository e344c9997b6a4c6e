package scheduler

import (
	"math"
)

// podTopologySpreadScore prefers nodes whose domains hold fewer matching
// pods under the ScheduleAnyway constraints, or under the system default
// constraints when the template declares none
// (podtopologyspread/scoring.go, v1.36).
type podTopologySpreadScore struct{}

func (podTopologySpreadScore) Name() string  { return "PodTopologySpread" }
func (podTopologySpreadScore) Weight() int64 { return 2 }

// PreScore sizes the topologies over the feasible nodes and counts the
// matching pods of every domain over all nodes (PreScore +
// initPreScoreState). User-written constraints require a node to carry
// every key (requireAllTopologies): other feasible nodes are ignored and
// score 0. System defaults do not, so nodes without a zone label still get
// hostname spreading; such nodes pool into an "absent value" domain that
// counts towards the zone topology's size, as the empty label value does
// upstream. Hostname constraints are sized by the scored nodes and counted
// per node in Score.
func (podTopologySpreadScore) PreScore(c *cycle) bool {
	if len(c.soft) == 0 || len(c.feasible) == 0 {
		return false
	}
	requireAll := !c.softDefault
	c.ignored = grow(c.ignored, len(c.u.Nodes))
	c.softWeight = resize(c.softWeight, len(c.soft))
	ignored, softKeys := c.ignored, c.set.softKeys
	scored := 0
	for _, n := range c.feasible {
		ignored[n] = requireAll && !softKeys[n]
		if !ignored[n] {
			scored++
		}
	}
	// Constraint by constraint (each owns its range of dom, so the order
	// is free): a constraint's slices then stay in registers over the
	// node loops.
	N := len(c.u.Nodes)
	for i := range c.soft {
		k := &c.soft[i]
		if k.hostname {
			c.softWeight[i] = c.logPlus2(float64(scored))
			continue
		}
		// The topology size: the domains of the scored nodes.
		dom, values := c.dom[k.off:k.off+k.values], k.nodeValue[:N]
		size := 0
		for _, n := range c.feasible {
			if ignored[n] {
				continue
			}
			if d := &dom[values[n]]; *d == noDomain {
				*d = 0
				size++
			}
		}
		c.softWeight[i] = c.logPlus2(float64(size))
		// The matching pods of every domain, over all nodes the
		// constraint includes.
		match, eligible, states := c.match[k.row*N:(k.row+1)*N], k.eligible[:N], c.s.Nodes[:N]
		for n, hasKeys := range softKeys[:N] {
			if requireAll && !hasKeys || !eligible[n] || k.taintedNow(states[n]) {
				continue
			}
			if d := &dom[values[n]]; *d != noDomain {
				*d += match[n]
			}
		}
	}
	return true
}

// logPlus2 is ln(size + 2), from the plan's table when it holds it.
func (c *cycle) logPlus2(size float64) float64 {
	if k := int(size); c.plan != nil && float64(k) == size && k >= 0 && k < len(c.plan.logPlus2) {
		return c.plan.logPlus2[k]
	}
	return math.Log(size + 2)
}

// Score sums, over the constraints whose key the node carries,
// count · weight + (maxSkew − 1) in floating point, rounded at the end.
func (podTopologySpreadScore) Score(c *cycle, n int) int64 {
	if c.ignored[n] {
		return 0
	}
	var score float64
	for i := range c.soft {
		k := &c.soft[i]
		v := k.value(n)
		if v == 0 {
			continue
		}
		var cnt int32
		if k.hostname {
			cnt = c.matchOn(k, n)
		} else {
			cnt = c.dom[k.off+int(v)]
		}
		score += float64(cnt)*c.softWeight[i] + float64(k.maxSkew-1)
	}
	return int64(math.Round(score))
}

// scoreAll is Score for every feasible node into raw, constraint by
// constraint: each node's terms are added in the same order as Score
// adds them, so the floating-point sums are the same.
func (podTopologySpreadScore) scoreAll(c *cycle, raw []int64) {
	F, N := len(c.feasible), len(c.u.Nodes)
	c.f64 = resize(c.f64, F)
	sums, feasible, ignored := c.f64, c.feasible, c.ignored
	for i := range c.soft {
		k := &c.soft[i]
		w, skew := c.softWeight[i], float64(k.maxSkew-1)
		values := k.nodeValue[:N]
		count := c.dom[k.off : k.off+k.values]
		if k.hostname {
			count = c.match[k.row*N : (k.row+1)*N]
		}
		hostname := k.hostname
		for j, n := range feasible {
			v := values[n]
			if v == 0 || ignored[n] {
				continue
			}
			idx := int(v)
			if hostname {
				idx = n
			}
			sums[j] += float64(count[idx])*w + skew
		}
	}
	for j, n := range feasible {
		if ignored[n] {
			raw[j] = 0
			continue
		}
		raw[j] = int64(math.Round(sums[j]))
	}
}

// Normalize maps the raw scores of the scored nodes to
// 100 · (max + min − s) / max (all 100 when max is 0); ignored nodes get 0.
func (podTopologySpreadScore) Normalize(c *cycle, scores []int64) {
	var lo int64 = math.MaxInt64
	var hi int64
	feasible, ignored := c.feasible, c.ignored
	for j, n := range feasible {
		if ignored[n] {
			continue
		}
		lo, hi = min(lo, scores[j]), max(hi, scores[j])
	}
	for j, n := range feasible {
		switch {
		case ignored[n]:
			scores[j] = 0
		case hi == 0:
			scores[j] = maxNodeScore
		default:
			scores[j] = maxNodeScore * (hi + lo - scores[j]) / hi
		}
	}
}
