package hpadiff

import (
	"fmt"
	"reflect"
	"strings"
	"time"
	"unsafe"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	autoscalingdefaults "k8s.io/kubernetes/pkg/apis/autoscaling/v2"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/model"
)

// normalizeDesiredReplicasWithBehaviors is upstream's normalisation of an
// HPA with spec.behavior: stabilizeRecommendationWithBehaviors, then
// convertDesiredReplicasWithBehaviorRate.
//
//go:linkname normalizeDesiredReplicasWithBehaviors k8s.io/kubernetes/pkg/controller/podautoscaler.(*HorizontalController).normalizeDesiredReplicasWithBehaviors
func normalizeDesiredReplicasWithBehaviors(a *podautoscaler.HorizontalController, hpa *autoscalingv2.HorizontalPodAutoscaler,
	key string, currentReplicas, prenormalizedDesiredReplicas, minReplicas int32) int32

// storeScaleEvent is what reconcileAutoscaler records after a rescale.
//
//go:linkname storeScaleEvent k8s.io/kubernetes/pkg/controller/podautoscaler.(*HorizontalController).storeScaleEvent
func storeScaleEvent(a *podautoscaler.HorizontalController, behavior *autoscalingv2.HorizontalPodAutoscalerBehavior,
	key string, prevReplicas, newReplicas int32)

// defaultDownscaleStabilisation is kube-controller-manager's
// --horizontal-pod-autoscaler-downscale-stabilization, which the
// controller applies when behavior.scaleDown leaves the window out.
const defaultDownscaleStabilisation = 5 * time.Minute

// BehaviorStep is one step of a BehaviorCase: a sync period passing, or
// an evaluation whose metrics propose Proposal replicas.
type BehaviorStep struct {
	Advance  bool
	Proposal int
}

// BehaviorCase is a history of one HPA with spec.behavior: its bounds,
// the replica count at its first sync, and the steps. Both sides start
// with no memory (a new controller) and run every step; the answers are
// the desired counts of the evaluations.
type BehaviorCase struct {
	Min, Max, Current int
	Behavior          autoscalingv2.HorizontalPodAutoscalerBehavior
	Steps             []BehaviorStep
}

func (c *BehaviorCase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "min %d max %d current %d\n", c.Min, c.Max, c.Current)
	for _, d := range []struct {
		name string
		r    *autoscalingv2.HPAScalingRules
	}{{"scaleUp", c.Behavior.ScaleUp}, {"scaleDown", c.Behavior.ScaleDown}} {
		if d.r == nil {
			fmt.Fprintf(&b, "  %s: defaults\n", d.name)
			continue
		}
		fmt.Fprintf(&b, "  %s: window %v select %v policies %+v\n", d.name, deref(d.r.StabilizationWindowSeconds), deref(d.r.SelectPolicy), d.r.Policies)
	}
	b.WriteString("  steps:")
	for _, s := range c.Steps {
		if s.Advance {
			b.WriteString(" +15s")
		} else {
			fmt.Fprintf(&b, " %d", s.Proposal)
		}
	}
	b.WriteByte('\n')
	return b.String()
}

func deref[T any](p *T) any {
	if p == nil {
		return "default"
	}
	return *p
}

