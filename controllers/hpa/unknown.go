package hpa

import (
	"math"

	"github.com/kivi-go/kivi/model"
)

// Metrics outside the model (Pods, Object and External metrics, and a
// ContainerResource metric on one of several containers) read values the
// cluster model does not have: a queue's length, a request rate. The
// model treats them as the environment: at every sync each such metric
// may give any value, so it may recommend any replica count upstream's
// formula produces from some value, given the pods as they are, or fail
// (the API serving it does not answer). Those
// counts are computed exactly from the formula (metricOptions); the
// HPA then combines them with the other metrics, stabilises and
// normalises as always, and branches over every distinct outcome.

// environment is what the metrics outside the model gave at one sync:
// the largest recommendation among those that could be computed (value
// −1 when none could) and whether some metric failed.
type environment struct {
	value  int
	failed bool
}

// noEnvironment is an HPA without metrics outside the model.
var noEnvironment = environment{value: -1}

// proposals are a metric's possible recommendations at one sync: counts
// [v] true for each count v it can propose (the last index stands for
// maxReplicas and more, which the HPA treats alike), and whether the
// metric can fail instead (an error of the replica calculator).
type proposals struct {
	counts []bool
	fails  bool
}

// podCounts are the pods of a deployment as the replica calculator sees
// them for one metric.
type podCounts struct {
	listed  int // every pod the selector lists, terminating and failed ones too
	ready   int // pods with a sample (groupPods' ready pods)
	unready int // pods left out of the first ratio (groupPods' unready pods)
	running int // Running and Ready pods, being deleted or not (getReadyPodsCount)
	status  int // status.replicas: pods neither terminating nor finished
}

// countPods counts the pods the HPA of deployment d lists for a metric
// grouped as resource r groups them (a CPU metric leaves Running pods
// that are not Ready out; every other metric reads them); status counts
// d's own only (the scale subresource's status.replicas).
func countPods(spec *model.HPA, s *model.State, d int, cpuGrouping bool) podCounts {
	var c podCounts
	for i := range s.Pods {
		p := &s.Pods[i]
		if !lists(spec, d, p) {
			continue
		}
		own := int(p.Owner) == d+1
		c.listed++
		switch p.Phase {
		case model.Running:
			if own {
				c.status++
			}
			if p.Ready() {
				c.running++
			}
			if cpuGrouping && p.Readiness == model.PodNotReady {
				c.unready++
			} else {
				c.ready++
			}
		case model.Pending:
			if own {
				c.status++
			}
			c.unready++
		case model.Terminating:
			// getReadyPodsCount reads the phase and the Ready condition
			// only: a pod being deleted that was Running and Ready counts.
			if p.WasRunning && p.Readiness != model.PodNotReady {
				c.running++
			}
		}
	}
	return c
}

// metricOptions are the recommendations metric m, whose value the model
// does not know, can make for deployment d at current spec replicas,
// counts capped at limit (maxReplicas). Every metric value ≥ 0 is
// possible; every pod has a sample (as for Resource metrics).
func metricOptions(spec *model.HPA, s *model.State, d int, m *model.Metric, current int, tol Tolerance, limit int) proposals {
	out := proposals{counts: make([]bool, limit+1)}
	set := func(v int) { out.counts[min(max(v, 0), limit)] = true }
	t := float64(m.Value)
	switch {
	case m.Kind == model.PodsMetric || m.Kind == model.ContainerResourceMetric:
		// GetMetricReplicas and GetRawResourceReplicas
		// (calcPlainMetricReplicas), GetResourceReplicas for a container's
		// utilisation: the ratio of an average over the ready pods.
		pods := countPods(spec, s, d, m.Kind == model.ContainerResourceMetric && m.Resource == model.CPU)
		if pods.listed == 0 || pods.ready == 0 {
			out.fails = true // no pods, or no sample of a ready pod
			return out
		}
		set(current) // within the tolerance
		perPod := func(n int) func(a int64) int64 {
			return func(a int64) int64 { return ceilCapped(float64(a)/t*float64(n), limit) }
		}
		ratio := func(a int64) float64 { return float64(a) / t }
		if pods.unready == 0 {
			reach(out.counts, perPod(pods.ready), ratio, func(r float64) bool { return !tol.within(r) })
			return out
		}
		// A scale-down reads the ready pods only; a scale-up counts the
		// unready ones at 0 and keeps the current count unless the
		// recomputed ratio still asks for more than current.
		reach(out.counts, perPod(pods.ready), ratio, func(r float64) bool { return r < 1 && !tol.within(r) })
		up := make([]bool, limit+1)
		reach(up, perPod(pods.ready+pods.unready), ratio, func(r float64) bool { return r > 1 && !tol.within(r) })
		for v := current; v <= limit; v++ {
			out.counts[v] = out.counts[v] || up[v]
		}
	case m.Target == model.Value:
		// GetObjectMetricReplicas, GetExternalMetricReplicas
		// (getUsageRatioReplicaCount): the ratio times the Running and
		// Ready pods. Within the tolerance the pods are not listed; out
		// of it, no pod listed is an error.
		pods := countPods(spec, s, d, false)
		set(current)
		if pods.listed == 0 {
			out.fails = true
			return out
		}
		n := pods.running
		reach(out.counts, func(a int64) int64 { return ceilCapped(float64(a)/t*float64(n), limit) },
			func(a int64) float64 { return float64(a) / t }, func(r float64) bool { return !tol.within(r) })
	default:
		// GetObjectPerPodMetricReplicas, GetExternalPerPodMetricReplicas:
		// the total over the target per pod, against status.replicas.
		status := countPods(spec, s, d, false).status
		if status > 0 {
			set(status)
		}
		sr := float64(status)
		reach(out.counts, func(a int64) int64 { return ceilCapped(float64(a)/t, limit) },
			func(a int64) float64 { return float64(a) / (t * sr) }, func(r float64) bool { return !tol.within(r) })
	}
	return out
}

