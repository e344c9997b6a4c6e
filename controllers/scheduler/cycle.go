package scheduler

import "github.com/kivi-go/kivi/model"

// cycle is one scheduling attempt of one pod: the data the framework keeps
// in its CycleState, computed once per attempt in slices indexed by node,
// constraint and label value. A cycle is scratch owned by one Step (or one
// Explain call); it is reused for the next pod of the same drain and, via
// the Scheduler's pool, by later steps, so buffers and the universe's plan
// outlive a step; the search never shares a cycle between goroutines.
type cycle struct {
	u   *model.Universe
	s   *model.State
	pod int
	p   model.PodState
	t   *model.PodTemplate
	fit []model.NodeFit

	// plan is the static data of the last universe the cycle ran on.
	plan *plan
	// key is this cycle's decision key and memo the answers of recent
	// cycles (memo.go).
	key      []byte
	memo     decisionMemo
	recalled []int // the last answer found in memo
	// set is the pod's constraint set, out of plan.
	set *constraintSet

	// requested[n] is what NodeResourcesFit sees as used on node n: the
	// reservation plus the requests of every pod bound to it (Pending,
	// Running or Terminating), as model.Universe.Requested computes.
	requested []model.Resources
	// scalarUsed[n*K+k] is the same for scalar resource k of the K of
	// model.Universe.ScalarResources; empty when K is 0.
	scalarUsed []int64
	// scoredReq[n] is the same with non-zero requests (nonzero.go), only
	// filled when the plan has templates with non-zero defaults.
	scoredReq []model.Resources

	// hard are the DoNotSchedule constraints (filtering), soft the
	// ScheduleAnyway ones (scoring); softDefault says that soft holds the
	// system defaults, which do not require nodes to carry every key.
	// They are the plan's: read-only.
	hard, soft  []constraint
	softDefault bool
	// match[k.row*N+n] counts the non-terminating pods on node n that
	// match constraint k's selector.
	match []int32
	// dom[k.off+v] is the pod count of domain v of constraint k, or
	// noDomain when v is not a domain of k. A count can be negative in a
	// preemption's dry run (removedTerminating).
	dom []int32
	// hardMin[i] and hardDomains[i] are the global minimum and the number
	// of domains of hard constraint i (PreFilter's critical paths).
	hardMin, hardDomains []int32
	// softWeight[i] is ln(topology size + 2) of soft constraint i, and
	// ignored[n] marks feasible nodes that PodTopologySpread does not score
	// (they lack a key of a user-written soft constraint); it is only
	// meaningful for feasible nodes.
	softWeight []float64
	ignored    []bool

	// portsTaken[n]: a pod bound to node n holds a host port that
	// conflicts with one of the pod's (nodeports.go).
	portsTaken []bool

	// ipa is InterPodAffinity's PreFilter state, over ipaBuf.
	ipa    interPodState
	ipaBuf []int64

	// removedTerminating are the terminating pods a preemption's dry run
	// has removed from the node it tries (preemption.go, fits); nil in
	// every other cycle. PodTopologySpread's PreFilter never counted them,
	// but upstream's RemovePod subtracts every removed potential victim
	// from its domain's count, terminating or not, so the dry run does
	// too (preFilterSpread).
	removedTerminating []model.PodState

	// nom is what the cycle reads of the nominator (nominated.go).
	nom nominations

	// status[n] is node n's filter verdict when rejectedBy[n] ≥ 0, the
	// index of the rejecting filter (-1 = feasible, deletedNode = the
	// node is deleted: not in the snapshot, so neither filtered nor
	// counted); feasible lists the feasible nodes in index order.
	status     []Status
	rejectedBy []int8
	feasible   []int

	// raw[k][j] and norm[k][j] are score plugin k's raw and normalised
	// scores of feasible[j] (meaningless when skipped[k]); skipped[k] says
	// the plugin skipped the pod; total[j] is the weighted sum.
	raw, norm [numScores][]int64
	skipped   [numScores]bool
	total     []int64
	tied      []int

	// orbits are the node orbit labels of the state the cycle runs on
	// (model.Tx.NodeOrbitLabels), nil when it has none: nodes of one
	// orbit are swapped by a symmetry of the state, which fixes the pod
	// being scheduled, so every filter and score plugin gives them the
	// same verdict and the same raw score, and each is computed once per
	// orbit (orbitshortcut.go). orbitFirst, reps, repOf and repRaw are
	// its scratch.
	orbits     []int
	orbitFirst []int32
	reps       []int
	repOf      []int32
	repRaw     []int64

	// Backing storage, carved into the slices above so that a drain
	// allocates a handful of buffers once instead of one per slice and pod.
	i32  []int32
	i64  []int64
	f64  []float64
	ints []int
}

// deletedNode is rejectedBy's mark of a deleted node
// (model.NodeDeleted): kube-scheduler's snapshot no longer lists it.
const deletedNode int8 = -2