// GenBehaviorCase generates histories: windows and policy periods around
// the sync period's multiples (0, 14, 15, 16, 45, 60, 61, 300 s…), each
// selectPolicy, Pods and Percent policies of small and large values,
// and up to 30 steps, a third of them a sync period passing.
func GenBehaviorCase() *rapid.Generator[*BehaviorCase] {
	windows := []int32{0, 0, 1, 14, 15, 16, 30, 45, 60, 61, 120, 300}
	periods := []int32{1, 14, 15, 15, 16, 30, 45, 60, 60, 61, 90, 120, 300}
	values := []int32{1, 1, 2, 3, 4, 10, 25, 50, 100, 150, 200}
	rules := func(t *rapid.T, name string) *autoscalingv2.HPAScalingRules {
		if rapid.IntRange(0, 4).Draw(t, name+"-default") == 0 {
			return nil
		}
		r := &autoscalingv2.HPAScalingRules{}
		if rapid.Bool().Draw(t, name+"-has-window") {
			w := rapid.SampledFrom(windows).Draw(t, name+"-window")
			r.StabilizationWindowSeconds = &w
		}
		if rapid.Bool().Draw(t, name+"-has-select") {
			p := rapid.SampledFrom([]autoscalingv2.ScalingPolicySelect{autoscalingv2.MaxChangePolicySelect,
				autoscalingv2.MinChangePolicySelect, autoscalingv2.DisabledPolicySelect}).Draw(t, name+"-select")
			r.SelectPolicy = &p
		}
		if rapid.IntRange(0, 3).Draw(t, name+"-has-policies") > 0 {
			n := rapid.IntRange(1, 3).Draw(t, name+"-policies")
			for range n {
				typ := rapid.SampledFrom([]autoscalingv2.HPAScalingPolicyType{autoscalingv2.PodsScalingPolicy, autoscalingv2.PercentScalingPolicy}).Draw(t, name+"-type")
				r.Policies = append(r.Policies, autoscalingv2.HPAScalingPolicy{Type: typ,
					Value:         rapid.SampledFrom(values).Draw(t, name+"-value"),
					PeriodSeconds: rapid.SampledFrom(periods).Draw(t, name+"-period")})
			}
		}
		return r
	}
	return rapid.Custom(func(t *rapid.T) *BehaviorCase {
		c := &BehaviorCase{}
		c.Min = rapid.IntRange(1, 3).Draw(t, "min")
		c.Max = rapid.IntRange(c.Min, 12).Draw(t, "max")
		c.Current = rapid.IntRange(1, c.Max+2).Draw(t, "current")
		c.Behavior.ScaleUp = rules(t, "up")
		c.Behavior.ScaleDown = rules(t, "down")
		n := rapid.IntRange(1, 30).Draw(t, "steps")
		for range n {
			if rapid.IntRange(0, 2).Draw(t, "advance") == 0 {
				c.Steps = append(c.Steps, BehaviorStep{Advance: true})
				continue
			}
			c.Steps = append(c.Steps, BehaviorStep{Proposal: rapid.IntRange(0, c.Max+3).Draw(t, "proposal")})
		}
		return c
	})
}

// ToModelBehavior is the case's behavior as the model reads it (a
// manifest's or a case file's, compiled with the defaults).
func ToModelBehavior(b autoscalingv2.HorizontalPodAutoscalerBehavior) (*model.HPABehavior, error) {
	conv := func(r *autoscalingv2.HPAScalingRules) *model.HPAScalingRulesDecl {
		if r == nil {
			return nil
		}
		d := &model.HPAScalingRulesDecl{}
		if r.StabilizationWindowSeconds != nil {
			w := int(*r.StabilizationWindowSeconds)
			d.StabilizationWindowSeconds = &w
		}
		if r.SelectPolicy != nil {
			d.SelectPolicy = string(*r.SelectPolicy)
		}
		for _, p := range r.Policies {
			d.Policies = append(d.Policies, model.HPAScalingPolicyDecl{Type: string(p.Type), Value: int(p.Value), PeriodSeconds: int(p.PeriodSeconds)})
		}
		return d
	}
	return (&model.HPABehaviorDecl{ScaleUp: conv(b.ScaleUp), ScaleDown: conv(b.ScaleDown)}).Compile()
}

