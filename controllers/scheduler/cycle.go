package scheduler

import "github.com/kivi-go/kivi/model"

// cycle is one scheduling attempt of one pod: the data the framework keeps
// in its CycleState, computed once per attempt in slices indexed by node,
// constraint and label value. A cycle is scratch owned by one Step (or one
// Explain call); it is reused for the next pod of the same drain, so a step
// allocates its buffers once and the search never shares them between
// goroutines.
type cycle struct {
	u   *model.Universe
	s   *model.State
	pod int
	p   model.PodState
	t   *model.PodTemplate
	fit []model.NodeFit

	// requested[n] is what NodeResourcesFit sees as used on node n: the
	// reservation plus the requests of every pod bound to it (Pending,
	// Running or Terminating), as model.Universe.Requested computes.
	requested []model.Resources

	// hard are the DoNotSchedule constraints (filtering), soft the
	// ScheduleAnyway ones (scoring); softDefault says that soft holds the
	// system defaults, which do not require nodes to carry every key.
	hard, soft  []constraint
	softDefault bool
	// match[k.row*N+n] counts the non-terminating pods on node n that
	// match constraint k's selector.
	match []int32
	// dom[k.off+v] is the pod count of domain v of constraint k, or -1
	// when v is not a domain of k.
	dom []int32
	// hardMin[i] and hardDomains[i] are the global minimum and the number
	// of domains of hard constraint i (PreFilter's critical paths).
	hardMin, hardDomains []int32
	// softWeight[i] is ln(topology size + 2) of soft constraint i, and
	// ignored[n] marks feasible nodes that PodTopologySpread does not score
	// (they lack a key of a user-written soft constraint).
	softWeight []float64
	ignored    []bool

	// status[n] is node n's filter verdict, rejectedBy[n] the index of the
	// rejecting filter (-1 = feasible); feasible lists the feasible nodes
	// in index order.
	status     []Status
	rejectedBy []int8
	feasible   []int

	// raw[k][j] and norm[k][j] are score plugin k's raw and normalised
	// scores of feasible[j]; skipped[k] says the plugin skipped the pod;
	// total[j] is the weighted sum.
	raw, norm [numScores][]int64
	skipped   [numScores]bool
	total     []int64
	tied      []int

	// Backing storage, carved into the slices above so that a drain
	// allocates a handful of buffers once instead of one per slice and pod.
	i32         []int32
	i64         []int64
	ints        []int
	constraints []constraint
	inline      [6]constraint
}

// resize returns s with length n and zeroed contents, reusing its array.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// reset prepares the cycle for pod slot pod of s: constraints, per-node
// requests and spread counts, then the PodTopologySpread PreFilter.
func (c *cycle) reset(u *model.Universe, s *model.State, pod int) {
	c.u, c.s, c.pod = u, s, pod
	c.p = s.Pods[pod]
	c.t = &u.Templates[c.p.Template]
	c.fit = c.t.Fit
	c.resolveConstraints()
	c.countPods()
	c.preFilterSpread()
}

// resolveConstraints splits the template's constraints into hard and soft
// (filterTopologySpreadConstraints) and applies the system defaults to a
// template without any constraint (buildDefaultConstraints): only pods
// with an owner get them, because DefaultSelector is empty for bare pods.
func (c *cycle) resolveConstraints() {
	u, tmpl := c.u, int(c.p.Template)
	if c.constraints == nil {
		c.constraints = c.inline[:0]
	}
	all := c.constraints[:0]
	for i := range c.t.Spread {
		if sc := &c.t.Spread[i]; sc.When == model.DoNotSchedule {
			all = append(all, fromSpec(u, sc, tmpl))
		}
	}
	hard := len(all)
	for i := range c.t.Spread {
		if sc := &c.t.Spread[i]; sc.When == model.ScheduleAnyway {
			all = append(all, fromSpec(u, sc, tmpl))
		}
	}
	c.softDefault = len(c.t.Spread) == 0 && c.p.Owner != 0
	if c.softDefault {
		all = append(all, systemDefault(u, model.HostnameKey, defaultHostnameSkew),
			systemDefault(u, zoneKey, defaultZoneSkew))
	}
	c.constraints = all
	c.hard, c.soft = all[:hard:hard], all[hard:]
	values := 0
	for i := range all {
		all[i].off, all[i].row = values, i
		values += all[i].values
	}
	// One int32 buffer: match rows, domain counts, hard minimums and
	// domain numbers.
	rows := len(all) * len(u.Nodes)
	c.i32 = resize(c.i32, rows+values+2*hard)
	c.match = c.i32[:rows]
	c.dom = c.i32[rows : rows+values]
	c.hardMin = c.i32[rows+values : rows+values+hard]
	c.hardDomains = c.i32[rows+values+hard:]
	for i := range c.dom {
		c.dom[i] = -1
	}
}

