package model

import (
	"fmt"
	"slices"
)

// UnhealthyPodEvictionPolicy is a PodDisruptionBudget's
// spec.unhealthyPodEvictionPolicy: when a pod that is running but not
// ready may be evicted.
type UnhealthyPodEvictionPolicy uint8

const (
	// IfHealthyBudget (the default): only while the application guarded
	// by the budget is not disrupted (currentHealthy ≥ desiredHealthy).
	IfHealthyBudget UnhealthyPodEvictionPolicy = iota
	// AlwaysAllow: always, without counting against the budget.
	AlwaysAllow
)

func (p UnhealthyPodEvictionPolicy) String() string {
	if p == AlwaysAllow {
		return "AlwaysAllow"
	}
	return "IfHealthyBudget"
}

// PodDisruptionBudget is a policy/v1 PodDisruptionBudget. At most one of
// MinAvailable and MaxUnavailable is set (the API server's rule); with
// neither, the disruption controller expects no pod and the budget allows
// no disruption. The budget selects the pods of the workloads of its
// namespace whose template labels match.
type PodDisruptionBudget struct {
	Name string
	// Namespace: the budget selects the pods of its namespace only.
	Namespace string
	// Selector is spec.selector: nil selects no pod, an empty one every
	// pod (policy/v1).
	Selector                     *Selector
	MinAvailable, MaxUnavailable *IntOrPercent
	UnhealthyPodEvictionPolicy   UnhealthyPodEvictionPolicy

	// MatchesTemplate[t] says whether pods of template t carry labels the
	// selector matches (set by Compile).
	MatchesTemplate []bool
}

// compilePDBs checks the budgets as the API server validates them and
// resolves their selectors against the templates' labels (the model's
// pods carry exactly their template's labels).
func (u *Universe) compilePDBs() error {
	for i := range u.PDBs {
		b := &u.PDBs[i]
		if b.MinAvailable != nil && b.MaxUnavailable != nil {
			return fmt.Errorf("podDisruptionBudget %q: minAvailable and maxUnavailable cannot be both set (accepted: one of them, or neither): %w", b.Name, ErrInvalid)
		}
		for _, f := range []struct {
			name string
			v    *IntOrPercent
		}{{"minAvailable", b.MinAvailable}, {"maxUnavailable", b.MaxUnavailable}} {
			if f.v == nil {
				continue
			}
			if f.v.Value < 0 || f.v.Percent && f.v.Value > 100 {
				return fmt.Errorf("podDisruptionBudget %q: %s %s (accepted: a non-negative integer or a percentage from 0%% to 100%%): %w", b.Name, f.name, formatIntOrPercent(*f.v), ErrInvalid)
			}
		}
		if b.UnhealthyPodEvictionPolicy > AlwaysAllow {
			return fmt.Errorf("podDisruptionBudget %q: unhealthyPodEvictionPolicy %d (accepted: IfHealthyBudget, AlwaysAllow): %w", b.Name, b.UnhealthyPodEvictionPolicy, ErrInvalid)
		}
		sel, err := u.Labels.compileSelector(b.Selector)
		if err != nil {
			return fmt.Errorf("podDisruptionBudget %q: selector: %w", b.Name, err)
		}
		b.MatchesTemplate = make([]bool, len(u.Templates))
		for t := range u.Templates {
			b.MatchesTemplate[t] = u.Templates[t].Namespace == b.Namespace && sel.Matches(u.Templates[t].LabelSet)
		}
	}
	return nil
}

// formatIntOrPercent writes the value as a manifest does ("2" or "50%").
func formatIntOrPercent(v IntOrPercent) string {
	if v.Percent {
		return fmt.Sprintf("%d%%", v.Value)
	}
	return fmt.Sprint(v.Value)
}

// Selects reports whether budget b selects pod slot i of s: the slot holds
// a pod (in any phase, as the disruption controller's pod lister lists
// terminating and failed pods too) of a template the selector matches.
func (b *PodDisruptionBudget) Selects(s *State, i int) bool {
	p := &s.Pods[i]
	return p.Phase != Free && b.MatchesTemplate[p.Template]
}

