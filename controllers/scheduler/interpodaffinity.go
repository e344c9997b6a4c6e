package scheduler

import (
	"math"

	"github.com/kivi-go/kivi/model"
)

// InterPodAffinity (interpodaffinity/filtering.go and scoring.go, v1.36):
// the incoming pod's required and preferred pod (anti-)affinity terms
// against the pods bound to each node, and the existing pods' terms
// against the incoming pod. Every count is per topology pair (key, value):
// a term matching a pod on node n counts for the domain of n's value of
// the term's key, and a node without the key contributes nothing. Every
// bound pod counts, Pending, Running or Terminating, on every node
// whatever its status (the scheduler's cache holds them all). The model
// has one namespace, so a term matches the pods of every template its
// selector matches (model.PodAffinityTerm).
//
// Filter, per node, in upstream's order:
//   - affinity: the node must carry the key of every required affinity
//     term, and each term's domain must hold a pod matching all of the
//     terms (UnschedulableAndUnresolvable) — unless no such pod exists
//     anywhere and the incoming pod matches all its own terms: the first
//     pod of a group that has affinity to itself;
//   - anti-affinity: no required anti-affinity term of the incoming pod
//     may have a matching pod in the node's domain (Unschedulable);
//   - existing pods' anti-affinity: no pod's required anti-affinity term
//     that matches the incoming pod may share its domain with the node
//     (Unschedulable): required anti-affinity is symmetric.
//
// Score (weight 2): per topology pair, the weights of the incoming pod's
// preferred affinity terms (+) and anti-affinity terms (−) for each
// matching existing pod, plus for each existing pod whose terms match the
// incoming pod its required affinity terms (the profile's
// hardPodAffinityWeight, 1 by default; none at 0), its
// preferred affinity terms (+weight) and its preferred anti-affinity
// terms (−weight); a node scores the sum over its pairs, normalised to
// 100·(s − min)/(max − min) over the feasible nodes (0 when all are
// equal). With no contribution at all the plugin skips (every node 0).

// Reasons, as upstream.
const (
	reasonAffinity         = "node(s) didn't match pod affinity rules"
	reasonAntiAffinity     = "node(s) didn't match pod anti-affinity rules"
	reasonExistingAntiAffi = "node(s) didn't satisfy existing pods anti-affinity rules"
)

// interPodPlan is InterPodAffinity's static part for incoming pods of one
// template T (owned, or bare): the terms resolved against every kind of
// existing pod (podKind): a pod of template t, told apart by its revision
// where some selector merges pod-template-hash.
type interPodPlan struct {
	// affinity are the keys of T's required affinity terms; matchesAll[e]
	// says a pod of kind e matches all of them (false when there are
	// none), selfMatchesAll the same of the incoming pod.
	affinity       []model.KeyID
	matchesAll     []bool
	selfMatchesAll bool
	// anti are T's required anti-affinity terms.
	anti []antiTerm
	// existingAnti[e] are the keys of the required anti-affinity terms of
	// a pod of kind e that match the incoming pod; existingKeys the
	// distinct ones.
	existingAnti [][]model.KeyID
	existingKeys []model.KeyID
	// score[e] is what a pod of kind e adds to its node's pair of each
	// key; scoreKeys the distinct keys.
	score     [][]weightedKey
	scoreKeys []model.KeyID
	// in is T's index, owned whether the plan is for owned pods, and
	// revisions whether kinds tell revisions apart.
	in               int
	owned, revisions bool
	// filter: PreFilter does not skip (some required term applies);
	// scores: some score term may apply.
	filter, scores bool
}

type antiTerm struct {
	key     model.KeyID
	matches []bool
}

type weightedKey struct {
	key    model.KeyID
	weight int64
}

// interPodTables are the topology pair tables of a universe: the pair
// (k, v) is entry off[k]+v of a table of size entries.
type interPodTables struct {
	off  []int
	size int
}

