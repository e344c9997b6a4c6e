package model

import (
	"fmt"
	"math"
)

// HPABehaviorDecl is an HPA's spec.behavior as written (autoscaling/v2
// HorizontalPodAutoscalerBehavior, in its field names). A direction left
// out gets the API server's defaults (pkg/apis/autoscaling/v2
// defaults.go), and so does every field left out of a direction.
type HPABehaviorDecl struct {
	ScaleUp   *HPAScalingRulesDecl `json:"scaleUp,omitempty"`
	ScaleDown *HPAScalingRulesDecl `json:"scaleDown,omitempty"`
}

// HPAScalingRulesDecl is one direction's HPAScalingRules.
type HPAScalingRulesDecl struct {
	// StabilizationWindowSeconds: 0..3600; default 0 up, and 300 down
	// (the controller's --horizontal-pod-autoscaler-downscale-stabilization).
	StabilizationWindowSeconds *int `json:"stabilizationWindowSeconds,omitempty"`
	// SelectPolicy: Max (default), Min or Disabled.
	SelectPolicy string `json:"selectPolicy,omitempty"`
	// Policies: at least one when given; default up Pods 4 and Percent
	// 100 per 15 s, down Percent 100 per 15 s.
	Policies []HPAScalingPolicyDecl `json:"policies,omitempty"`
	// Tolerance is the fraction (0.05 = 5 %) under which the HPA does not
	// scale in this direction; default the controller's 0.1.
	Tolerance *float64 `json:"tolerance,omitempty"`
}

// HPAScalingPolicyDecl is one HPAScalingPolicy.
type HPAScalingPolicyDecl struct {
	Type          string `json:"type"` // Pods or Percent
	Value         int    `json:"value"`
	PeriodSeconds int    `json:"periodSeconds"`
}

// Kubernetes' behavior defaults (SetDefaults_HorizontalPodAutoscalerBehavior).
var (
	defaultScaleUpPolicies = []HPAScalingPolicy{
		{Type: PodsPolicy, Value: 4, PeriodSeconds: 15},
		{Type: PercentPolicy, Value: 100, PeriodSeconds: 15},
	}
	defaultScaleDownPolicies = []HPAScalingPolicy{{Type: PercentPolicy, Value: 100, PeriodSeconds: 15}}
)

// DefaultHPABehavior is the behavior an HPA gets from `behavior: {}`.
func DefaultHPABehavior() *HPABehavior {
	b, _ := (&HPABehaviorDecl{}).Compile()
	return b
}

// Compile applies the API server's defaults and validation
// (pkg/apis/autoscaling/validation: validateBehavior) to b. Errors name
// the field under behavior and the accepted values.
func (b *HPABehaviorDecl) Compile() (*HPABehavior, error) {
	up, err := b.ScaleUp.compile("behavior.scaleUp", 0, defaultScaleUpPolicies)
	if err != nil {
		return nil, err
	}
	down, err := b.ScaleDown.compile("behavior.scaleDown", DefaultDownscaleStabilizationSeconds, defaultScaleDownPolicies)
	if err != nil {
		return nil, err
	}
	return &HPABehavior{ScaleUp: up, ScaleDown: down}, nil
}

