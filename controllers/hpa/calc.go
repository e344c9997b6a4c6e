package hpa

import (
	"math"
	"math/bits"

	"github.com/kivi-go/kivi/model"
)

// Tolerance is the HPA tolerance per direction as a fraction
// (Kubernetes' Tolerances{scaleDown, scaleUp}; both default to 0.1).
type Tolerance struct {
	Down, Up float64
}

// Symmetric is the same tolerance of percent % in both directions
// (percent/100 yields the same double as the controller's 0.1 flag).
func Symmetric(percent int) Tolerance {
	f := float64(percent) / 100
	return Tolerance{Down: f, Up: f}
}

// within is Kubernetes' inclusive test 1−down ≤ ratio ≤ 1+up, in float64
// as upstream computes it.
func (t Tolerance) within(ratio float64) bool {
	return 1.0-t.Down <= ratio && ratio <= 1.0+t.Up
}

// Sample is one pod's metric value and its request of the resource.
type Sample struct {
	Usage, Request int64
}

// Pods are a deployment's pods as the replica calculator groups them.
// Pods being deleted (and failed pods) are not listed at all.
type Pods struct {
	// Ready pods have a metric sample.
	Ready []Sample
	// Unready pods (phase Pending) are left out of the first ratio;
	// only Request is read.
	Unready []Sample
	// Missing pods are ready but have no sample; only Request is read.
	Missing []Sample
}

func (p Pods) empty() bool { return len(p.Ready)+len(p.Unready)+len(p.Missing) == 0 }

// Proposal is one metric's recommendation.
type Proposal struct {
	Replicas int
	// Usage is the observed value: the utilisation percentage, or the
	// average value per pod.
	Usage int64
	// Valid is false when Kubernetes would report an error for the
	// metric (no pods, no ready sample, no request).
	Valid bool
}

// UtilizationReplicas is GetResourceReplicas for a Utilization target
// (percent of request).
func UtilizationReplicas(current int, targetPercent int64, tol Tolerance, pods Pods) Proposal {
	if pods.empty() || len(pods.Ready) == 0 || targetPercent <= 0 {
		return Proposal{}
	}
	for _, group := range [][]Sample{pods.Ready, pods.Unready, pods.Missing} {
		for _, s := range group {
			if s.Request <= 0 {
				return Proposal{} // calculateRequests: missing request
			}
		}
	}
	ratio, usage, ok := utilizationRatio(pods.Ready, targetPercent)
	if !ok {
		return Proposal{}
	}
	// On a scale-down, missing pods are assumed to use their request, or
	// the target for targets above 100 %.
	fallback := max(100, targetPercent)
	missingDown := func(s Sample) Sample { return Sample{Usage: s.Request * fallback / 100, Request: s.Request} }
	replicas, ok := dampen(current, tol, ratio, pods, missingDown, func(samples []Sample) (float64, bool) {
		r, _, ok := utilizationRatio(samples, targetPercent)
		return r, ok
	})
	if !ok {
		return Proposal{}
	}
	return Proposal{Replicas: replicas, Usage: usage, Valid: true}
}

// AverageValueReplicas is calcPlainMetricReplicas: an AverageValue target
// in model units per pod, averaged in those units (CPU: millicores, the
// calculator's own).
func AverageValueReplicas(current int, target int64, tol Tolerance, pods Pods) Proposal {
	return averageValueReplicas(current, target, 1, tol, pods)
}

// averageValueReplicas is AverageValueReplicas averaging in the
// calculator's units, scale of them to a model unit (MetricScale).
func averageValueReplicas(current int, target, scale int64, tol Tolerance, pods Pods) Proposal {
	if pods.empty() || len(pods.Ready) == 0 || target <= 0 {
		return Proposal{}
	}
	ratio, usage := averageRatio(pods.Ready, target, scale)
	// On a scale-down, missing pods are assumed to use exactly the target.
	missingDown := func(s Sample) Sample { return Sample{Usage: target, Request: s.Request} }
	replicas, _ := dampen(current, tol, ratio, pods, missingDown, func(samples []Sample) (float64, bool) {
		r, _ := averageRatio(samples, target, scale)
		return r, true
	})
	return Proposal{Replicas: replicas, Usage: usage, Valid: true}
}

// MetricScale is how many of the replica calculator's units make one
// model unit of resource r: the metrics client reports MilliValue, which
// is the model's millicores for CPU and 1000·2²⁰ milli-bytes to a MiB for
// memory. A utilisation is a ratio of sums and needs no scale; an average
// per pod is truncated in the calculator's units, not in MiB.
func MetricScale(r model.MetricSource) int64 {
	if r == model.Memory {
		return 1000 << 20
	}
	return 1
}

