package model

import (
	"fmt"
	"math"
)

// PodDisruptionBudgetDecl is a policy/v1 PodDisruptionBudget as a case
// file writes it (and as the manifest reader hands it on).
type PodDisruptionBudgetDecl struct {
	Name string `json:"name"`
	// Namespace is the budget's namespace: it selects the pods of that
	// namespace only (namespace.go).
	Namespace string `json:"namespace,omitempty"`
	// Selector is spec.selector over pod labels (the templates' labels):
	// unset selects no pod, an empty mapping every pod.
	Selector *Selector `json:"selector,omitempty"`
	// MinAvailable and MaxUnavailable: an integer or a percentage
	// ("50%"); at most one of them.
	MinAvailable   string `json:"minAvailable,omitempty"`
	MaxUnavailable string `json:"maxUnavailable,omitempty"`
	// UnhealthyPodEvictionPolicy is IfHealthyBudget (default) or
	// AlwaysAllow.
	UnhealthyPodEvictionPolicy string `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// compilePDBDecls turns the declared budgets into the Universe's.
func (c *Cluster) compilePDBDecls() ([]PodDisruptionBudget, error) {
	var out []PodDisruptionBudget
	names := map[string]bool{}
	for i, d := range c.PodDisruptionBudgets {
		where := fmt.Sprintf("podDisruptionBudgets[%d] (%s)", i, d.Name)
		if d.Name == "" {
			return nil, fmt.Errorf("podDisruptionBudgets[%d].name: empty (accepted: a name): %w", i, ErrInvalid)
		}
		if names[d.Namespace+"/"+d.Name] {
			return nil, fmt.Errorf("%s.name: a second budget of that name (accepted: one per name and namespace): %w", where, ErrInvalid)
		}
		names[d.Namespace+"/"+d.Name] = true
		b := PodDisruptionBudget{Name: d.Name, Namespace: d.Namespace, Selector: d.Selector}
		for _, f := range []struct {
			name string
			v    string
			out  **IntOrPercent
		}{{"minAvailable", d.MinAvailable, &b.MinAvailable}, {"maxUnavailable", d.MaxUnavailable, &b.MaxUnavailable}} {
			if f.v == "" {
				continue
			}
			v, err := ParseIntOrPercent(f.v)
			if err == nil && (v.Percent && v.Value > 100 || v.Value > math.MaxInt32) {
				err = fmt.Errorf("%q (accepted: a non-negative integer or a percentage from 0%% to 100%%): %w", f.v, ErrInvalid)
			}
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", where, f.name, err)
			}
			*f.out = &v
		}
		if b.MinAvailable != nil && b.MaxUnavailable != nil {
			return nil, fmt.Errorf("%s: minAvailable and maxUnavailable cannot be both set (accepted: one of them, or neither): %w", where, ErrInvalid)
		}
		switch d.UnhealthyPodEvictionPolicy {
		case "", "IfHealthyBudget":
		case "AlwaysAllow":
			b.UnhealthyPodEvictionPolicy = AlwaysAllow
		default:
			return nil, fmt.Errorf("%s.unhealthyPodEvictionPolicy %q (accepted: IfHealthyBudget, AlwaysAllow): %w", where, d.UnhealthyPodEvictionPolicy, ErrInvalid)
		}
		out = append(out, b)
	}
	return out, nil
}