// listedNodes counts the nodes of s that kube-scheduler's snapshot lists:
// those not deleted ("0/N nodes are available").
func listedNodes(s *model.State) int {
	n := 0
	for i := range s.Nodes {
		if !model.NodeGone(s, i) {
			n++
		}
	}
	return n
}

// grow returns s with length n, reusing its array; the contents are
// unspecified, for buffers that the cycle overwrites entirely.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// resize returns s with length n and zeroed contents, reusing its array.
func resize[T any](s []T, n int) []T {
	s = grow(s, n)
	clear(s)
	return s
}

// hosts returns the top-scoring feasible nodes for pod slot pod of s in
// index order, none when no node is feasible (valid until the next call).
// The profile is not part of the question: every caller passes the
// default profile.
func (c *cycle) hosts(pr *profile, u *model.Universe, s *model.State, pod int) []int {
	if !pr.standard || len(s.Pods) > maxKeyedPods {
		c.reset(u, s, pod)
		return c.run(pr)
	}
	// The key needs only the question; a remembered answer saves the
	// counting too.
	c.begin(u, s, pod)
	if c.readsNominator() {
		c.count()
		return c.run(pr)
	}
	c.buildKey()
	var ok bool
	if c.recalled, ok = c.memo.find(u, c.key, c.recalled[:0]); ok {
		return c.recalled
	}
	c.count()
	top := c.run(pr)
	c.memo.store(u, c.key, top)
	return top
}

// run filters and scores the nodes for the pod reset prepared and
// returns the top-scoring feasible nodes.
func (c *cycle) run(pr *profile) []int {
	c.filter(pr)
	if top, ok := c.nominatedNodeFirst(); ok {
		return top
	}
	top := c.feasible
	if len(top) > 1 {
		// One feasible node wins whatever its score: totals are never
		// negative.
		if c.preScoreFails() {
			// The cycle ends in an error: the pod goes nowhere.
			c.feasible = c.feasible[:0]
			return c.feasible
		}
		c.score(pr)
		top = c.topNodes()
	}
	return top
}

// preScoreFails reports whether a PreScore plugin fails for the pod: a
// preferred node-affinity term with a value of invalid syntax
// (model.PodTemplate.PreferredInvalid), which upstream's NodeAffinity
// cannot parse. A cycle with one feasible node does not score, so it is
// unaffected.
func (c *cycle) preScoreFails() bool { return c.t.PreferredInvalid }

// reset prepares the cycle for pod slot pod of s: constraints,
// per-node requests and spread counts, then the PodTopologySpread
// PreFilter. The decision key is built only where the memo is asked
// (hosts).
func (c *cycle) reset(u *model.Universe, s *model.State, pod int) {
	c.begin(u, s, pod)
	c.count()
}

// begin takes the question: the universe, the state, the pod and its
// template and constraint set.
func (c *cycle) begin(u *model.Universe, s *model.State, pod int) {
	c.u, c.s, c.pod = u, s, pod
	c.p = s.Pods[pod]
	c.t = &u.Templates[c.p.Template]
	c.fit = c.t.Fit
	c.set = c.planFor(u).templates[c.p.Template].of(&c.p)
	c.collectNominated()
}

// count computes the per-node requests and spread counts and runs the
// PodTopologySpread PreFilter.
func (c *cycle) count() {
	u := c.u
	all, hard := c.set.all, c.set.hard
	c.hard, c.soft, c.softDefault = all[:hard:hard], all[hard:], c.set.softDefault
	// One int32 buffer: match rows, domain counts, hard minimums and
	// domain numbers.
	rows, values := len(all)*len(u.Nodes), c.set.values
	c.i32 = grow(c.i32, rows+values+2*hard)
	c.match = c.i32[:rows]
	c.dom = c.i32[rows : rows+values]
	c.hardMin = c.i32[rows+values : rows+values+hard]
	c.hardDomains = c.i32[rows+values+hard:]
	clear(c.match)
	clear(c.hardDomains)
	for i := range c.dom {
		c.dom[i] = noDomain
	}
	c.countPods()
	c.countPorts()
	c.preFilterSpread()
	c.preFilterInterPod()
}

