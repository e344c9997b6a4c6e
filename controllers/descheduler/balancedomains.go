package descheduler

import (
	"cmp"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// balanceDomains mirrors upstream's balanceDomains over domains sorted
// ascending by size. The ideal average sum/len(ds) is kept as an exact
// fraction: size ≤ avg is size·D ≤ sum, and ⌈size − avg⌉ is
// ⌈(size·D − sum)/D⌉ (upstream computes both in float64, which is exact at
// the model's sizes).
//
// With i at the smallest domain and j at the largest, while i < j: step j
// down once when domain j is not above the average; when j and i are
// within maxSkew, step i up; otherwise move
// min(⌈|d_j| − avg⌉, ⌈avg − |d_i|⌉, ⌈(skew − maxSkew)/2⌉) pods from j to i.
// A moved pod becomes a candidate unless topologyBalanceNodeFit is on and
// it fits on no node of a below-average domain; it still counts as moved.
func (c *cycle) balanceDomains(p *model.DeschedulerProfile, sc spreadConstraint, ds []domain, sum int) []candidate {
	d := len(ds)
	below := c.nodesBelowIdealAvg(sc, ds, sum)
	var plan []candidate
	i, j := 0, d-1
	fixed := d // positions from fixed on hold the domain fixSource chose
	for i < j {
		if ds[j].size*d <= sum {
			j--
		}
		skew := ds[j].size - ds[i].size
		if skew <= sc.c.MaxSkew {
			i++
			continue
		}
		move := min(ceilDiv(ds[j].size*d-sum, d), ceilDiv(sum-ds[i].size*d, d), ceilDiv(skew-sc.c.MaxSkew, 2))
		if move <= 0 {
			i++
			continue
		}
		if j < fixed {
			c.fixSource(sc, ds, j)
			fixed = j
		}
		move = min(move, len(ds[j].pods))
		taken, kept := c.takeForEviction(ds[j].pods, below, move)
		if c.explain != nil {
			c.note("      move %d from %s to %s: pods %v\n", move, c.domainName(sc, ds[j]), c.domainName(sc, ds[i]), plus1(taken))
		}
		for _, pod := range taken {
			if p.TopologyBalanceNodeFit && !c.fitsAnyOtherNode(pod, below) {
				c.note("      pod %d fits on no node of a below-average domain: counted as moved, not evicted\n", pod+1)
				continue
			}
			plan = append(plan, candidate{pod: pod, kind: reasonTopologySpread, key: sc.c.Key})
		}
		// The moved pods join domain i only as a count: i < j throughout,
		// so a domain that received pods is never a source again.
		ds[j].pods = kept
		ds[j].size -= move
		ds[i].size += move
	}
	return plan
}

// fixSource decides which domain sits at position j, the next one pods
// are moved out of. Upstream sorts the domains by size with an unstable
// sort over map order, so domains of equal size come in any order: any of
// the domains of position j's size that are not yet a source may be the
// one at j. The choice is made only here, where it matters: a domain
// below j only ever receives pods as a count, and its identity is never
// read. The candidates are listed from j down, so choice 0 keeps the
// order by label value id (Kivi's). Hostname domains of interchangeable
// nodes are one choice up to symmetry (model.Tx.ChooseNodeIndex).
func (c *cycle) fixSource(sc spreadConstraint, ds []domain, j int) {
	var buf [16]int
	positions := buf[:0]
	for p := j; p >= 0 && ds[p].tie == ds[j].tie; p-- {
		positions = append(positions, p)
	}
	if len(positions) < 2 || c.u.Options.TieBreak == model.LowestIndex {
		// With Kivi's tie-break the order by label value id stands.
		return
	}
	nodes := make([]int, len(positions))
	for k, p := range positions {
		nodes[k] = c.onlyNode(sc.c.Key, ds[p].value)
	}
	p := positions[c.tx.ChooseNodeIndex(nodes)]
	ds[p].value, ds[j].value = ds[j].value, ds[p].value
	ds[p].pods, ds[j].pods = ds[j].pods, ds[p].pods
}

// onlyNode returns the one node whose label key has value v, or -1 when
// there are several (or none).
func (c *cycle) onlyNode(key model.KeyID, v model.ValueID) int {
	only := -1
	for n := range c.u.Nodes {
		if c.u.Nodes[n].LabelSet.Get(key) == v {
			if only >= 0 {
				return -1
			}
			only = n
		}
	}
	return only
}

// nodesBelowIdealAvg is filterNodesBelowIdealAvg: the cycle's nodes that
// pass the constraint's inclusion policies, carry the key and belong to a
// domain below the ideal average (sizes before any move).
func (c *cycle) nodesBelowIdealAvg(sc spreadConstraint, ds []domain, sum int) []int {
	var nodes []int
	for _, n := range c.ready {
		v := c.u.Nodes[n].LabelSet.Get(sc.c.Key)
		if v == 0 || !c.includes(sc, n) {
			continue
		}
		for _, dom := range ds {
			if dom.value == v && dom.size*len(ds) < sum {
				nodes = append(nodes, n)
				break
			}
		}
	}
	return nodes
}

// evictionKey is a domain pod's place in the eviction order: pods that
// fit on a below-average node before those that do not, pods without
// nodeSelector or node affinity before those with, then higher priority
// before lower (upstream's sortDomains and its stable re-sort, which
// evict from the back: sortDomains' comparator !comparePodsByPriority
// puts lower priorities in front, so the back, evicted first, holds the
// highest). Pods with equal keys are tied: upstream takes them in listing
// (informer) order, which the model does not know.
type evictionKey struct {
	noFit, pinned bool
	priority      int32
}

func (x evictionKey) before(y evictionKey) bool {
	if x.noFit != y.noFit {
		return !x.noFit
	}
	if x.pinned != y.pinned {
		return !x.pinned
	}
	return x.priority > y.priority
}

// takeForEviction returns the move pods of a domain that go first and the
// rest, in eviction order. Among the pods tied with the last one taken it
// branches over which go (ties.go: identical pods are one choice; choice 0
// takes the lowest slots, Kivi's pick).
func (c *cycle) takeForEviction(pods []int, below []int, move int) (taken, kept []int) {
	type entry struct {
		key evictionKey
		pod int
	}
	es := make([]entry, len(pods))
	for i, pod := range pods {
		t := &c.u.Templates[c.s.Pods[pod].Template]
		es[i] = entry{key: evictionKey{
			noFit:    !c.fitsAnyOtherNode(pod, below),
			pinned:   len(t.NodeSelector) > 0 || len(t.Required) > 0 || len(t.Preferred) > 0,
			priority: t.Priority,
		}, pod: pod}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if a.key == b.key {
			return cmp.Compare(a.pod, b.pod)
		}
		if a.key.before(b.key) {
			return -1
		}
		return 1
	})
	if move <= 0 {
		for _, e := range es {
			kept = append(kept, e.pod)
		}
		return nil, kept
	}
	last := es[move-1].key
	lo, hi := move-1, move
	for lo > 0 && es[lo-1].key == last {
		lo--
	}
	for hi < len(es) && es[hi].key == last {
		hi++
	}
	var tied []int
	for _, e := range es[lo:hi] {
		tied = append(tied, e.pod)
	}
	chosen := c.tx.ChoosePods(c.s, tied, move-lo)
	for _, e := range es[:lo] {
		taken = append(taken, e.pod)
	}
	taken = append(taken, chosen...)
	for _, e := range es[lo:] {
		if !slices.Contains(chosen, e.pod) {
			kept = append(kept, e.pod)
		}
	}
	return taken, kept
}
