package hpa

import "math"

// The downscale stabilisation window: Kubernetes
// keeps, per HPA, every recommendation of the last 5 minutes with its
// time, seeded with the replica count at the first sync, and scales to
// the largest of them and the new one. The model keeps one number per
// sync period instead of timed entries: window[0] is the current period
// and window[k] the period k syncs ago, so a window of W syncs is W+1
// numbers. A recommendation made in period 0 still counts at the W
// following syncs and is gone at the (W+1)-th, as one made at time t is
// inside upstream's window of (W+1)·15 s (timestamp.After(now − window))
// at the syncs that follow every 15 s and a little more: the window of
// S seconds is W = model.Syncs(S) − 1 (300 s: 19).

// Stabilize is stabilizeRecommendation over one HPA's window: it returns
// the largest of proposal and the window's recommendations and records
// proposal in the current period. It may exceed proposal on a scale-up
// too (the legacy normalisation does not look at the direction).
func Stabilize(window []int16, proposal, limit int) int {
	stabilized := proposal
	for _, r := range window {
		stabilized = max(stabilized, int(r))
	}
	Record(window, proposal, limit)
	return stabilized
}

// Record adds recommendation r to the current period of window. r is
// capped at limit, the HPA's maxReplicas: the normalisation caps the
// stabilised count at maxReplicas anyway, so the outcome is the same and
// states that differ only above it are one. Recommendations that are not
// above every newer one are zeroed: they leave the window no earlier than
// that newer one, so they can never be the maximum again.
func Record(window []int16, r, limit int) {
	r = min(max(r, 0), limit, math.MaxInt16)
	window[0] = max(window[0], int16(r))
	var newer int16
	for k := range window {
		if window[k] <= newer {
			window[k] = 0
		} else {
			newer = window[k]
		}
	}
}

// Advance moves window on by one sync period: every recommendation ages
// by one period, the oldest leaves the window, and the new current
// period has none yet.
func Advance(window []int16) {
	copy(window[1:], window[:len(window)-1])
	window[0] = 0
}