// podKind is the index of an existing pod q in a plan's per-kind tables
// for an incoming pod of owner owner: q's template t, or, where revisions
// matter, t for an owned pod of another revision, T+t for a bare pod (no
// pod-template-hash) and 2T for a pod of the incoming pod's revision.
func (p *interPodPlan) podKind(q *model.PodState, owner uint8, T int) int {
	t := int(q.Template)
	switch {
	case !p.revisions:
		return t
	case q.Owner == 0:
		return T + t
	case q.Owner == owner && t == p.in:
		return 2 * T
	}
	return t
}

// kinds is the number of pod kinds of a universe of T templates.
func kinds(T int, revisions bool) int {
	if revisions {
		return 2*T + 1
	}
	return T
}

// kindOf returns the template of pod kind e, whether such a pod is owned
// and whether it is of the incoming pod's revision.
func kindOf(e, T, in int) (t int, owned, same bool) {
	switch {
	case e < T:
		return e, true, false
	case e < 2*T:
		return e - T, false, false
	}
	return in, true, true
}

// newInterPodPlans resolves the terms for every template of u as the
// incoming one, owned and bare (the same plans unless some selector
// merges pod-template-hash); nil when no template has an inter-pod
// affinity term, so that the plugin costs nothing then.
func newInterPodPlans(u *model.Universe) (owned, bare []*interPodPlan, tabs interPodTables) {
	any := false
	for i := range u.Templates {
		any = any || u.Templates[i].HasPodAffinity()
	}
	if !any {
		return nil, nil, interPodTables{}
	}
	for k := range u.Labels.NumKeys() {
		tabs.off = append(tabs.off, tabs.size)
		tabs.size += u.Labels.NumValues(model.KeyID(k)) + 1
	}
	T, revisions := len(u.Templates), u.HasRevisionMatch()
	owned = make([]*interPodPlan, T)
	bare = owned
	if revisions {
		bare = make([]*interPodPlan, T)
	}
	for in := range u.Templates {
		owned[in] = newInterPodPlan(u, in, true, revisions)
		if revisions {
			bare[in] = newInterPodPlan(u, in, false, revisions)
		}
	}
	return owned, bare, tabs
}

