package descheduler

import (
	"sort"

	"github.com/kivi-go/kivi/model"
)

// deschedulePlugin is a plugin of the deschedule extension point: it
// walks the cycle's nodes and their pods and evicts the pods that break
// its rule, through the evictor's limits (admit). Its evictions are
// carried out when it returns (flush).
type deschedulePlugin interface {
	Name() string
	Deschedule(c *cycle, p *model.DeschedulerProfile)
}

// deschedulePluginFor returns the implementation of a configured
// deschedule plugin (nil for an unknown one).
func deschedulePluginFor(d model.DeschedulePlugin) deschedulePlugin {
	switch d {
	case model.RemovePodsViolatingNodeTaints:
		return nodeTaints{}
	case model.RemovePodsViolatingNodeAffinity:
		return nodeAffinity{}
	case model.RemovePodsViolatingInterPodAntiAffinity:
		return podAntiAffinity{}
	case model.RemoveFailedPods:
		return failedPods{}
	case model.PodLifeTime:
		return podLifeTime{}
	case model.RemovePodsHavingTooManyRestarts:
		return tooManyRestarts{}
	}
	return nil
}

// runDeschedule is the first half of upstream's runProfiles: every
// profile's Deschedule plugins, in profile and plugin order, before any
// profile balances. The evictor's counters are the cycle's, shared with
// the balance plugins that follow.
func (c *cycle) runDeschedule() {
	for i := range c.u.Descheduler.Profiles {
		p := &c.u.Descheduler.Profiles[i]
		if len(p.Deschedule.Enabled) == 0 {
			continue
		}
		c.note("profile %q, deschedule:\n", p.Name)
		for _, d := range p.Deschedule.Enabled {
			plugin := deschedulePluginFor(d)
			if plugin == nil {
				c.note("  %s: not modelled, skipped\n", d)
				continue
			}
			c.note("  %s:\n", plugin.Name())
			before := c.ev.total
			plugin.Deschedule(c, p)
			if c.ev.total == before {
				c.note("    nothing evicted\n")
			}
		}
	}
}

// violation is a pod a deschedule plugin has asked the evictor to evict
// (admitted, or refused by the Eviction API), with what it violates.
type violation struct {
	pod    int
	plugin model.DeschedulePlugin
	// refusal is the Eviction API's answer when it refused the eviction.
	refusal string
	// taint is the untolerated taint (RemovePodsViolatingNodeTaints).
	taint model.Taint
	// preferred: a preferred node-affinity pass; best is then a node of
	// the highest weight, weights the best and the pod's own
	// (RemovePodsViolatingNodeAffinity).
	preferred   bool
	best        int
	bestW, ownW int
	// other is a pod the term of key matches in the pod's domain
	// (RemovePodsViolatingInterPodAntiAffinity).
	other int
	key   model.KeyID
	// reasons are the admission reasons a Failed pod may have
	// (RemoveFailedPods).
	reasons []string
	// criteria are the PodLifeTime filters the pod matched.
	criteria string
	// threshold is the podRestartThreshold the pod's restarts reached
	// (RemovePodsHavingTooManyRestarts).
	threshold int32
}

// tryEvict asks the evictor to admit pod's eviction and, when it does or
// the Eviction API refuses it, records it in *out; it returns the
// evictor's outcome so that the plugin can react to a limit as upstream
// does.
func (c *cycle) tryEvict(v violation, out *[]violation) evictOutcome {
	o, refusal := c.admit(v.pod)
	switch o {
	case evicted:
		c.note("    pod %d on node %s: evict\n", v.pod+1, c.nodeName(c.s.Pods[v.pod].NodeOf()))
		*out = append(*out, v)
	case refused:
		v.refusal = refusal
		*out = append(*out, v)
	}
	return o
}

// tryEvictInBudgetOrder asks the evictor to admit the violations found
// on each node, node by node in budget order (budgetorder.go): a node
// limit moves on to the next node, the total limit ends the walk.
func (c *cycle) tryEvictInBudgetOrder(units []budgetUnit, found map[int]violation, out *[]violation) {
	c.inBudgetOrder(units, true, func(_ int, pods []int) bool {
		stop := false
		c.inLimitOrder(pods, func(pod int) bool {
			o := c.tryEvict(found[pod], out)
			stop = o == totalLimit
			return o == nodeLimit || stop
		})
		return stop
	})
}

// flush carries out a pass's admitted evictions owner by owner, then in
// slot order, each with its reason line, and writes its refused ones in
// the same order, each with its reason line and the API's answer: the
// order in which owners reach the kubelet and deployment queues then
// depends neither on pod slots nor on the order the pass visited the
// nodes in.
func (c *cycle) flush(vs []violation) {
	sort.Slice(vs, func(a, b int) bool {
		oa, ob := c.s.Pods[vs[a].pod].Owner, c.s.Pods[vs[b].pod].Owner
		if oa != ob {
			return oa < ob
		}
		return vs[a].pod < vs[b].pod
	})
	for _, v := range vs {
		v.log(c)
		if v.refusal != "" {
			c.logRefusal(v.pod, v.refusal)
			continue
		}
		c.remove(v.pod)
	}
}

