package descheduler

import (
	"sort"

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
		c.orderForEviction(ds[j].pods, below)
		move = min(move, len(ds[j].pods))
		taken := ds[j].pods[:move]
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
		ds[j].pods = ds[j].pods[move:]
		ds[j].size -= move
		ds[i].size += move
	}
	return plan
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

// orderForEviction sorts a domain's pods so that the first ones go first:
// pods that fit on a below-average node before those that do not, pods
// without nodeSelector or node affinity before those with (upstream's
// sortDomains and its stable re-sort, which evict from the back), then the
// lowest slot first (Kivi; upstream takes the last listed). Pod priority is
// not modelled.
func (c *cycle) orderForEviction(pods []int, below []int) {
	type key struct {
		noFit, pinned bool
		pod           int
	}
	keys := make([]key, len(pods))
	for i, pod := range pods {
		t := &c.u.Templates[c.s.Pods[pod].Template]
		keys[i] = key{
			noFit:  !c.fitsAnyOtherNode(pod, below),
			pinned: len(t.NodeSelector) > 0 || len(t.Required) > 0 || len(t.Preferred) > 0,
			pod:    pod,
		}
	}
	sort.Slice(keys, func(a, b int) bool {
		x, y := keys[a], keys[b]
		if x.noFit != y.noFit {
			return !x.noFit
		}
		if x.pinned != y.pinned {
			return !x.pinned
		}
		return x.pod < y.pod
	})
	for i, k := range keys {
		pods[i] = k.pod
	}
}
