package descheduler

import (
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// What RemoveFailedPods and PodLifeTime cannot know in the model.
//
// Both plugins filter on things the model does not record: a pod's age
// (there is no clock), the reason the kubelet gave when it rejected a
// pod at admission (the kubelet logs it, the state does not keep it),
// whether a bound Pending pod's containers show ContainerCreating yet,
// and pod conditions. A filter the model cannot decide for a pod makes
// the pod a "maybe": the plugin branches over which of its maybe pods
// match (chooseSubset), every subset, so that what a real cycle does for
// some ages and reasons is always one of the branches (an
// over-approximation: the branches also pair ages and reasons no real
// cluster could have at once, such as a pod judged too young in one
// cycle and old enough in an earlier one).

// verdict is what the model can tell of a pod against a plugin's filters.
type verdict uint8

const (
	noMatch verdict = iota
	// maybeMatch: some filter depends on what the model does not record.
	maybeMatch
	sureMatch
)

// and combines the verdicts of two filters.
func (m verdict) and(o verdict) verdict { return min(m, o) }

// listedAnyPhase returns the pods on node n that pass
// DefaultEvictor's Filter and PreEvictionFilter, as filterAnyPhase
// reads them, and the plugin's own filter f, in slot order.
func (c *cycle) listedAnyPhase(p *model.DeschedulerProfile, f *model.PodFilter, n int) []int {
	var out []int
	for pod := range c.s.Pods {
		if c.s.Pods[pod].NodeOf() == n && c.admits(f, pod) && c.filterAnyPhase(p, pod) && c.preEvictionFilter(p, pod) {
			out = append(out, pod)
		}
	}
	return out
}

// filterAnyPhase is DefaultEvictor.Filter for the plugins that look at
// Failed pods too: the pod is bound to a node of the cycle and Failed or
// listable as filter's are (listable), owned by a controller unless
// it is Failed and evictFailedBarePods lifts the FailedBarePods
// protection, and not protected by its priority.
func (c *cycle) filterAnyPhase(p *model.DeschedulerProfile, pod int) bool {
	ps := &c.s.Pods[pod]
	if ps.Phase != model.Failed && !c.listable(pod) {
		return false
	}
	n := ps.NodeOf()
	if n < 0 || !c.isReady[n] {
		return false
	}
	return c.evictorAdmits(p, ps, ps.Owner != 0 || ps.Phase == model.Failed && p.EvictFailedBarePods)
}

// ownerKind is the kind of the pod's controller, "" for a bare pod.
func (c *cycle) ownerKind(pod int) string {
	if o := int(c.s.Pods[pod].Owner) - 1; o >= 0 {
		return c.u.OwnerKind(o)
	}
	return ""
}

// failedReasons are the status reasons a Failed pod may carry, which the
// state does not keep: the kubelet's when it rejected the pod at
// admission (admissionReasons), and, when the pod passes the static
// admission checks on its node and so may have run there, the kubelet's
// when it killed the running pod: Evicted (its eviction manager, under
// memory pressure: with an eventMemoryChange) and Preempting (making room
// for a critical pod: with a template the kubelet takes as critical).
func (c *cycle) failedReasons(pod int) []string {
	out := c.admissionReasons(pod)
	ps := &c.s.Pods[pod]
	fit := &c.u.Templates[ps.Template].Fit[ps.NodeOf()]
	if fit.OSLabelMismatch || fit.OSFieldMismatch || !fit.Affinity || !fit.NodeName || fit.NoExecute {
		return out
	}
	if c.u.HasMemoryChange() {
		out = append(out, evictedReason)
	}
	if slices.ContainsFunc(c.u.Templates, func(t model.PodTemplate) bool { return t.KubeletCritical() }) {
		out = append(out, preemptingReason)
	}
	return out
}

// The status reasons of a running pod the kubelet killed
// (controllers/kubelet: the eviction manager, the critical pod admission
// handler).
const (
	evictedReason    = "Evicted"
	preemptingReason = "Preempting"
)

// admissionReasons are the status reasons the kubelet may have given
// Failed pod when it rejected it at admission (controllers/kubelet,
// admission.go), which the state does not keep: the first failing check
// among the pod count, cpu, memory and the scalar resources (each
// possible when the template requests it, the pod count when the node's
// pod capacity can be reached with every pod slot on it), then the first
// of NodeAffinity, NodeName and TaintToleration the pod fails on its node
// (always the same). In the order of those checks. A pod whose
// kubernetes.io/os label is not its node's OS was rejected for that, the
// kubelet's first predicate, and for nothing else; one whose spec.os.name
// is not its node's OS, for that (the second).
func (c *cycle) admissionReasons(pod int) []string {
	ps := &c.s.Pods[pod]
	n := ps.NodeOf()
	t := &c.u.Templates[ps.Template]
	node := &c.u.Nodes[n]
	if t.Fit[n].OSLabelMismatch {
		return []string{model.PodOSSelectorReason}
	}
	if t.Fit[n].OSFieldMismatch {
		return []string{model.PodOSNotSupportedReason}
	}
	var out []string
	if node.ReservedPods+len(c.s.Pods) > node.MaxPods {
		out = append(out, "OutOfpods")
	}
	if t.CPU > 0 {
		out = append(out, "OutOfcpu")
	}
	if t.Memory > 0 {
		out = append(out, "OutOfmemory")
	}
	for k, r := range t.Scalar {
		if r > 0 {
			out = append(out, "OutOf"+c.u.ScalarResources[k])
		}
	}
	fit := &t.Fit[n]
	switch {
	case !fit.Affinity:
		out = append(out, "NodeAffinity")
	case !fit.NodeName:
		out = append(out, "NodeName")
	case fit.NoExecute:
		out = append(out, "TaintToleration")
	}
	return out
}

// matchOneOf is whether a value known to be one of possible is in want.
func matchOneOf(possible, want []string) verdict {
	in := 0
	for _, r := range possible {
		if slices.Contains(want, r) {
			in++
		}
	}
	switch {
	case in == 0:
		return noMatch
	case in == len(possible):
		return sureMatch
	}
	return maybeMatch
}

// chooseSubset branches over which of pods (in slot order) verdict a
// filter the model cannot decide: how many (choice 0: all of them), and
// which, up to identical pods (model.Tx.ChoosePods). The chosen pods
// come back in the order of pods.
func (c *cycle) chooseSubset(pods []int) []int {
	if len(pods) == 0 {
		return nil
	}
	k := len(pods) - c.tx.Choose(len(pods)+1)
	chosen := c.tx.ChoosePods(c.s, pods, k)
	out := make([]int, 0, len(chosen))
	for _, p := range pods {
		if slices.Contains(chosen, p) {
			out = append(out, p)
		}
	}
	return out
}

// matchingUnits lists, node by node in the cycle's order, the pods that
// the DefaultEvictor and a plugin's own filter f admit (listedAnyPhase)
// and that match: every sure match, and the maybes this branch lets
// match (chooseSubset over all the nodes' maybes at once). Each node is
// one budget unit, its pods in listing order.
func (c *cycle) matchingUnits(p *model.DeschedulerProfile, f *model.PodFilter, match func(pod int) verdict) []budgetUnit {
	units := make([]budgetUnit, len(c.ready))
	var sure, maybe []int
	for i, n := range c.ready {
		units[i].node = n
		units[i].pods = c.listedAnyPhase(p, f, n)
		for _, pod := range units[i].pods {
			switch match(pod) {
			case sureMatch:
				sure = append(sure, pod)
			case maybeMatch:
				maybe = append(maybe, pod)
			}
		}
	}
	evict := append(sure, c.chooseSubset(maybe)...)
	for i := range units {
		units[i].pods = slices.DeleteFunc(units[i].pods, func(pod int) bool { return !slices.Contains(evict, pod) })
	}
	return units
}

// admitsAll reports whether the evictor would admit every one of pods,
// tried in order, without changing the cycle: then the order in which
// they are tried changes nothing.
func (c *cycle) admitsAll(pods []int) bool {
	saved := c.ev.clone()
	explain := c.explain
	c.explain = nil
	ok := true
	for _, p := range pods {
		if o, _ := c.admit(p); o != evicted {
			ok = false
			break
		}
	}
	c.ev, c.explain = saved, explain
	return ok
}

// deleteFailed carries out the eviction of a Failed pod: the API server
// deletes a pod in a terminal phase at once, without looking at budgets,
// and its slot is free, as when the pod garbage collector deletes it
// (controllers/podgc). It held no resources and its owner replaced it
// when it failed, so nothing is woken and no eviction is marked: the
// intents that count evictions (no_oscillation_eviction) count
// disruptions of pods that were running or about to, and this is not one.
func (c *cycle) deleteFailed(pod int) {
	if i := slices.Index(c.ev.pending, pod); i >= 0 {
		c.ev.pending = slices.Delete(c.ev.pending, i, i+1)
	}
	ps := c.s.Pods[pod]
	n := ps.NodeOf()
	ref := c.s.PodRef(pod)
	model.ForgetJobPod(c.tx, c.s, pod, false)
	c.s.ForgetPod(pod)
	if c.tx.Tracing() {
		c.tx.Log(Component, "Evicting pod %s from node %s: it is Failed, so the API server deletes it at once (it holds no resources; its owner replaced it when it failed)", ref, c.nodeName(n))
	}
	c.note("    deleted Failed pod %d from node %s\n", pod+1, c.nodeName(n))
}

// oneOf prints a reason known to be one of rs.
func oneOf(rs []string) string {
	if len(rs) == 1 {
		return rs[0]
	}
	return "one of " + strings.Join(rs, ", ")
}
