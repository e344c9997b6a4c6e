package hpa

import (
	"math"

	"github.com/kivi-go/kivi/model"
)

// An HPA with spec.behavior (model.HPABehavior) normalises its proposal
// as kube-controller-manager v1.36's normalizeDesiredReplicasWithBehaviors:
// stabilizeRecommendationWithBehaviors (the count is kept between the
// lowest recommendation of the scale-up window and the highest of the
// scale-down window), then convertDesiredReplicasWithBehaviorRate (the
// policies of the direction limit the change against the replicas at
// the start of each policy's period, over the scale events of that
// period: calculateScaleUpLimitWithScalingRules,
// calculateScaleDownLimitWithBehaviors, getReplicasChangePerPeriod), and
// every rescale is remembered as storeScaleEvent does. Time is counted in
// sync periods (model.Syncs): the memory's ages are sync periods, and
// AdvanceBehavior is one period passing.

// Limit names what decided a behavior normalisation, in the words of the
// HPA's conditions.
type Limit uint8

const (
	// DesiredWithinRange: the stabilised recommendation stands.
	DesiredWithinRange Limit = iota
	// ScaleUpStabilized, ScaleDownStabilized: a window changed the
	// recommendation (and no rate limit applied after it).
	ScaleUpStabilized
	ScaleDownStabilized
	// ScaleUpLimit, ScaleDownLimit: a rate policy cut the change.
	ScaleUpLimit
	ScaleDownLimit
	// TooManyReplicas, TooFewReplicas: maxReplicas or minReplicas did.
	TooManyReplicas
	TooFewReplicas
)

func (l Limit) String() string {
	return [...]string{"DesiredWithinRange", "ScaleUpStabilized", "ScaleDownStabilized", "ScaleUpLimit",
		"ScaleDownLimit", "TooManyReplicas", "TooFewReplicas"}[l]
}

// BehaviorOutcome is one behavior normalisation.
type BehaviorOutcome struct {
	Desired, Stabilized int
	Limit               Limit
}

// NormalizeWithBehavior is normalizeDesiredReplicasWithBehaviors for an
// HPA at current replicas recommending proposal: it stabilises over mem's
// recommendations, records proposal in mem, and limits the rate over
// mem's scale events. mem keeps its invariants (model.HPAMemory).
func NormalizeWithBehavior(b *model.HPABehavior, mem *model.HPAMemory, current, proposal int, bounds Bounds) BehaviorOutcome {
	up, down := proposal, proposal
	for _, r := range mem.UpRecs {
		up = min(up, int(r.Replicas))
	}
	for _, r := range mem.DownRecs {
		down = max(down, int(r.Replicas))
	}
	stabilized := current
	if stabilized < up {
		stabilized = up
	}
	if stabilized > down {
		stabilized = down
	}
	RecordRecommendation(b, mem, proposal, bounds)
	out := limitRate(b, mem, current, stabilized, bounds)
	if out.Limit == DesiredWithinRange && stabilized != proposal {
		out.Limit = ScaleUpStabilized
		if proposal < current {
			out.Limit = ScaleDownStabilized
		}
	}
	return out
}

// Held reports whether the outcome of NormalizeWithBehavior was held back
// by the memory: from an empty memory (a sync after every remembered
// recommendation and event has expired) the same proposal would give
// another count. Only then can a later sync with nothing else changed
// move the count, as the memory ages (AdvanceBehavior); stabilisation
// and rate limits only loosen as it does.
func Held(b *model.HPABehavior, current, proposal, desired int, bounds Bounds) bool {
	var empty model.HPAMemory
	return limitRate(b, &empty, current, proposal, bounds).Desired != desired
}