// countPods makes one pass over the pod slots: node requests and the
// matching pods of every constraint per node. Terminating pods hold their
// requests but are not counted for spreading (#87621 upstream); the pod
// being scheduled is unbound, so it counts nowhere.
func (c *cycle) countPods() {
	N, pl := len(c.u.Nodes), c.plan
	c.requested = append(c.requested[:0], pl.reserved...)
	if pl.reservedScalar != nil {
		c.countScalar()
	}
	if pl.nonZero {
		c.scoredReq = append(c.scoredReq[:0], pl.reserved...)
		for i := range c.s.Pods {
			if q := &c.s.Pods[i]; model.InSchedulerCache(q) {
				r, add := &c.scoredReq[q.Node-1], &pl.scoredRequests[q.Template]
				r.CPU += add.CPU
				r.Memory += add.Memory
			}
		}
	}
	// Locals, not fields: the stores below would make the compiler
	// reload every field of c on every pod.
	requested, requests, match := c.requested, pl.requests, c.match
	set, owner := c.set, c.p.Owner
	ownerMatters, counted, foreign := set.ownerMatters, set.counted, set.foreign
	for i := range c.s.Pods {
		q := &c.s.Pods[i]
		if !model.InSchedulerCache(q) {
			continue
		}
		n := int(q.Node) - 1
		r, add := &requested[n], &requests[q.Template]
		r.CPU += add.CPU
		r.Memory += add.Memory
		r.Pods += add.Pods
		if q.Phase == model.Terminating {
			continue
		}
		rows := counted[q.Template]
		if ownerMatters && q.Owner != owner {
			rows = foreign[q.Template]
		}
		for _, row := range rows {
			match[row*N+n]++
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
	c.status = grow(c.status, N)
	c.rejectedBy = grow(c.rejectedBy, N)
	c.ints = grow(c.ints, 2*N)
	c.feasible, c.tied = c.ints[:0:N], c.ints[N:N:2*N]
	first := c.orbitFirsts(pr)
	for n := range N {
		c.rejectedBy[n] = -1
		if model.NodeGone(c.s, n) {
			c.rejectedBy[n] = deletedNode
			continue
		}
		if first != nil {
			// The first node of n's orbit was filtered already: n has
			// its verdict.
			if r := first[c.orbits[n]]; r >= 0 {
				c.status[n], c.rejectedBy[n] = c.status[r], c.rejectedBy[r]
				if c.rejectedBy[n] == -1 {
					c.feasible = append(c.feasible, n)
				}
				continue
			}
			first[c.orbits[n]] = int32(n)
		}
		if pr.standard {
			if st, i := c.standardFilters(n); st.Code != Success {
				c.status[n], c.rejectedBy[n] = st, i
			}
		} else {
			if len(c.nom.pods) > 0 && c.nominatedTo(n) {
				if st, i := c.filterWithNominated(n, pr.filters[:]); st.Code != Success {
					c.status[n], c.rejectedBy[n] = st, i
				}
			}
			for i, f := range pr.filters {
				if c.rejectedBy[n] >= 0 {
					break
				}
				if st := f.Filter(c, n); st.Code != Success {
					c.status[n], c.rejectedBy[n] = st, int8(i)
				}
			}
		}
		if c.rejectedBy[n] == -1 {
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
	if len(c.nom.pods) > 0 && c.nominatedTo(n) {
		// RunFilterPluginsWithNominatedPods: with the node's nominated
		// pods first, then (below) without them.
		if st, i := c.filterWithNominated(n, nil); st.Code != Success {
			return st, i
		}
	}
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
	if st := (nodePortsFilter{}).Filter(c, n); st.Code != Success {
		return st, 4
	}
	if st := (nodeResourcesFitFilter{}).Filter(c, n); st.Code != Success {
		return st, 5
	}
	if st := (podTopologySpreadFilter{}).Filter(c, n); st.Code != Success {
		return st, 6
	}
	if st := (interPodAffinityFilter{}).Filter(c, n); st.Code != Success {
		return st, 7
	}
	return Status{}, -1
}

// score runs every score plugin over the feasible nodes: PreScore, Score,
// NormalizeScore, then the weighted sum (the framework's RunScorePlugins).
func (c *cycle) score(pr *profile) {
	F := len(c.feasible)
	// Once per orbit (orbitshortcut.go), where that saves anything.
	reps := pr.standard && c.orbitReps()
	c.i64 = grow(c.i64, (2*numScores+1)*F)
	c.total = c.i64[2*numScores*F:]
	clear(c.total)
	for k, pl := range pr.scores {
		c.raw[k] = c.i64[2*k*F : (2*k+1)*F]
		c.norm[k] = c.i64[(2*k+1)*F : (2*k+2)*F]
		w := c.plan.weights[k]
		c.skipped[k] = w == 0 || !pl.PreScore(c)
		if c.skipped[k] {
			continue
		}
		switch {
		case reps:
			c.scoreReps(k, c.raw[k])
		case pr.standard:
			c.standardScores(k, c.raw[k])
		default:
			for j, n := range c.feasible {
				c.raw[k][j] = pl.Score(c, n)
			}
		}
		norm, total := c.norm[k], c.total
		copy(norm, c.raw[k])
		pl.Normalize(c, norm)
		for j := range total {
			total[j] += norm[j] * w
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
		if !c.plan.fit.standard {
			for j, n := range c.feasible {
				raw[j] = c.fitScore(n)
			}
			return
		}
		leastAllocatedScore{}.scoreAll(c, raw)
	case spreadScore:
		podTopologySpreadScore{}.scoreAll(c, raw)
	case interPodScore:
		for j, n := range c.feasible {
			raw[j] = interPodAffinityScore{}.Score(c, n)
		}
	default:
		balancedAllocationScore{}.scoreAll(c, raw)
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
