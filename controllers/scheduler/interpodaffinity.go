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
// incoming pod its required affinity terms (hardPodAffinityWeight 1), its
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

// hardPodAffinityWeight is InterPodAffinityArgs' default: the score an
// existing pod's required affinity term gives a node when it matches the
// incoming pod.
const hardPodAffinityWeight = 1

// interPodPlan is InterPodAffinity's static part for incoming pods of one
// template T: the terms resolved against every template t of the
// universe.
type interPodPlan struct {
	// affinity are the keys of T's required affinity terms; matchesAll[t]
	// says a pod of template t matches all of them (false when there are
	// none), selfMatchesAll the same of T.
	affinity       []model.KeyID
	matchesAll     []bool
	selfMatchesAll bool
	// anti are T's required anti-affinity terms.
	anti []antiTerm
	// existingAnti[t] are the keys of template t's required anti-affinity
	// terms that match T; existingKeys the distinct ones.
	existingAnti [][]model.KeyID
	existingKeys []model.KeyID
	// score[t] is what a pod of template t adds to its node's pair of
	// each key; scoreKeys the distinct keys.
	score     [][]weightedKey
	scoreKeys []model.KeyID
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

// newInterPodPlans resolves the terms for every template of u as the
// incoming one; nil when no template has an inter-pod affinity term, so
// that the plugin costs nothing then.
func newInterPodPlans(u *model.Universe) ([]*interPodPlan, interPodTables) {
	any := false
	for i := range u.Templates {
		any = any || u.Templates[i].HasPodAffinity()
	}
	if !any {
		return nil, interPodTables{}
	}
	var tabs interPodTables
	for k := range u.Labels.NumKeys() {
		tabs.off = append(tabs.off, tabs.size)
		tabs.size += u.Labels.NumValues(model.KeyID(k)) + 1
	}
	T := len(u.Templates)
	plans := make([]*interPodPlan, T)
	for in := range u.Templates {
		ti := &u.Templates[in]
		p := &interPodPlan{matchesAll: make([]bool, T), existingAnti: make([][]model.KeyID, T), score: make([][]weightedKey, T)}
		for _, k := range ti.PodAffinity {
			p.affinity = append(p.affinity, k.Key)
		}
		matchesAll := func(t int) bool {
			for _, k := range ti.PodAffinity {
				if !k.MatchesTemplate[t] {
					return false
				}
			}
			return len(ti.PodAffinity) > 0
		}
		p.selfMatchesAll = matchesAll(in)
		for _, k := range ti.PodAntiAffinity {
			p.anti = append(p.anti, antiTerm{key: k.Key, matches: k.MatchesTemplate})
		}
		p.filter = len(ti.PodAffinity)+len(ti.PodAntiAffinity) > 0
		for t := range u.Templates {
			te := &u.Templates[t]
			p.matchesAll[t] = matchesAll(t)
			for _, k := range te.PodAntiAffinity {
				if k.MatchesTemplate[in] {
					p.existingAnti[t] = append(p.existingAnti[t], k.Key)
					p.existingKeys = appendKey(p.existingKeys, k.Key)
					p.filter = true
				}
			}
			// processExistingPod's five sources, in its order.
			var ws []weightedKey
			for _, w := range ti.PreferredPodAffinity {
				if w.Term.MatchesTemplate[t] {
					ws = append(ws, weightedKey{w.Term.Key, int64(w.Weight)})
				}
			}
			for _, w := range ti.PreferredPodAntiAffinity {
				if w.Term.MatchesTemplate[t] {
					ws = append(ws, weightedKey{w.Term.Key, -int64(w.Weight)})
				}
			}
			for _, k := range te.PodAffinity {
				if k.MatchesTemplate[in] {
					ws = append(ws, weightedKey{k.Key, hardPodAffinityWeight})
				}
			}
			for _, w := range te.PreferredPodAffinity {
				if w.Term.MatchesTemplate[in] {
					ws = append(ws, weightedKey{w.Term.Key, int64(w.Weight)})
				}
			}
			for _, w := range te.PreferredPodAntiAffinity {
				if w.Term.MatchesTemplate[in] {
					ws = append(ws, weightedKey{w.Term.Key, -int64(w.Weight)})
				}
			}
			p.score[t] = ws
			for _, w := range ws {
				p.scoreKeys = appendKey(p.scoreKeys, w.key)
				p.scores = true
			}
		}
		plans[in] = p
	}
	return plans, tabs
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
	if !p.filter && !p.scores {
		return
	}
	ip.plan = p
	size := pl.interPodTabs.size
	c.ipaBuf = resize(c.ipaBuf, 4*size)
	ip.aff, ip.anti, ip.exist, ip.score = c.ipaBuf[:size], c.ipaBuf[size:2*size], c.ipaBuf[2*size:3*size], c.ipaBuf[3*size:]
	ip.affAny, ip.antiAny, ip.existAny, ip.any = false, false, false, false
	off, nodes := pl.interPodTabs.off, c.u.Nodes
	for i := range c.s.Pods {
		q := &c.s.Pods[i]
		if q.Phase == model.Free || q.Node == 0 {
			continue
		}
		ls, t := nodes[q.Node-1].LabelSet, int(q.Template)
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
	if p == nil || !p.filter {
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