// log prints the violation's reason line, named after the plugin.
func (v violation) log(c *cycle) {
	if !c.tx.Tracing() {
		return
	}
	ps := &c.s.Pods[v.pod]
	node := c.nodeName(ps.NodeOf())
	switch {
	case v.plugin == model.RemovePodsViolatingNodeTaints:
		c.tx.Log(Component, "RemovePodsViolatingNodeTaints: pod %s does not tolerate taint %s of node %s",
			c.s.PodRef(v.pod), taintString(v.taint), node)
	case v.plugin == model.RemovePodsViolatingNodeAffinity && v.preferred:
		c.tx.Log(Component, "RemovePodsViolatingNodeAffinity: pod %s prefers node %s (weight %d) to its node %s (weight %d)",
			c.s.PodRef(v.pod), c.nodeName(v.best), v.bestW, node, v.ownW)
	case v.plugin == model.RemovePodsViolatingNodeAffinity:
		c.tx.Log(Component, "RemovePodsViolatingNodeAffinity: pod %s does not match its node selector or required node affinity on node %s",
			c.s.PodRef(v.pod), node)
	case v.plugin == model.RemovePodsViolatingInterPodAntiAffinity:
		c.tx.Log(Component, "RemovePodsViolatingInterPodAntiAffinity: pod %s on node %s has required anti-affinity to pod %s (topologyKey %s)",
			c.s.PodRef(v.pod), node, c.s.PodRef(v.other), c.u.Labels.KeyName(v.key))
	case v.plugin == model.RemoveFailedPods:
		c.tx.Log(Component, "RemoveFailedPods: pod %s on node %s is Failed (reason %s)",
			c.s.PodRef(v.pod), node, oneOf(v.reasons))
	case v.plugin == model.PodLifeTime:
		c.tx.Log(Component, "PodLifeTime: pod %s (%s) on node %s matches %s", c.s.PodRef(v.pod), ps.Phase, node, v.criteria)
	case v.plugin == model.RemovePodsHavingTooManyRestarts:
		c.tx.Log(Component, "RemovePodsHavingTooManyRestarts: pod %s on node %s %s", c.s.PodRef(v.pod), node, restartsWords(ps, v.threshold))
	}
}

// admits reports whether a plugin's own pod filter f lists pod.
func (c *cycle) admits(f *model.PodFilter, pod int) bool {
	return f.Admits(&c.u.Templates[c.s.Pods[pod].Template])
}

func taintString(t model.Taint) string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}

// listedOn returns the pods on node n that pass DefaultEvictor's Filter
// and PreEvictionFilter and the plugin's own filter f, in slot order:
// what the node plugins list with their pod filter.
func (c *cycle) listedOn(p *model.DeschedulerProfile, f *model.PodFilter, n int) []int {
	var out []int
	for pod := range c.s.Pods {
		if c.s.Pods[pod].NodeOf() == n && c.admits(f, pod) && c.filter(p, pod) && c.preEvictionFilter(p, pod) {
			out = append(out, pod)
		}
	}
	return out
}

// fitsNodeOf is the descheduler's NodeFit of pod on node n: on another
// node fitsNode; on its own node the requests are not checked (the pod
// already holds them), and the pod does not count against its own
// anti-affinity, but an unschedulable node fails whatever the pod
// tolerates, as everywhere (IsNodeUnschedulable comes first).
func (c *cycle) fitsNodeOf(pod, n int) bool {
	ps := &c.s.Pods[pod]
	if n != ps.NodeOf() {
		return c.fitsNode(ps, n)
	}
	f := c.u.Templates[ps.Template].Fit[n]
	return f.Affinity && !f.NoSchedule && !f.NoExecute && !c.unschedulable(n) && !c.antiAffinityOnNode(ps, n, pod)
}

// fitsAnyNode is PodFitsAnyNode over the cycle's nodes, the pod's own
// included.
func (c *cycle) fitsAnyNode(pod int) bool {
	for _, n := range c.ready {
		if c.fitsNodeOf(pod, n) {
			return true
		}
	}
	return false
}

// antiAffinityOnNode is NodeFit's podMatchesInterPodAntiAffinity: some
// required anti-affinity term of pod decl matches a pod bound to node n
// (any pod but self that is not Failed; the term's namespaces as the
// descheduler reads them, PodAffinityTerm.DeschedulerMatches), and n
// carries the term's key.
func (c *cycle) antiAffinityOnNode(decl *model.PodState, n, self int) bool {
	terms := c.u.Templates[decl.Template].PodAntiAffinity
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		k := &terms[i]
		if !c.u.Nodes[n].LabelSet.Has(k.Key) {
			continue
		}
		for q := range c.s.Pods {
			qs := &c.s.Pods[q]
			if q != self && bound(qs) && qs.NodeOf() == n && k.DeschedulerMatches(decl, qs) {
				return true
			}
		}
	}
	return false
}

// bound reports whether a pod is bound to a node and not terminal: what
// the descheduler's pod indexer lists on a node (Pending, Running, or
// being deleted).
func bound(ps *model.PodState) bool {
	switch ps.Phase {
	case model.Pending, model.Running, model.Terminating:
		return ps.Node != 0
	}
	return false
}