// limitRate is convertDesiredReplicasWithBehaviorRate.
func limitRate(b *model.HPABehavior, mem *model.HPAMemory, current, stabilized int, bounds Bounds) BehaviorOutcome {
	out := BehaviorOutcome{Desired: stabilized, Stabilized: stabilized}
	cur := int32(current)
	switch {
	case stabilized > current:
		limit := scaleUpLimit(cur, mem, &b.ScaleUp)
		if limit < cur {
			limit = cur // no further scale-up until the scale-up events expire
		}
		maxAllowed, why := int32(bounds.Max), TooManyReplicas
		if maxAllowed > limit {
			maxAllowed, why = limit, ScaleUpLimit
		}
		if int32(stabilized) > maxAllowed {
			out.Desired, out.Limit = int(maxAllowed), why
		}
	case stabilized < current:
		limit := scaleDownLimit(cur, mem, &b.ScaleDown)
		if limit > cur {
			limit = cur // no further scale-down until the scale-down events expire
		}
		minAllowed, why := int32(bounds.Min), TooFewReplicas
		if minAllowed < limit {
			minAllowed, why = limit, ScaleDownLimit
		}
		if int32(stabilized) < minAllowed {
			out.Desired, out.Limit = int(minAllowed), why
		}
	}
	return out
}

// changeInPeriod is getReplicasChangePerPeriod: the replicas changed by
// the events younger than periodSeconds.
func changeInPeriod(periodSeconds int32, events []model.HPAScaleEvent) int32 {
	syncs := model.Syncs(int(periodSeconds))
	var n int32
	for _, e := range events {
		if int(e.Age) < syncs {
			n += int32(e.Change)
		}
	}
	return n
}

// scaleUpLimit is calculateScaleUpLimitWithScalingRules, in upstream's
// int32 and float64 arithmetic.
func scaleUpLimit(current int32, mem *model.HPAMemory, rules *model.HPAScalingRules) int32 {
	var result int32
	var pick func(int32, int32) int32
	switch rules.SelectPolicy {
	case model.DisabledPolicy:
		return current
	case model.MinChangePolicy:
		result, pick = math.MaxInt32, minInt32
	default:
		result, pick = math.MinInt32, maxInt32
	}
	for _, p := range rules.Policies {
		start := current - changeInPeriod(p.PeriodSeconds, mem.UpEvents) + changeInPeriod(p.PeriodSeconds, mem.DownEvents)
		var proposed int32
		switch p.Type {
		case model.PodsPolicy:
			proposed = start + p.Value
		case model.PercentPolicy:
			proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
		}
		result = pick(result, proposed)
	}
	return result
}

// scaleDownLimit is calculateScaleDownLimitWithBehaviors.
func scaleDownLimit(current int32, mem *model.HPAMemory, rules *model.HPAScalingRules) int32 {
	var result int32
	var pick func(int32, int32) int32
	switch rules.SelectPolicy {
	case model.DisabledPolicy:
		return current
	case model.MinChangePolicy:
		result, pick = math.MinInt32, maxInt32
	default:
		result, pick = math.MaxInt32, minInt32
	}
	for _, p := range rules.Policies {
		start := current - changeInPeriod(p.PeriodSeconds, mem.UpEvents) + changeInPeriod(p.PeriodSeconds, mem.DownEvents)
		var proposed int32
		switch p.Type {
		case model.PodsPolicy:
			proposed = start - p.Value
		case model.PercentPolicy:
			proposed = int32(float64(start) * (1 - float64(p.Value)/100))
		}
		result = pick(result, proposed)
	}
	return result
}

// RecordRecommendation remembers recommendation r of the current sync
// period for the windows (stabilizeRecommendationWithBehaviors' record,
// and recordInitialRecommendation's seed at the first sync). r is kept
// between minReplicas and maxReplicas, which makes no difference to any
// later outcome (the normalisation clamps to them, and the current count
// is always between them when it runs), and only recommendations that
// can still decide a window are kept.
func RecordRecommendation(b *model.HPABehavior, mem *model.HPAMemory, r int, bounds Bounds) {
	v := int16(min(max(r, bounds.Min), bounds.Max, math.MaxInt16))
	if b.ScaleUp.WindowSyncs() > 0 {
		mem.UpRecs = recordRec(mem.UpRecs, v, func(a, b int16) bool { return a < b })
	}
	if b.ScaleDown.WindowSyncs() > 0 {
		mem.DownRecs = recordRec(mem.DownRecs, v, func(a, b int16) bool { return a > b })
	}
}