// newInterPodPlan resolves the terms for incoming pods of template in,
// owned or bare.
func newInterPodPlan(u *model.Universe, in int, inOwned, revisions bool) *interPodPlan {
	T := len(u.Templates)
	K := kinds(T, revisions)
	ti := &u.Templates[in]
	// hard is InterPodAffinityArgs' hardPodAffinityWeight: the score an
	// existing pod's required affinity term gives a node when it matches
	// the incoming pod.
	hard := u.Scheduler.Profile.HardPodAffinity()
	p := &interPodPlan{matchesAll: make([]bool, K), existingAnti: make([][]model.KeyID, K), score: make([][]weightedKey, K),
		in: in, owned: inOwned, revisions: revisions}
	// admits: a term of the incoming pod matches a pod of template t,
	// owned or not, of its revision or not.
	admits := func(k *model.PodAffinityTerm, t int, same bool) bool {
		return k.MatchesTemplate[t] && k.Revision.AdmitsKind(inOwned, same)
	}
	// matchesIn: a term of an existing pod (owned or not, of the
	// incoming pod's revision or not) matches the incoming pod.
	matchesIn := func(k *model.PodAffinityTerm, owned, same bool) bool {
		return k.MatchesTemplate[in] && k.Revision.AdmitsKind(owned, same)
	}
	for _, k := range ti.PodAffinity {
		p.affinity = append(p.affinity, k.Key)
	}
	matchesAll := func(t int, same bool) bool {
		for i := range ti.PodAffinity {
			if !admits(&ti.PodAffinity[i], t, same) {
				return false
			}
		}
		return len(ti.PodAffinity) > 0
	}
	p.selfMatchesAll = matchesAll(in, true)
	for i := range ti.PodAntiAffinity {
		k := &ti.PodAntiAffinity[i]
		a := antiTerm{key: k.Key, matches: make([]bool, K)}
		for e := range K {
			t, _, same := kindOf(e, T, in)
			a.matches[e] = admits(k, t, same)
		}
		p.anti = append(p.anti, a)
	}
	p.filter = len(ti.PodAffinity)+len(ti.PodAntiAffinity) > 0
	for e := range K {
		t, owned, same := kindOf(e, T, in)
		te := &u.Templates[t]
		p.matchesAll[e] = matchesAll(t, same)
		for i := range te.PodAntiAffinity {
			if k := &te.PodAntiAffinity[i]; matchesIn(k, owned, same) {
				p.existingAnti[e] = append(p.existingAnti[e], k.Key)
				p.existingKeys = appendKey(p.existingKeys, k.Key)
				p.filter = true
			}
		}
		// processExistingPod's five sources, in its order.
		var ws []weightedKey
		for i := range ti.PreferredPodAffinity {
			if w := &ti.PreferredPodAffinity[i]; admits(&w.Term, t, same) {
				ws = append(ws, weightedKey{w.Term.Key, int64(w.Weight)})
			}
		}
		for i := range ti.PreferredPodAntiAffinity {
			if w := &ti.PreferredPodAntiAffinity[i]; admits(&w.Term, t, same) {
				ws = append(ws, weightedKey{w.Term.Key, -int64(w.Weight)})
			}
		}
		for i := range te.PodAffinity {
			if k := &te.PodAffinity[i]; hard > 0 && matchesIn(k, owned, same) {
				ws = append(ws, weightedKey{k.Key, hard})
			}
		}
		for i := range te.PreferredPodAffinity {
			if w := &te.PreferredPodAffinity[i]; matchesIn(&w.Term, owned, same) {
				ws = append(ws, weightedKey{w.Term.Key, int64(w.Weight)})
			}
		}
		for i := range te.PreferredPodAntiAffinity {
			if w := &te.PreferredPodAntiAffinity[i]; matchesIn(&w.Term, owned, same) {
				ws = append(ws, weightedKey{w.Term.Key, -int64(w.Weight)})
			}
		}
		p.score[e] = ws
		for _, w := range ws {
			p.scoreKeys = appendKey(p.scoreKeys, w.key)
			p.scores = true
		}
	}
	return p
}

// appendKey appends k to ks unless it is there.
func appendKey(ks []model.KeyID, k model.KeyID) []model.KeyID {
	for _, x := range ks {
		if x == k {
			return ks
		}
	}
	return append(ks, k)
}

// interPodState is one cycle's InterPodAffinity data: the pair tables of
// the affinity, anti-affinity, existing anti-affinity and score counts,
// and whether each holds any entry.
type interPodState struct {
	plan                           *interPodPlan
	aff, anti, exist, score        []int64
	affAny, antiAny, existAny, any bool
}