// DisruptionStatus is a PodDisruptionBudget's status as the disruption
// controller computes it (pkg/controller/disruption: trySync,
// getExpectedPodCount, countHealthyPods, updatePdbStatus).
type DisruptionStatus struct {
	CurrentHealthy, DesiredHealthy, ExpectedPods, DisruptionsAllowed int
	// SyncFailed: the controller could not compute the status (a pod
	// whose owner has no scale, pdbsync.go); the counts are zero and no
	// disruption is allowed (failSafe).
	SyncFailed bool
}

// Disruption computes budget b's status from s, as an up-to-date
// disruption controller would: the model has no status lag. A pod is
// healthy when it is Running, Ready (IsPodReady: minReadySeconds does not
// matter) and not terminating. ExpectedPods is, for an integer minAvailable, the
// number of selected pods; otherwise the sum of spec.replicas of the
// Deployments and StatefulSets owning selected pods (getExpectedScale;
// bare pods have no scale and count for nothing there), and a selected
// pod of a Job fails the sync (scaleUnknown).
func (u *Universe) Disruption(s *State, b int) DisruptionStatus { return u.DisruptionLess(s, b, 0) }

// DisruptionLess is Disruption when down of the selected pods that are
// Ready in s are not at this instant (a container the model restarts in
// one step may wait in CrashLoopBackOff, and the pod's Ready condition is
// False meanwhile): they do not count as healthy.
func (u *Universe) DisruptionLess(s *State, b int, down int) DisruptionStatus {
	pdb := &u.PDBs[b]
	var st DisruptionStatus
	selected := 0
	for i := range s.Pods {
		if !pdb.Selects(s, i) {
			continue
		}
		selected++
		if s.Pods[i].Ready() {
			st.CurrentHealthy++
		}
	}
	st.CurrentHealthy -= down
	if pdb.MaxUnavailable != nil || pdb.MinAvailable != nil && pdb.MinAvailable.Percent {
		if u.scaleUnknown(s, pdb) {
			return DisruptionStatus{SyncFailed: true}
		}
	}
	switch {
	case pdb.MaxUnavailable != nil:
		st.ExpectedPods = u.expectedScale(s, pdb)
		st.DesiredHealthy = max(0, st.ExpectedPods-pdb.MaxUnavailable.Resolve(st.ExpectedPods, true))
	case pdb.MinAvailable != nil && !pdb.MinAvailable.Percent:
		st.ExpectedPods = selected
		st.DesiredHealthy = pdb.MinAvailable.Value
	case pdb.MinAvailable != nil:
		st.ExpectedPods = u.expectedScale(s, pdb)
		st.DesiredHealthy = pdb.MinAvailable.Resolve(st.ExpectedPods, true)
	}
	if st.ExpectedPods > 0 {
		st.DisruptionsAllowed = max(0, st.CurrentHealthy-st.DesiredHealthy)
	}
	return st
}

// expectedScale is getExpectedScale: the spec.replicas of every distinct
// deployment that owns a selected pod (a Deployment's ReplicaSets all
// resolve to the Deployment's scale).
func (u *Universe) expectedScale(s *State, pdb *PodDisruptionBudget) int {
	var seen [MaxObjects + 1]bool
	total := 0
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Owner == 0 || seen[p.Owner] || !pdb.Selects(s, i) {
			continue
		}
		seen[p.Owner] = true
		total += int(s.Deps[p.Owner-1].Replicas)
	}
	return total
}

// EvictionOutcome is what the Eviction API answers.
type EvictionOutcome uint8

const (
	// EvictionAllowed: the pod is deleted (201).
	EvictionAllowed EvictionOutcome = iota
	// EvictionBudgetExhausted: the pod's budget allows no disruption
	// (429 TooManyRequests).
	EvictionBudgetExhausted
	// EvictionMultipleBudgets: more than one budget selects the pod,
	// which the eviction subresource does not support (500).
	EvictionMultipleBudgets
)

// Eviction is the Eviction API's answer for one pod, with the budget it
// consulted (-1 for none) and that budget's status, for trace lines.
type Eviction struct {
	Outcome EvictionOutcome
	Budget  int
	Status  DisruptionStatus
}