// recordRec adds v at age 0 to recs, newest first, keeping only the
// entries beyond every newer one (better(x, y): x decides before y).
func recordRec(recs []model.HPARecommendation, v int16, better func(a, b int16) bool) []model.HPARecommendation {
	if len(recs) > 0 && recs[0].Age == 0 {
		if !better(v, recs[0].Replicas) {
			return recs // this period already has a recommendation at least as decisive
		}
		recs = recs[1:]
	}
	out := make([]model.HPARecommendation, 0, len(recs)+1)
	out = append(out, model.HPARecommendation{Age: 0, Replicas: v})
	for _, r := range recs {
		if better(r.Replicas, out[len(out)-1].Replicas) {
			out = append(out, r)
		}
	}
	return out
}

// StoreScaleEvent is storeScaleEvent for a rescale from prev to next
// replicas: the events of that direction older than its longest policy
// period are outdated, and the new event takes the place of the last
// outdated one in the list, or is appended. ok is false when the list is
// full (model.MaxHPAScaleEvents): the step reaches a model bound.
func StoreScaleEvent(b *model.HPABehavior, mem *model.HPAMemory, prev, next int) (ok bool) {
	events, change, outdated := &mem.DownEvents, prev-next, b.ScaleDown.LongestPeriodSyncs()
	if next > prev {
		events, change, outdated = &mem.UpEvents, next-prev, b.ScaleUp.LongestPeriodSyncs()
	}
	e := model.HPAScaleEvent{Age: 0, Change: int16(min(change, math.MaxInt16))}
	for i := len(*events) - 1; i >= 0; i-- {
		if int((*events)[i].Age) >= outdated {
			l := append([]model.HPAScaleEvent(nil), *events...)
			l[i] = e
			*events = l
			return true
		}
	}
	if len(*events) >= model.MaxHPAScaleEvents {
		return false
	}
	*events = append(append([]model.HPAScaleEvent(nil), *events...), e)
	return true
}

// AdvanceBehavior is one sync period passing for mem: every entry ages by
// one; recommendations leave their window, and scale events that no
// policy reads any more stay in their place with age saturated at
// EventSyncs and no change.
func AdvanceBehavior(b *model.HPABehavior, mem *model.HPAMemory) {
	mem.UpRecs = ageRecs(mem.UpRecs, b.ScaleUp.WindowSyncs())
	mem.DownRecs = ageRecs(mem.DownRecs, b.ScaleDown.WindowSyncs())
	horizon := b.EventSyncs()
	mem.UpEvents = ageEvents(mem.UpEvents, horizon)
	mem.DownEvents = ageEvents(mem.DownEvents, horizon)
}

func ageRecs(recs []model.HPARecommendation, window int) []model.HPARecommendation {
	out := make([]model.HPARecommendation, 0, len(recs))
	for _, r := range recs {
		if int(r.Age)+1 < window {
			out = append(out, model.HPARecommendation{Age: r.Age + 1, Replicas: r.Replicas})
		}
	}
	return out
}

func ageEvents(events []model.HPAScaleEvent, horizon int) []model.HPAScaleEvent {
	out := make([]model.HPAScaleEvent, len(events))
	for i, e := range events {
		if int(e.Age)+1 >= horizon {
			out[i] = model.HPAScaleEvent{Age: uint8(horizon)}
		} else {
			out[i] = model.HPAScaleEvent{Age: e.Age + 1, Change: e.Change}
		}
	}
	return out
}

// Tolerances is tolerancesForHpa: the controller's tolerance, replaced
// per direction by the behavior's (HPAConfigurableTolerance, on by
// default since v1.35).
func Tolerances(spec *model.HPA) Tolerance {
	t := Symmetric(spec.TolerancePercent)
	if b := spec.Behavior; b != nil {
		if n := b.ScaleDown.ToleranceNanos; n >= 0 {
			t.Down = model.ToleranceFloat(n)
		}
		if n := b.ScaleUp.ToleranceNanos; n >= 0 {
			t.Up = model.ToleranceFloat(n)
		}
	}
	return t
}

func minInt32(a, b int32) int32 { return min(a, b) }
func maxInt32(a, b int32) int32 { return max(a, b) }