// preFilterInterPod counts the pairs over every bound pod (PreFilter, and
// PreScore's topology scores, which read the same pods).
func (c *cycle) preFilterInterPod() {
	ip := &c.ipa
	ip.plan = nil
	pl := c.plan
	if pl == nil || pl.interPod == nil {
		return
	}
	p := pl.interPod[c.p.Template]
	if c.p.Owner == 0 {
		p = pl.interPodBare[c.p.Template]
	}
	if !p.filter && !p.scores {
		return
	}
	ip.plan = p
	size := pl.interPodTabs.size
	c.ipaBuf = resize(c.ipaBuf, 4*size)
	ip.aff, ip.anti, ip.exist, ip.score = c.ipaBuf[:size], c.ipaBuf[size:2*size], c.ipaBuf[2*size:3*size], c.ipaBuf[3*size:]
	ip.affAny, ip.antiAny, ip.existAny, ip.any = false, false, false, false
	off, nodes := pl.interPodTabs.off, c.u.Nodes
	owner, T := c.p.Owner, len(c.u.Templates)
	for i := range c.s.Pods {
		q := &c.s.Pods[i]
		if !model.InSchedulerCache(q) || model.NodeGone(c.s, int(q.Node)-1) {
			// A pod of a deleted node is in no NodeInfo the snapshot
			// lists: no term counts it.
			continue
		}
		ls, t := nodes[q.Node-1].LabelSet, p.podKind(q, owner, T)
		if p.matchesAll[t] {
			for _, k := range p.affinity {
				if v := ls.Get(k); v != 0 {
					ip.aff[off[k]+int(v)]++
					ip.affAny = true
				}
			}
		}
		for _, a := range p.anti {
			if v := ls.Get(a.key); v != 0 && a.matches[t] {
				ip.anti[off[a.key]+int(v)]++
				ip.antiAny = true
			}
		}
		for _, k := range p.existingAnti[t] {
			if v := ls.Get(k); v != 0 {
				ip.exist[off[k]+int(v)]++
				ip.existAny = true
			}
		}
		for _, w := range p.score[t] {
			if v := ls.Get(w.key); v != 0 {
				ip.score[off[w.key]+int(v)] += w.weight
				ip.any = true
			}
		}
	}
}

// interPodAffinityFilter is the plugin's Filter.
type interPodAffinityFilter struct{}

func (interPodAffinityFilter) Name() string { return "InterPodAffinity" }

func (interPodAffinityFilter) Filter(c *cycle, n int) Status {
	ip := &c.ipa
	p := ip.plan
	if p == nil || !p.filter || c.plan.interPodFilterOff {
		return Status{}
	}
	ls, off := c.u.Nodes[n].LabelSet, c.plan.interPodTabs.off
	if len(p.affinity) > 0 {
		exist := true
		for _, k := range p.affinity {
			v := ls.Get(k)
			if v == 0 {
				return reject(UnschedulableAndUnresolvable, reasonAffinity)
			}
			if ip.aff[off[k]+int(v)] <= 0 {
				exist = false
			}
		}
		if !exist && (ip.affAny || !p.selfMatchesAll) {
			return reject(UnschedulableAndUnresolvable, reasonAffinity)
		}
	}
	if ip.antiAny {
		for _, a := range p.anti {
			if v := ls.Get(a.key); v != 0 && ip.anti[off[a.key]+int(v)] > 0 {
				return reject(Unschedulable, reasonAntiAffinity)
			}
		}
	}
	if ip.existAny {
		for _, k := range p.existingKeys {
			if v := ls.Get(k); v != 0 && ip.exist[off[k]+int(v)] > 0 {
				return reject(Unschedulable, reasonExistingAntiAffi)
			}
		}
	}
	return Status{}
}

// interPodAffinityScore is the plugin's Score.
type interPodAffinityScore struct{}

func (interPodAffinityScore) Name() string  { return "InterPodAffinity" }
func (interPodAffinityScore) Weight() int64 { return 2 }

// PreScore skips when no term contributed to any pair.
func (interPodAffinityScore) PreScore(c *cycle) bool { return c.ipa.plan != nil && c.ipa.any }

func (interPodAffinityScore) Score(c *cycle, n int) int64 {
	ip := &c.ipa
	ls, off := c.u.Nodes[n].LabelSet, c.plan.interPodTabs.off
	var s int64
	for _, k := range ip.plan.scoreKeys {
		if v := ls.Get(k); v != 0 {
			s += ip.score[off[k]+int(v)]
		}
	}
	return s
}

// Normalize maps the scores to 0..100 between their minimum and maximum,
// in floating point and truncated, as upstream.
func (interPodAffinityScore) Normalize(c *cycle, scores []int64) {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, s := range scores {
		lo, hi = min(lo, s), max(hi, s)
	}
	diff := hi - lo
	for i, s := range scores {
		f := float64(0)
		if diff > 0 {
			f = float64(maxNodeScore) * (float64(s-lo) / float64(diff))
		}
		scores[i] = int64(f)
	}
}
