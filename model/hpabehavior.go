package model

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// HPA spec.behavior (autoscaling/v2 HorizontalPodAutoscalerBehavior), as
// the API server stores it after SetDefaults: both directions' rules are
// complete. controllers/hpa applies them as kube-controller-manager's
// normalizeDesiredReplicasWithBehaviors does.

// Kubernetes' numbers for HPA behavior: the HPA sync period
// (--horizontal-pod-autoscaler-sync-period), the scale-down window the
// controller applies when behavior.scaleDown leaves it out
// (--horizontal-pod-autoscaler-downscale-stabilization), and the API's
// limits (pkg/apis/autoscaling/validation: MaxPeriodSeconds,
// MaxStabilizationWindowSeconds).
const (
	HPASyncPeriodSeconds                       = 15
	DefaultDownscaleStabilizationSeconds       = 300
	MaxHPAPolicyPeriodSeconds                  = 1800
	MaxHPAStabilizationWindowSeconds           = 3600
	MaxHPAToleranceNanos                 int64 = 1_000_000 * 1e9
)

// MaxHPAScaleEvents bounds the scale events the HPA remembers per
// direction and deployment (HPAMemory.UpEvents, DownEvents): a step that
// would remember more reaches BoundHPAScaleEvents.
const MaxHPAScaleEvents = 8

// HPAPolicyType is an HPAScalingPolicy's type.
type HPAPolicyType uint8

const (
	// PodsPolicy: at most Value pods per period.
	PodsPolicy HPAPolicyType = iota + 1
	// PercentPolicy: at most Value percent of the replicas at the start
	// of the period.
	PercentPolicy
)

// HPASelectPolicy is HPAScalingRules.selectPolicy.
type HPASelectPolicy uint8

const (
	// MaxChangePolicy (Max, the default): the policy allowing the largest
	// change.
	MaxChangePolicy HPASelectPolicy = iota
	// MinChangePolicy (Min): the policy allowing the smallest change.
	MinChangePolicy
	// DisabledPolicy (Disabled): no scaling in that direction.
	DisabledPolicy
)

func (p HPASelectPolicy) String() string {
	return [...]string{"Max", "Min", "Disabled"}[p]
}

// HPAScalingPolicy is one rate limit.
type HPAScalingPolicy struct {
	Type          HPAPolicyType
	Value         int32
	PeriodSeconds int32
}

// HPAScalingRules are one direction's rules.
type HPAScalingRules struct {
	// StabilizationWindowSeconds: recommendations of the last that many
	// seconds stabilise the count (0: none).
	StabilizationWindowSeconds int
	SelectPolicy               HPASelectPolicy
	Policies                   []HPAScalingPolicy
	// ToleranceNanos is the tolerance in units of 10⁻⁹ (a quantity, as
	// the API stores it); -1: unset, the controller's tolerance
	// (HPA.TolerancePercent) applies.
	ToleranceNanos int64
}

// HPABehavior is spec.behavior with every default filled in.
type HPABehavior struct {
	ScaleUp, ScaleDown HPAScalingRules
}

// Syncs is the number of sync periods during which something recorded at
// a sync still counts for a window or policy period of the given
// seconds: at the syncs of age 0 .. Syncs−1. Kubernetes counts a record
// while it is younger than the period (timestamp.After(now − period));
// syncs come every HPASyncPeriodSeconds and a little more, so the record
// of k syncs ago is 15·k s old and a bit: it counts iff 15·k < seconds.
func Syncs(seconds int) int {
	if seconds <= 0 {
		return 0
	}
	return (seconds + HPASyncPeriodSeconds - 1) / HPASyncPeriodSeconds
}

// WindowSyncs is Syncs of the rules' stabilisation window.
func (r *HPAScalingRules) WindowSyncs() int { return Syncs(r.StabilizationWindowSeconds) }

// LongestPeriodSyncs is Syncs of the rules' longest policy period
// (getLongestPolicyPeriod): scale events of this direction older than it
// are outdated, and a new event may take the place of one.
func (r *HPAScalingRules) LongestPeriodSyncs() int {
	n := 0
	for _, p := range r.Policies {
		n = max(n, Syncs(int(p.PeriodSeconds)))
	}
	return n
}

// EventSyncs is the number of sync periods a scale event can be read
// for: by any policy of either direction (both directions' limits read
// both directions' events).
func (b *HPABehavior) EventSyncs() int {
	return max(b.ScaleUp.LongestPeriodSyncs(), b.ScaleDown.LongestPeriodSyncs())
}

// HasWindow reports whether some direction has a stabilisation window, so
// that recommendations are remembered (and the first sync's seed counts).
func (b *HPABehavior) HasWindow() bool {
	return b.ScaleUp.StabilizationWindowSeconds > 0 || b.ScaleDown.StabilizationWindowSeconds > 0
}

// ToleranceFloat is the tolerance as the controller reads it: the API
// stores a quantity in canonical form (the largest power of 1000 that
// keeps the mantissa whole: 0.05 is 50m), and tolerancesForHpa takes
// AsApproximateFloat64 of it, mantissa · 10^exponent in float64.
func ToleranceFloat(nanos int64) float64 {
	m, e := nanos, -9
	for m != 0 && m%1000 == 0 {
		m /= 1000
		e += 3
	}
	if m == 0 || e == 0 {
		return float64(m)
	}
	return float64(m) * math.Pow10(e)
}

