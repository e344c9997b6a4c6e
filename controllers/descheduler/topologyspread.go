package descheduler

import (
	"cmp"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// topologySpread is the RemovePodsViolatingTopologySpreadConstraint Balance
// plugin (pkg/framework/plugins/removepodsviolatingtopologyspreadconstraint/
// topologyspreadconstraint.go at v0.36).
type topologySpread struct{}

func (topologySpread) Name() string {
	return model.RemovePodsViolatingTopologySpreadConstraint.String()
}

// domain is one topology domain of a constraint: the label value, the
// counted pods on its nodes in listing (slot) order, and its size in the
// balancing bookkeeping.
type domain struct {
	value model.ValueID
	pods  []int
	size  int
	// tie is the size the domains were sorted by: domains of equal tie
	// are in no order upstream (balanceDomains' fixSource).
	tie int
}

// Plan counts the evictable pods (v0.28+ lists only pods passing
// DefaultEvictor.Filter), collects the constraints they declare and
// balances each unbalanced one. Every constraint is computed from the same
// counts: candidates of earlier constraints are not removed.
func (t topologySpread) Plan(c *cycle, p *model.DeschedulerProfile) []candidate {
	// listed are the pods the plugin lists (a terminating pod with the
	// evict annotation among them: terminatingListed): they declare the
	// constraints. counted leaves the terminating ones out, as upstream's
	// count of each domain does.
	var listed, counted []int
	for pod := range c.s.Pods {
		if c.filter(p, pod) && c.admits(&p.TopologySpreadFilter, pod) {
			listed = append(listed, pod)
			if c.s.Pods[pod].Phase != model.Terminating {
				counted = append(counted, pod)
			}
		}
	}
	constraints := c.collectConstraints(p, listed)
	if len(constraints) == 0 {
		c.note("    no constraint selected\n")
	}
	var plan []candidate
	for _, sc := range constraints {
		domains, sum := c.domains(sc, counted)
		if c.explain != nil {
			c.noteConstraint(sc, domains, sum)
		}
		if balanced(domains, sc.c.MaxSkew) {
			c.note(": balanced\n")
			continue
		}
		c.note(": unbalanced\n")
		plan = append(plan, c.balanceDomains(p, sc, domains, sum)...)
	}
	return plan
}

// Balance prints every candidate's reason, then evicts the candidates once
// each, by owner and then in ascending pod order (upstream: map order),
// re-checking Filter and PreEvictionFilter; a node whose quota is used up
// is skipped, the total limit stops the plugin. Where an eviction limit
// cuts the set, which pods come first is a choice (inLimitOrder). Ordering by owner first
// keeps the order in which owners reach the kubelet queue (and so the
// deployment and HPA queues) independent of pod slots.
func (t topologySpread) Balance(c *cycle, p *model.DeschedulerProfile) {
	plan := t.Plan(c, p)
	for _, cd := range plan {
		cd.log(c)
	}
	pods := make([]int, 0, len(plan))
	for _, cd := range plan {
		pods = append(pods, cd.pod)
	}
	slices.SortFunc(pods, func(a, b int) int {
		if oa, ob := c.s.Pods[a].Owner, c.s.Pods[b].Owner; oa != ob {
			return cmp.Compare(oa, ob)
		}
		return cmp.Compare(a, b)
	})
	pods = slices.Compact(pods)
	// Upstream evicts the set in map order: when a disruption budget lets
	// through fewer than draw on it, which of them go is a choice.
	pods = c.tx.ThroughFirst(c.s, slices.DeleteFunc(pods, func(pod int) bool {
		return !c.filter(p, pod) || !c.admits(&p.TopologySpreadFilter, pod) || !c.preEvictionFilter(p, pod)
	}), c.drawnBudget, c.allowance)
	c.inLimitOrder(pods, func(pod int) bool {
		if !c.nodeQuotaLeft(c.s.Pods[pod].NodeOf()) || !c.filter(p, pod) || !c.preEvictionFilter(p, pod) {
			return false
		}
		return c.evict(pod, nil) == totalLimit
	})
}

// domains builds the constraint's domains: one per value of the key on the
// cycle's nodes that carry it and pass the inclusion policies (so empty
// domains count), then every counted pod matching the selector on a node
// carrying the key joins its node's domain, creating it if the node failed
// the policies. Nodes without the key belong to no domain. Domains come
// out sorted ascending by size, ties by label value id (upstream's sort is
// unstable over map order).
func (c *cycle) domains(sc spreadConstraint, counted []int) ([]domain, int) {
	key := sc.c.Key
	// at[v] is 1 + the index of value v's domain, 0 while it has none.
	top := 0
	for n := range c.u.Nodes {
		top = max(top, int(c.u.Nodes[n].LabelSet.Get(key)))
	}
	at := make([]int32, top+1)
	var ds []domain
	find := func(v model.ValueID) int {
		if at[v] == 0 {
			ds = append(ds, domain{value: v})
			at[v] = int32(len(ds))
		}
		return int(at[v]) - 1
	}
	for _, n := range c.ready {
		if v := c.u.Nodes[n].LabelSet.Get(key); v != 0 && c.includes(sc, n) {
			find(v)
		}
	}
	// Count each domain's pods first, then carve their lists out of one
	// array (clipped: a list never grows into the next).
	member := make([]int32, 0, len(counted)) // the domain of each counted pod, -1 for none
	sum := 0
	for _, pod := range counted {
		ps := &c.s.Pods[pod]
		d := int32(-1)
		if sc.matches(ps) {
			if v := c.u.Nodes[ps.NodeOf()].LabelSet.Get(key); v != 0 {
				d = int32(find(v))
				ds[d].size++
				sum++
			}
		}
		member = append(member, d)
	}
	pods := make([]int, sum)
	from := 0
	for i := range ds {
		ds[i].pods = pods[from : from : from+ds[i].size]
		from += ds[i].size
	}
	for k, pod := range counted {
		if d := member[k]; d >= 0 {
			ds[d].pods = append(ds[d].pods, pod)
		}
	}
	slices.SortFunc(ds, func(a, b domain) int {
		if a.size != b.size {
			return cmp.Compare(a.size, b.size)
		}
		return cmp.Compare(a.value, b.value)
	})
	for i := range ds {
		ds[i].tie = ds[i].size
	}
	return ds, sum
}

// balanced is topologyIsBalanced: max − min ≤ maxSkew over all domains,
// empty ones included.
func balanced(ds []domain, maxSkew int) bool {
	if len(ds) == 0 {
		return true
	}
	lo, hi := ds[0].size, ds[0].size
	for _, d := range ds {
		lo, hi = min(lo, d.size), max(hi, d.size)
	}
	return hi-lo <= maxSkew
}

func (c *cycle) noteConstraint(sc spreadConstraint, ds []domain, sum int) {
	c.note("    constraint %s maxSkew %d %s (template %s): domains",
		c.u.Labels.KeyName(sc.c.Key), sc.c.MaxSkew, sc.c.When, c.u.Templates[sc.template].Name)
	for _, d := range ds {
		c.note(" %s=%d%s", c.domainName(sc, d), d.size, plus1(d.pods))
	}
	c.note(", %d pods", sum)
}

func (c *cycle) domainName(sc spreadConstraint, d domain) string {
	return c.u.Labels.ValueName(sc.c.Key, d.value)
}