func (r *HPAScalingRulesDecl) compile(path string, window int, policies []HPAScalingPolicy) (HPAScalingRules, error) {
	rules := HPAScalingRules{StabilizationWindowSeconds: window, ToleranceNanos: -1,
		Policies: append([]HPAScalingPolicy(nil), policies...)}
	if r == nil {
		return rules, nil
	}
	if w := r.StabilizationWindowSeconds; w != nil {
		if *w < 0 || *w > MaxHPAStabilizationWindowSeconds {
			return rules, fmt.Errorf("%s.stabilizationWindowSeconds %d (accepted: 0..%d seconds): %w", path, *w, MaxHPAStabilizationWindowSeconds, ErrInvalid)
		}
		rules.StabilizationWindowSeconds = *w
	}
	switch r.SelectPolicy {
	case "", "Max":
	case "Min":
		rules.SelectPolicy = MinChangePolicy
	case "Disabled":
		rules.SelectPolicy = DisabledPolicy
	default:
		return rules, fmt.Errorf("%s.selectPolicy %q (accepted: Max, Min, Disabled): %w", path, r.SelectPolicy, ErrInvalid)
	}
	if r.Policies != nil {
		if len(r.Policies) == 0 {
			return rules, fmt.Errorf("%s.policies: empty (accepted: at least one policy): %w", path, ErrInvalid)
		}
		rules.Policies = rules.Policies[:0]
		for i, p := range r.Policies {
			pp := fmt.Sprintf("%s.policies[%d]", path, i)
			var t HPAPolicyType
			switch p.Type {
			case "Pods":
				t = PodsPolicy
			case "Percent":
				t = PercentPolicy
			default:
				return rules, fmt.Errorf("%s.type %q (accepted: Pods, Percent): %w", pp, p.Type, ErrInvalid)
			}
			if p.Value <= 0 || p.Value > math.MaxInt32 {
				return rules, fmt.Errorf("%s.value %d (accepted: 1..%d): %w", pp, p.Value, math.MaxInt32, ErrInvalid)
			}
			if p.PeriodSeconds <= 0 || p.PeriodSeconds > MaxHPAPolicyPeriodSeconds {
				return rules, fmt.Errorf("%s.periodSeconds %d (accepted: 1..%d seconds): %w", pp, p.PeriodSeconds, MaxHPAPolicyPeriodSeconds, ErrInvalid)
			}
			rules.Policies = append(rules.Policies, HPAScalingPolicy{Type: t, Value: int32(p.Value), PeriodSeconds: int32(p.PeriodSeconds)})
		}
	}
	if r.Tolerance != nil {
		n, ok := ToleranceNanos(*r.Tolerance)
		if !ok {
			return rules, fmt.Errorf("%s.tolerance %v (accepted: 0..%d with at most 9 decimals): %w", path, *r.Tolerance, MaxHPAToleranceNanos/1e9, ErrInvalid)
		}
		rules.ToleranceNanos = n
	}
	return rules, nil
}

// checkHPABehavior validates a behavior built in Go (Compile fills in
// the defaults, so it never fails this): what the API server would
// reject, and a legacy window next to it.
func checkHPABehavior(b *HPABehavior, legacyWindow int) error {
	if b == nil {
		return nil
	}
	if legacyWindow != 0 {
		return fmt.Errorf("scaleDownStabilizationSyncs %d with behavior (accepted: 0; the behavior's windows apply): %w", legacyWindow, ErrInvalid)
	}
	for _, d := range []struct {
		name  string
		rules *HPAScalingRules
	}{{"scaleUp", &b.ScaleUp}, {"scaleDown", &b.ScaleDown}} {
		r := d.rules
		if r.StabilizationWindowSeconds < 0 || r.StabilizationWindowSeconds > MaxHPAStabilizationWindowSeconds {
			return fmt.Errorf("behavior.%s.stabilizationWindowSeconds %d (accepted: 0..%d): %w", d.name, r.StabilizationWindowSeconds, MaxHPAStabilizationWindowSeconds, ErrInvalid)
		}
		if r.SelectPolicy > DisabledPolicy {
			return fmt.Errorf("behavior.%s.selectPolicy %d (accepted: Max, Min, Disabled): %w", d.name, r.SelectPolicy, ErrInvalid)
		}
		if len(r.Policies) == 0 {
			return fmt.Errorf("behavior.%s.policies: empty (accepted: at least one policy): %w", d.name, ErrInvalid)
		}
		for j, p := range r.Policies {
			if (p.Type != PodsPolicy && p.Type != PercentPolicy) || p.Value <= 0 || p.PeriodSeconds <= 0 || p.PeriodSeconds > MaxHPAPolicyPeriodSeconds {
				return fmt.Errorf("behavior.%s.policies[%d] %+v (accepted: type Pods or Percent, value > 0, periodSeconds 1..%d): %w", d.name, j, p, MaxHPAPolicyPeriodSeconds, ErrInvalid)
			}
		}
		if r.ToleranceNanos < -1 || r.ToleranceNanos > MaxHPAToleranceNanos {
			return fmt.Errorf("behavior.%s.toleranceNanos %d (accepted: -1 (unset) or 0..%d): %w", d.name, r.ToleranceNanos, MaxHPAToleranceNanos, ErrInvalid)
		}
	}
	return nil
}
