package manifest

import (
	"math/big"

	"github.com/kivi-go/kivi/model"
)

// behaviorDecl converts spec.behavior with the API server's validation
// (pkg/apis/autoscaling/validation: validateBehavior,
// validateScalingRules, validateScalingPolicy); the defaults are filled in
// when the model compiles it (model.HPABehaviorDecl). Every field is
// modelled (controllers/hpa, behavior.go).
func behaviorDecl(o Object, b *HPABehavior) (*model.HPABehaviorDecl, error) {
	if b == nil {
		return nil, nil
	}
	up, err := scalingRulesDecl(o, "spec.behavior.scaleUp", b.ScaleUp)
	if err != nil {
		return nil, err
	}
	down, err := scalingRulesDecl(o, "spec.behavior.scaleDown", b.ScaleDown)
	if err != nil {
		return nil, err
	}
	return &model.HPABehaviorDecl{ScaleUp: up, ScaleDown: down}, nil
}

// nano is a tolerance's unit in the model (the API rounds quantities up
// to it).
var nano = big.NewRat(1, 1_000_000_000)

func scalingRulesDecl(o Object, path string, r *HPAScalingRules) (*model.HPAScalingRulesDecl, error) {
	if r == nil {
		return nil, nil
	}
	a := o.at()
	d := &model.HPAScalingRulesDecl{}
	if w := r.StabilizationWindowSeconds; w != nil {
		if *w < 0 || *w > model.MaxHPAStabilizationWindowSeconds {
			return nil, a.errorf(o.path(path+".stabilizationWindowSeconds"), "%d (accepted: 0..%d seconds)", *w, model.MaxHPAStabilizationWindowSeconds)
		}
		n := int(*w)
		d.StabilizationWindowSeconds = &n
	}
	if p := r.SelectPolicy; p != nil {
		switch *p {
		case "Max", "Min", "Disabled":
			d.SelectPolicy = *p
		default:
			return nil, a.errorf(o.path(path+".selectPolicy"), "%q (accepted: Max, Min, Disabled)", *p)
		}
	}
	if r.Policies != nil {
		if len(r.Policies) == 0 {
			return nil, a.errorf(o.path(path+".policies"), "empty (accepted: at least one policy)")
		}
		d.Policies = []model.HPAScalingPolicyDecl{}
		for i, p := range r.Policies {
			pp := index(path+".policies", i)
			if p.Type != "Pods" && p.Type != "Percent" {
				return nil, a.errorf(o.path(pp+".type"), "%q (accepted: Pods, Percent)", p.Type)
			}
			if p.Value <= 0 {
				return nil, a.errorf(o.path(pp+".value"), "%d (accepted: an integer > 0)", p.Value)
			}
			if p.PeriodSeconds <= 0 || p.PeriodSeconds > model.MaxHPAPolicyPeriodSeconds {
				return nil, a.errorf(o.path(pp+".periodSeconds"), "%d (accepted: 1..%d seconds)", p.PeriodSeconds, model.MaxHPAPolicyPeriodSeconds)
			}
			d.Policies = append(d.Policies, model.HPAScalingPolicyDecl{Type: p.Type, Value: int(p.Value), PeriodSeconds: int(p.PeriodSeconds)})
		}
	}
	if t := r.Tolerance; t != nil {
		tp := o.path(path + ".tolerance")
		q, err := t.Parse()
		if err != nil {
			return nil, a.errorf(tp, "%q is not %s", t.Text, quantityGrammar)
		}
		if q.Sign() < 0 {
			return nil, a.errorf(tp, "%s (accepted: a quantity ≥ 0, as 0.05 for 5 %%)", t.Text)
		}
		n, ok := q.Scaled(nano, true)
		if !ok || n > model.MaxHPAToleranceNanos {
			return nil, a.errorf(tp, "%s is too large for the model (accepted: 0..%d)", t.Text, model.MaxHPAToleranceNanos/1e9)
		}
		// n/10⁹ as the nearest double; model.ToleranceNanos recovers n
		// from its shortest decimal form (n < 10¹⁵ has at most 15 digits).
		f := float64(n) / 1e9
		d.Tolerance = &f
	}
	return d, nil
}
