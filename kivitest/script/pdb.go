package script

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// pdb name=B [selector=k=v,…] [min-available=N|N%] [max-unavailable=N|N%]
// [unhealthy-pod-eviction-policy=IfHealthyBudget|AlwaysAllow]: a
// PodDisruptionBudget whose selector's matchLabels are the pairs (no
// selector= selects every pod, as an empty selector does).
func (e *Env) pdb(c Command) (string, error) {
	b := model.PodDisruptionBudget{Name: c.Arg("name", "pdb"), Selector: &model.Selector{MatchLabels: map[string]string{}}}
	ls, err := labels("selector", c.Arg("selector", ""))
	if err != nil {
		return "", err
	}
	for _, kv := range ls {
		b.Selector.MatchLabels[kv[0]] = kv[1]
	}
	for _, f := range []struct {
		key string
		to  **model.IntOrPercent
	}{{"min-available", &b.MinAvailable}, {"max-unavailable", &b.MaxUnavailable}} {
		if v := c.Arg(f.key, ""); v != "" {
			x, err := model.ParseIntOrPercent(v)
			if err != nil {
				return "", fmt.Errorf("%s: %v", f.key, err)
			}
			*f.to = &x
		}
	}
	switch v := c.Arg("unhealthy-pod-eviction-policy", "IfHealthyBudget"); v {
	case "IfHealthyBudget":
	case "AlwaysAllow":
		b.UnhealthyPodEvictionPolicy = model.AlwaysAllow
	default:
		return "", fmt.Errorf("unknown unhealthy-pod-eviction-policy %q (IfHealthyBudget, AlwaysAllow)", v)
	}
	e.b.U.PDBs = append(e.b.U.PDBs, b)
	return "", nil
}

// disruption: every PodDisruptionBudget's status as the disruption
// controller computes it from the current state (or that its sync
// fails), and what the Eviction
// API would answer for each Running pod it selects.
func (e *Env) disruption(Command) (string, error) {
	if len(e.u.PDBs) == 0 {
		return "no PodDisruptionBudget\n", nil
	}
	var b strings.Builder
	for i := range e.u.PDBs {
		st := e.u.Disruption(e.s, i)
		if st.SyncFailed {
			fmt.Fprintf(&b, "pdb %s: sync failed, disruptionsAllowed 0\n", e.u.PDBs[i].Name)
			continue
		}
		fmt.Fprintf(&b, "pdb %s: currentHealthy %d desiredHealthy %d expectedPods %d disruptionsAllowed %d\n",
			e.u.PDBs[i].Name, st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods, st.DisruptionsAllowed)
	}
	for p := range e.s.Pods {
		if e.s.Pods[p].Phase != model.Running {
			continue
		}
		ev := e.u.CheckEviction(e.s, p)
		if ev.Budget < 0 && ev.Outcome == model.EvictionAllowed {
			continue
		}
		answer := "allowed"
		if r := ev.Reason(e.u); r != "" {
			answer = "refused: " + r
		}
		fmt.Fprintf(&b, "evict pod %d: %s\n", p+1, answer)
	}
	return b.String(), nil
}