// ToleranceNanos converts a tolerance written as a decimal number (a case
// file's tolerance) to units of 10⁻⁹; ok is false for a negative number,
// one above MaxHPAToleranceNanos or one with more than nine decimals.
func ToleranceNanos(f float64) (int64, bool) {
	if !(f >= 0) || f > float64(MaxHPAToleranceNanos)/1e9 {
		return 0, false
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 9 {
		return 0, false
	}
	frac += strings.Repeat("0", 9-len(frac))
	w, err1 := strconv.ParseInt(whole, 10, 64)
	n, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return w*1e9 + n, true
}

// HPARecommendation is a remembered recommendation: the replica count
// recommended Age sync periods ago (clamped to the HPA's min and max,
// which the normalisation makes equivalent).
type HPARecommendation struct {
	Age      uint8
	Replicas int16
}

// HPAScaleEvent is a remembered rescale: Change replicas (≥ 0) added or
// removed Age sync periods ago. Age saturates at the behavior's
// EventSyncs, with Change 0: such an event is read by no policy, but
// still holds its place in the list.
type HPAScaleEvent struct {
	Age    uint8
	Change int16
}

// HPAMemory is what kube-controller-manager remembers per HPA with
// behavior, in sync periods instead of timestamps:
//
//   - UpRecs and DownRecs: the recommendations that can still decide the
//     scale-up window's minimum and the scale-down window's maximum,
//     newest first (UpRecs strictly decreasing with age, DownRecs strictly
//     increasing; one not beyond a newer one can never decide again);
//   - UpEvents and DownEvents: the scale events in the order of
//     upstream's slices (storeScaleEvent appends, or overwrites the last
//     outdated event, so the order is not by age and is kept exactly).
type HPAMemory struct {
	UpRecs, DownRecs     []HPARecommendation
	UpEvents, DownEvents []HPAScaleEvent
}

// Empty reports whether nothing is remembered.
func (m *HPAMemory) Empty() bool {
	return len(m.UpRecs)+len(m.DownRecs)+len(m.UpEvents)+len(m.DownEvents) == 0
}

// Encode is the memory's canonical encoding (DeploymentState.HPAMemory):
// "" when empty, otherwise per list a count byte and per entry the age
// byte and the value as a uvarint.
func (m *HPAMemory) Encode() string {
	if m.Empty() {
		return ""
	}
	b := make([]byte, 0, 4+3*(len(m.UpRecs)+len(m.DownRecs)+len(m.UpEvents)+len(m.DownEvents)))
	for _, l := range [...][]HPARecommendation{m.UpRecs, m.DownRecs} {
		b = append(b, byte(len(l)))
		for _, r := range l {
			b = append(b, r.Age)
			b = binary.AppendUvarint(b, uint64(r.Replicas))
		}
	}
	for _, l := range [...][]HPAScaleEvent{m.UpEvents, m.DownEvents} {
		b = append(b, byte(len(l)))
		for _, e := range l {
			b = append(b, e.Age)
			b = binary.AppendUvarint(b, uint64(e.Change))
		}
	}
	return string(b)
}

// DecodeHPAMemory reads what Encode wrote into m, reusing its slices.
func DecodeHPAMemory(s string, m *HPAMemory) error {
	m.UpRecs, m.DownRecs, m.UpEvents, m.DownEvents = m.UpRecs[:0], m.DownRecs[:0], m.UpEvents[:0], m.DownEvents[:0]
	if s == "" {
		return nil
	}
	r := reader{b: []byte(s)}
	value := func() int16 {
		v := r.uvarint()
		if v > math.MaxInt16 {
			r.err = ErrInvalid
		}
		return int16(v)
	}
	for _, l := range [...]*[]HPARecommendation{&m.UpRecs, &m.DownRecs} {
		n := int(r.byte())
		for range n {
			age := r.byte()
			*l = append(*l, HPARecommendation{Age: age, Replicas: value()})
		}
	}
	for _, l := range [...]*[]HPAScaleEvent{&m.UpEvents, &m.DownEvents} {
		n := int(r.byte())
		for range n {
			age := r.byte()
			*l = append(*l, HPAScaleEvent{Age: age, Change: value()})
		}
	}
	if r.err != nil || r.off != len(r.b) {
		return fmt.Errorf("decode HPA memory: %w", ErrInvalid)
	}
	return nil
}

// Describe renders the memory for traces: "recs up [age:replicas …] down
// […] events up [age:+change …] down [age:-change …]", lists left out
// when empty.
func (m *HPAMemory) Describe() string {
	var b strings.Builder
	recs := func(name string, l []HPARecommendation) {
		if len(l) == 0 {
			return
		}
		fmt.Fprintf(&b, " %s [", name)
		for i, r := range l {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d:%d", r.Age, r.Replicas)
		}
		b.WriteByte(']')
	}
	events := func(name, sign string, l []HPAScaleEvent) {
		if len(l) == 0 {
			return
		}
		fmt.Fprintf(&b, " %s [", name)
		for i, e := range l {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d:%s%d", e.Age, sign, e.Change)
		}
		b.WriteByte(']')
	}
	recs("up-recs", m.UpRecs)
	recs("down-recs", m.DownRecs)
	events("up-events", "+", m.UpEvents)
	events("down-events", "-", m.DownEvents)
	return b.String()
}

// HasHPABehavior reports whether some HPA of u has spec.behavior: only
// then do states carry DeploymentState.HPAMemory in their encoding.
func HasHPABehavior(u *Universe) bool {
	if u.compiled {
		return u.hpaBehavior
	}
	return hasHPABehavior(u)
}

func hasHPABehavior(u *Universe) bool {
	for i := range u.HPAs {
		if u.HPAs[i].Behavior != nil {
			return true
		}
	}
	return false
}