// countPods makes one pass over the pod slots: node requests, and the
// matching pods of every constraint per node. Terminating pods hold their
// requests but are not counted for spreading (#87621 upstream); the pod
// being scheduled is unbound, so it counts nowhere.
func (c *cycle) countPods() {
	u, s, N := c.u, c.s, len(c.u.Nodes)
	c.requested = resize(c.requested, N)
	for n := range u.Nodes {
		node := &u.Nodes[n]
		c.requested[n] = model.Resources{CPU: node.ReservedCPU, Memory: node.ReservedMemory, Pods: node.ReservedPods}
	}
	tmpl, owner := c.p.Template, c.p.Owner
	for i := range s.Pods {
		q := &s.Pods[i]
		if q.Phase == model.Free || q.Node == 0 {
			continue
		}
		n := int(q.Node) - 1
		t := &u.Templates[q.Template]
		r := &c.requested[n]
		r.CPU += t.CPU
		r.Memory += t.Memory
		r.Pods++
		if q.Phase == model.Terminating {
			continue
		}
		for j := range c.constraints {
			if c.constraints[j].matches(q, tmpl, owner) {
				c.match[j*N+n]++
			}
		}
	}
}

// matchOn returns the matching pods of constraint k on node n.
func (c *cycle) matchOn(k *constraint, n int) int32 { return c.match[k.row*len(c.u.Nodes)+n] }

// filter runs the filters on every node, stopping at a node's first
// rejection (the framework's RunFilterPlugins), and lists the feasible
// nodes.
func (c *cycle) filter(pr *profile) {
	N := len(c.u.Nodes)
	c.status = resize(c.status, N)
	c.rejectedBy = resize(c.rejectedBy, N)
	c.ints = resize(c.ints, 2*N)
	c.feasible, c.tied = c.ints[:0:N], c.ints[N:N:2*N]
	for n := range N {
		c.rejectedBy[n] = -1
		if pr.standard {
			if st, i := c.standardFilters(n); st.Code != Success {
				c.status[n], c.rejectedBy[n] = st, i
			}
		} else {
			for i, f := range pr.filters {
				if st := f.Filter(c, n); st.Code != Success {
					c.status[n], c.rejectedBy[n] = st, int8(i)
					break
				}
			}
		}
		if c.rejectedBy[n] < 0 {
			c.feasible = append(c.feasible, n)
		}
	}
}

// standardFilters is the default profile's filter loop with the plugins
// called directly (the same plugins, in the same order as
// defaultProfile's filters): the loop runs for every node of every
// scheduling cycle, and direct calls let the compiler inline the cheap
// filters. It returns the first rejection and its filter's index.
func (c *cycle) standardFilters(n int) (Status, int8) {
	if st := (nodeReady{}).Filter(c, n); st.Code != Success {
		return st, 0
	}
	if st := (nodeName{}).Filter(c, n); st.Code != Success {
		return st, 1
	}
	if st := (taintTolerationFilter{}).Filter(c, n); st.Code != Success {
		return st, 2
	}
	if st := (nodeAffinityFilter{}).Filter(c, n); st.Code != Success {
		return st, 3
	}
	if st := (nodeResourcesFitFilter{}).Filter(c, n); st.Code != Success {
		return st, 4
	}
	if st := (podTopologySpreadFilter{}).Filter(c, n); st.Code != Success {
		return st, 5
	}
	return Status{}, -1
}

// score runs every score plugin over the feasible nodes: PreScore, Score,
// NormalizeScore, then the weighted sum (the framework's RunScorePlugins).
func (c *cycle) score(pr *profile) {
	F := len(c.feasible)
	c.i64 = resize(c.i64, (2*numScores+1)*F)
	c.total = c.i64[2*numScores*F:]
	for k, pl := range pr.scores {
		c.raw[k] = c.i64[2*k*F : (2*k+1)*F]
		c.norm[k] = c.i64[(2*k+1)*F : (2*k+2)*F]
		c.skipped[k] = !pl.PreScore(c)
		if c.skipped[k] {
			continue
		}
		if pr.standard {
			c.standardScores(k, c.raw[k])
		} else {
			for j, n := range c.feasible {
				c.raw[k][j] = pl.Score(c, n)
			}
		}
		copy(c.norm[k], c.raw[k])
		pl.Normalize(c, c.norm[k])
		w := pl.Weight()
		for j := range c.total {
			c.total[j] += c.norm[k][j] * w
		}
	}
}

// standardScores fills raw with default-profile score plugin k's raw
// scores of the feasible nodes, calling the plugin directly (the plugins
// of defaultProfile's scores, in order) so that the per-node calls inline.
func (c *cycle) standardScores(k int, raw []int64) {
	switch k {
	case 0:
		for j, n := range c.feasible {
			raw[j] = taintTolerationScore{}.Score(c, n)
		}
	case 1:
		for j, n := range c.feasible {
			raw[j] = nodeAffinityScore{}.Score(c, n)
		}
	case 2:
		for j, n := range c.feasible {
			raw[j] = leastAllocatedScore{}.Score(c, n)
		}
	default:
		for j, n := range c.feasible {
			raw[j] = podTopologySpreadScore{}.Score(c, n)
		}
	}
}

// topNodes returns the feasible nodes with the highest total, in index
// order (valid until the next cycle).
func (c *cycle) topNodes() []int {
	c.tied = c.tied[:0]
	var best int64 = -1
	for j, n := range c.feasible {
		switch {
		case c.total[j] > best:
			best = c.total[j]
			c.tied = append(c.tied[:0], n)
		case c.total[j] == best:
			c.tied = append(c.tied, n)
		}
	}
	return c.tied
}