// ModelBehaviorRun is the model's answers: hpa.NormalizeWithBehavior
// over an hpa.HPAMemory, the first evaluation's seed, the entry cases,
// StoreScaleEvent after each rescale, AdvanceBehavior for a sync period.
// bound is true when the memory reached model.MaxHPAScaleEvents (the
// answers stop there).
func ModelBehaviorRun(c *BehaviorCase) (answers []int, bound bool) {
	b, err := ToModelBehavior(c.Behavior)
	if err != nil {
		panic(err)
	}
	bounds := hpa.Bounds{Min: c.Min, Max: c.Max}
	var mem model.HPAMemory
	seen := false
	current := c.Current
	for _, st := range c.Steps {
		if st.Advance {
			hpa.AdvanceBehavior(b, &mem)
			continue
		}
		if b.HasWindow() && !seen {
			seen = true
			hpa.RecordRecommendation(b, &mem, current, bounds)
		}
		desired, decided := hpa.EntryCase(current, bounds)
		if !decided {
			desired = hpa.NormalizeWithBehavior(b, &mem, current, st.Proposal, bounds).Desired
		}
		answers = append(answers, desired)
		if desired != current {
			if !hpa.StoreScaleEvent(b, &mem, current, desired) {
				return answers[:len(answers)-1], true
			}
			current = desired
		}
		// The memory goes through its encoding, as in a state.
		enc := mem.Encode()
		if err := model.DecodeHPAMemory(enc, &mem); err != nil {
			panic(err)
		}
	}
	return answers, false
}

// RealBehaviorRun is upstream's answers on a HorizontalController with
// an empty memory: per evaluation recordInitialRecommendation,
// reconcileAutoscaler's entry cases (transcribed), then
// normalizeDesiredReplicasWithBehaviors and, after a rescale,
// storeScaleEvent, on an HPA object defaulted by
// SetDefaults_HorizontalPodAutoscalerBehavior. A sync period passing moves
// every remembered timestamp 15 s into the past: upstream reads time only
// through time.Now against those timestamps.
func RealBehaviorRun(c *BehaviorCase) []int {
	hc := &podautoscaler.HorizontalController{}
	rv := reflect.ValueOf(hc).Elem()
	field := func(v reflect.Value, name string) reflect.Value {
		f := v.FieldByName(name)
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	field(rv, "downscaleStabilisationWindow").Set(reflect.ValueOf(defaultDownscaleStabilisation))
	for _, name := range []string{"recommendations", "scaleUpEvents", "scaleDownEvents"} {
		m := field(rv, name)
		m.Set(reflect.MakeMap(m.Type()))
	}
	minReplicas := int32(c.Min)
	obj := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: namespace},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &minReplicas, MaxReplicas: int32(c.Max),
			Behavior: c.Behavior.DeepCopy()},
	}
	autoscalingdefaults.SetDefaults_HorizontalPodAutoscalerBehavior(obj)
	past := func() {
		for _, name := range []string{"recommendations", "scaleUpEvents", "scaleDownEvents"} {
			list := field(rv, name).MapIndex(reflect.ValueOf(key))
			if !list.IsValid() {
				continue
			}
			for i := range list.Len() {
				ts := field(list.Index(i), "timestamp")
				ts.Set(reflect.ValueOf(ts.Interface().(time.Time).Add(-syncPeriod)))
			}
		}
	}
	var answers []int
	current := int32(c.Current)
	for _, st := range c.Steps {
		if st.Advance {
			past()
			continue
		}
		recordInitialRecommendation(hc, current, key)
		var desired int32
		switch {
		case current > obj.Spec.MaxReplicas:
			desired = obj.Spec.MaxReplicas
		case current < minReplicas:
			desired = minReplicas
		default:
			desired = normalizeDesiredReplicasWithBehaviors(hc, obj, key, current, int32(st.Proposal), minReplicas)
		}
		answers = append(answers, int(desired))
		if desired != current {
			storeScaleEvent(hc, obj.Spec.Behavior, key, current, desired)
			current = desired
		}
	}
	return answers
}

// autoscalingRules is HPAScalingRules (for the planted tests).
type autoscalingRules = autoscalingv2.HPAScalingRules