// CheckEviction is the Eviction API's decision for pod slot i of s
// (pkg/registry/core/pod/storage/eviction.go). A pod that is Pending,
// Failed or already terminating is deleted without looking at budgets
// (canIgnorePDB). Otherwise: no budget selecting it, allowed; more than
// one, refused; one, decided by EvictionDecision with the pod's
// readiness (IsPodReady). An allowed eviction needs no
// bookkeeping of the budget's DisruptedPods: the pod turns Terminating at
// once, and the next check counts it as no longer healthy, which is what
// the API server's decrement of disruptionsAllowed stands for.
func (u *Universe) CheckEviction(s *State, i int) Eviction {
	return u.CheckEvictionIn(s, i, StateView{u, s})
}

// CheckEvictionIn is CheckEviction with readiness and statuses read from
// v.
func (u *Universe) CheckEvictionIn(s *State, i int, v EvictionView) Eviction {
	b, multiple := u.BudgetOf(s, i)
	switch {
	case multiple:
		return Eviction{Outcome: EvictionMultipleBudgets, Budget: b}
	case b < 0:
		return Eviction{Budget: -1}
	}
	st := v.BudgetStatus(b)
	return Eviction{Outcome: EvictionDecision(st, u.PDBs[b].UnhealthyPodEvictionPolicy, v.PodReady(i)), Budget: b, Status: st}
}

// BudgetOf is the budget the Eviction API consults for pod slot i of s:
// -1 for a pod that is not Running (canIgnorePDB) or that no budget
// selects; with multiple, more than one selects it (b is one of them).
func (u *Universe) BudgetOf(s *State, i int) (b int, multiple bool) {
	if s.Pods[i].Phase != Running {
		return -1, false
	}
	b = -1
	for j := range u.PDBs {
		if u.PDBs[j].Selects(s, i) {
			if b >= 0 {
				return b, true
			}
			b = j
		}
	}
	return b, false
}

// EvictionDecision is the Eviction API's check of a running pod against
// its one budget: a pod that is not ready is deleted under AlwaysAllow, or
// under IfHealthyBudget while the guarded application is not disrupted
// (currentHealthy ≥ desiredHealthy > 0), without using the budget; every
// other pod needs disruptionsAllowed > 0 (checkAndDecrement).
func EvictionDecision(st DisruptionStatus, policy UnhealthyPodEvictionPolicy, ready bool) EvictionOutcome {
	if !ready && st.LetsUnhealthyGo(policy) {
		return EvictionAllowed
	}
	if st.DisruptionsAllowed == 0 {
		return EvictionBudgetExhausted
	}
	return EvictionAllowed
}

// LetsUnhealthyGo reports whether a budget with this status and policy
// lets a pod that is not Ready be evicted without using a disruption:
// always under AlwaysAllow, under IfHealthyBudget while the guarded
// application is not disrupted (currentHealthy ≥ desiredHealthy > 0).
func (st DisruptionStatus) LetsUnhealthyGo(policy UnhealthyPodEvictionPolicy) bool {
	return policy == AlwaysAllow || st.CurrentHealthy >= st.DesiredHealthy && st.DesiredHealthy > 0
}

// Reason is the API server's message for a refused eviction (empty when
// it is allowed).
func (e Eviction) Reason(u *Universe) string {
	switch e.Outcome {
	case EvictionMultipleBudgets:
		return "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
	case EvictionBudgetExhausted:
		name := u.PDBs[e.Budget].Name
		if e.Status.SyncFailed {
			return fmt.Sprintf("Cannot evict pod as it would violate the pod's disruption budget. The disruption budget %s does not allow evicting pods currently because it failed sync: %s",
				name, noScaleMessage)
		}
		if e.Status.CurrentHealthy <= e.Status.DesiredHealthy {
			return fmt.Sprintf("Cannot evict pod as it would violate the pod's disruption budget. The disruption budget %s needs %d healthy pods and has %d currently",
				name, e.Status.DesiredHealthy, e.Status.CurrentHealthy)
		}
		return fmt.Sprintf("Cannot evict pod as it would violate the pod's disruption budget. The disruption budget %s does not allow evicting pods currently", name)
	}
	return ""
}

// BudgetsSelectPods reports whether some budget's selector matches the
// pods of some template: only then can a budget refuse an eviction.
func (u *Universe) BudgetsSelectPods() bool {
	for i := range u.PDBs {
		if slices.Contains(u.PDBs[i].MatchesTemplate, true) {
			return true
		}
	}
	return false
}