// ceilCapped is ⌈x⌉ as upstream's int32 conversion gives it, capped at
// limit+1 (every count above limit is alike).
func ceilCapped(x float64, limit int) int64 {
	c := math.Ceil(x)
	if c > float64(limit+1) || math.IsNaN(c) {
		return int64(limit + 1)
	}
	return int64(c)
}

// valueBound is the largest metric value reach tries: past it every
// count function has passed every limit and every ratio every tolerance.
const valueBound = math.MaxInt64 / 4

// reach marks in counts (the last index stands for that count and more)
// every count(a) for an integer metric value a ≥ 0 with ok(ratio(a)).
// count and ratio are non-decreasing in a, and the values ok accepts are
// a prefix and a suffix of the ratios (out of the tolerance, in one or
// both directions), so the values a giving count k form an interval, and
// k is reached if ok holds at either end of it.
func reach(counts []bool, count func(int64) int64, ratio func(int64) float64, ok func(float64) bool) {
	limit := len(counts) - 1
	// first is the smallest value whose count is at least k
	// (valueBound+1 when none is).
	first := func(k int64) int64 {
		lo, hi := int64(0), int64(valueBound)+1
		for lo < hi {
			mid := lo + (hi-lo)/2
			if count(mid) >= k {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return lo
	}
	next := first(0)
	for k := 0; k <= limit; k++ {
		a0 := next
		if a0 > valueBound {
			return
		}
		if k == limit {
			counts[k] = counts[k] || ok(ratio(a0)) || ok(ratio(valueBound))
			return
		}
		next = first(int64(k + 1))
		if count(a0) != int64(k) {
			continue
		}
		counts[k] = counts[k] || ok(ratio(a0)) || ok(ratio(next-1))
	}
}

// environments are the distinct outcomes the metrics outside the model
// can give deployment d's HPA at one sync, with spec replicas current: the
// combinations of every such metric's options (any of its counts, or a
// failure: the API that serves it may not answer), as the largest valid
// recommendation and whether one failed.
func environments(s *model.State, d int, spec *model.HPA, current int) []environment {
	limit := spec.Max
	tol := Tolerances(spec)
	// reachable[f][i]: some combination so far fails (f = 1) or not and
	// has the largest recommendation i−1 (i = 0: none yet).
	var reachable [2][]bool
	for f := range reachable {
		reachable[f] = make([]bool, limit+2)
	}
	reachable[0][0] = true
	for i := range spec.Metrics {
		m := &spec.Metrics[i]
		if !m.Kind.Unknown() {
			continue
		}
		opts := metricOptions(spec, s, d, m, current, tol, limit)
		// The custom or external metrics API may also fail to answer
		// at any sync (an adapter that is down): the replica calculator
		// then fails the metric.
		opts.fails = true
		var next [2][]bool
		for f := range next {
			next[f] = make([]bool, limit+2)
		}
		for f := range next {
			least := -1 // the smallest index reachable[f] holds
			for j, ok := range reachable[f] {
				if ok {
					least = j
					break
				}
			}
			if least < 0 {
				continue
			}
			lowest := -1 // the smallest count the metric proposes
			for v, ok := range opts.counts {
				if ok {
					lowest = v
					break
				}
			}
			// max(j−1, v) over j in reachable[f] and v in opts.counts.
			for j := range reachable[f] {
				if reachable[f][j] && lowest >= 0 && lowest+1 <= j {
					next[f][j] = true
				}
			}
			for v, ok := range opts.counts {
				if ok && least <= v+1 {
					next[f][v+1] = true
				}
			}
			if opts.fails {
				for j, ok := range reachable[f] {
					if ok {
						next[1][j] = true
					}
				}
			}
		}
		reachable = next
	}
	var out []environment
	for f, set := range reachable {
		for j, ok := range set {
			if ok {
				out = append(out, environment{value: j - 1, failed: f == 1})
			}
		}
	}
	return out
}

// driver names the metric outside the model that proposes value at the
// sync: the first whose options hold it.
func driver(s *model.State, d int, spec *model.HPA, current, value int) *model.Metric {
	tol := Tolerances(spec)
	for i := range spec.Metrics {
		m := &spec.Metrics[i]
		if m.Kind.Unknown() {
			if opts := metricOptions(spec, s, d, m, current, tol, spec.Max); value < len(opts.counts) && opts.counts[value] {
				return m
			}
		}
	}
	return nil
}

// MetricRecommendations are the replica counts metric m, whose value the
// model does not know (model.MetricKind.Unknown), can recommend for
// deployment d of s at current spec replicas under tolerance tol: counts[v]
// for each count v (counts[limit] for limit and more), and fails when
// the replica calculator can also fail it. It reads the pods the HPA spec
// lists: d's own and those of spec.CountsPodsOf (d's own with a nil
// spec); status.replicas stays d's own. For differential tests.
func MetricRecommendations(spec *model.HPA, s *model.State, d int, m *model.Metric, current int, tol Tolerance, limit int) (counts []bool, fails bool) {
	p := metricOptions(spec, s, d, m, current, tol, limit)
	return p.counts, p.fails
}
