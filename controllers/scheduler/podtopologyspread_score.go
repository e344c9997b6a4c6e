package scheduler

import "math"

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
	// topoSize is kept in softWeight until the weights are computed.
	scored := 0
	for _, n := range c.feasible {
		c.ignored[n] = requireAll && !c.set.softKeys[n]
		if c.ignored[n] {
			continue
		}
		scored++
		for i := range c.soft {
			k := &c.soft[i]
			if k.hostname {
				continue
			}
			if d := &c.dom[k.off+int(k.value(n))]; *d < 0 {
				*d = 0
				c.softWeight[i]++
			}
		}
	}
	for i := range c.soft {
		size := c.softWeight[i]
		if c.soft[i].hostname {
			size = float64(scored)
		}
		if k := int(size); c.plan != nil && float64(k) == size && k >= 0 && k < len(c.plan.logPlus2) {
			c.softWeight[i] = c.plan.logPlus2[k]
		} else {
			c.softWeight[i] = math.Log(size + 2)
		}
	}
	for n, hasKeys := range c.set.softKeys {
		if requireAll && !hasKeys {
			continue
		}
		for i := range c.soft {
			k := &c.soft[i]
			if k.hostname || !k.includes(c.s, n) {
				continue
			}
			if d := &c.dom[k.off+int(k.value(n))]; *d >= 0 {
				*d += c.matchOn(k, n)
			}
		}
	}
	return true
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

// Normalize maps the raw scores of the scored nodes to
// 100 · (max + min − s) / max (all 100 when max is 0); ignored nodes get 0.
func (podTopologySpreadScore) Normalize(c *cycle, scores []int64) {
	var lo int64 = math.MaxInt64
	var hi int64
	for j, n := range c.feasible {
		if c.ignored[n] {
			continue
		}
		lo, hi = min(lo, scores[j]), max(hi, scores[j])
	}
	for j, n := range c.feasible {
		switch {
		case c.ignored[n]:
			scores[j] = 0
		case hi == 0:
			scores[j] = maxNodeScore
		default:
			scores[j] = maxNodeScore * (hi + lo - scores[j]) / hi
		}
	}
}