// utilizationRatio is GetResourceUtilizationRatio: the utilisation is
// the integer percentage Σusage·100/Σrequest, truncated, and the ratio is
// that integer over the target.
func utilizationRatio(samples []Sample, targetPercent int64) (ratio float64, utilization int64, ok bool) {
	var usage, request int64
	for _, s := range samples {
		usage += s.Usage
		request += s.Request
	}
	if request == 0 {
		return 0, 0, false
	}
	utilization = int64(int32(usage * 100 / request))
	return float64(utilization) / float64(targetPercent), utilization, true
}

// averageRatio is GetMetricUsageRatio: the integer average per pod, in
// the calculator's units (scale of them to a model unit), over the
// target; average is in model units.
func averageRatio(samples []Sample, target, scale int64) (ratio float64, average int64) {
	var total int64
	for _, s := range samples {
		total += s.Usage
	}
	scaled := scaledAverage(total, int64(len(samples)), scale)
	return float64(scaled) / float64(target*scale), scaled / scale
}

// scaledAverage is ⌊total·scale/n⌋ without overflowing the product
// (non-negative operands); a quotient beyond int64, which upstream's
// int64 sum cannot hold either, saturates.
func scaledAverage(total, n, scale int64) int64 {
	hi, lo := bits.Mul64(uint64(total), uint64(scale))
	if hi >= uint64(n) {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, uint64(n))
	return int64(min(q, math.MaxInt64))
}

// dampen is the common tail of both calculators. With no missing pods
// and no unready pods on a scale-up, the proposal is ⌈ratio·ready⌉ (or
// current within tolerance). Otherwise missing pods are assumed at the
// fallback (scale-down) or 0 (scale-up), unready pods at 0 (scale-up),
// and the ratio is recomputed; the proposal stays at current when the new
// ratio is within tolerance, flips direction, or the new count would move
// against it.
func dampen(current int, tol Tolerance, ratio float64, pods Pods, missingDown func(Sample) Sample,
	ratioOf func([]Sample) (float64, bool)) (int, bool) {
	scaleUpWithUnready := len(pods.Unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(pods.Missing) == 0 {
		if tol.within(ratio) {
			return current, true
		}
		return ceilInt(ratio * float64(len(pods.Ready))), true
	}
	samples := append([]Sample(nil), pods.Ready...)
	if len(pods.Missing) > 0 {
		// At a ratio of exactly 1 missing pods stay out of the
		// recomputation (upstream assigns them in neither branch).
		switch {
		case ratio < 1.0:
			for _, m := range pods.Missing {
				samples = append(samples, missingDown(m))
			}
		case ratio > 1.0:
			for _, m := range pods.Missing {
				samples = append(samples, Sample{Usage: 0, Request: m.Request})
			}
		}
	}
	if scaleUpWithUnready {
		for _, m := range pods.Unready {
			samples = append(samples, Sample{Usage: 0, Request: m.Request})
		}
	}
	newRatio, ok := ratioOf(samples)
	if !ok {
		return 0, false
	}
	if tol.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return current, true
	}
	proposed := ceilInt(newRatio * float64(len(samples)))
	if (newRatio < 1.0 && proposed > current) || (newRatio > 1.0 && proposed < current) {
		return current, true
	}
	return proposed, true
}

func ceilInt(x float64) int { return int(int32(math.Ceil(x))) }

// Bounds are an HPA's minReplicas and maxReplicas.
type Bounds struct{ Min, Max int }

// EntryCase is reconcileAutoscaler's first decision: scaling disabled at
// 0 replicas, and out-of-range replica counts are brought back without
// reading metrics. decided is false when the metrics must be evaluated.
func EntryCase(current int, b Bounds) (desired int, decided bool) {
	switch {
	case current == 0:
		return 0, true
	case current > b.Max:
		return b.Max, true
	case current < b.Min:
		return b.Min, true
	}
	return current, false
}

// CombineProposals is computeReplicasForMetrics: the largest valid
// proposal wins; with every metric invalid, or some invalid and the result
// a scale-down, there is no recommendation (ok false).
func CombineProposals(current int, proposals []Proposal) (replicas int, ok bool) {
	invalid := 0
	for _, p := range proposals {
		if !p.Valid {
			invalid++
			continue
		}
		if replicas == 0 || p.Replicas > replicas {
			replicas = p.Replicas
		}
	}
	if invalid >= len(proposals) || (invalid > 0 && replicas < current) {
		return 0, false
	}
	return replicas, true
}

// Normalize is the legacy (spec.behavior unset) clamp that follows the
// downscale stabilisation (Stabilize, when the HPA has a window): below
// min gives min, otherwise the count is capped by max and by the
// scale-up limit max(2·current, 4).
func Normalize(current, proposal int, b Bounds) int {
	if proposal < b.Min {
		return b.Min
	}
	limit := max(2*current, 4)
	return min(proposal, b.Max, limit)
}
