package preemptiondiff

import "slices"

// Known disagreement classes: each names a documented simplification of
// the model (docs/divergences.md) and the counterfactual under which the
// answers agree.
const (
	// ClassFirstReason: the model's filters report their first reason
	// only (NodeResourcesFit's first insufficient resource), upstream's
	// status lists all, so a FitError's histogram differs when a node
	// lacks several resources. Counterfactual: every real status cut to
	// its first reason.
	ClassFirstReason = "first reason only"
	// ClassBound: finding every outcome of the orders of equal-priority
	// victims on one node takes the model more than its bound of steps
	// (many pods of several kinds); it stops there (an Unknown verdict)
	// rather than answer. Counterfactual: fewer equal-priority pods on a
	// node.
	ClassBound = "model bound (preemption victim orders)"
	// ClassWaitsForTermination: under Kubernetes' lifecycle the model's
	// pod that fits no node waits while any pod terminates, without
	// PostFilter (controllers/scheduler, waiting.go); upstream's cycle
	// runs PostFilter at once. Counterfactual: the model without that
	// wait (Snapshot.modelNoWaiting); a disagreement left then is
	// classified again and its class appended after "; ".
	ClassWaitsForTermination = "waits while a pod terminates"
	// ClassEligibilityEveryTerminating: PodEligibleToPreemptOthers
	// counts only the lower-priority pods on the nominated node that
	// terminate by a preemption (DisruptionTarget, reason
	// PreemptionByScheduler); the model does not record why a pod
	// terminates and counts every one. Counterfactual: every terminating
	// pod of the real snapshot marked as preempted.
	ClassEligibilityEveryTerminating = "eligibility counts every terminating pod"
	// ClassSpreadRemovesTerminating: PodTopologySpread's PreFilter does
	// not count terminating pods, but its RemovePod, which the dry run
	// calls for every potential victim, subtracts a terminating one all
	// the same (updateWithPod does not look at deletionTimestamp), so
	// upstream's counts on the node drop below the pods that match and
	// fewer victims satisfy the constraint; the model counts as the
	// PreFilter does throughout. Counterfactual: on both sides, the
	// terminating pods that the pending pod's spread constraint selects
	// are pods of a copy of their Deployment whose tier no constraint
	// selects.
	ClassSpreadRemovesTerminating = "spread: the dry run subtracts a terminating pod"
)

// Classes are the known classes, for reports.
var Classes = []string{ClassFirstReason, ClassBound, ClassWaitsForTermination, ClassEligibilityEveryTerminating,
	ClassSpreadRemovesTerminating}

// classify returns the class whose counterfactual removes c's
// disagreement, or "".
func (c *Comparison) classify(r *Real, s *Snapshot) (string, error) {
	m, ra := c.Model, c.Real
	if m.Bound {
		return ClassBound, nil
	}
	if m.Waits && m.Message == "" && s.HasTerminating() {
		mc, err := s.modelNoWaiting()
		if err != nil {
			return "", err
		}
		cf := &Comparison{Model: mc, Real: ra, noWaiting: true}
		if cf.Diff = cf.diff(s); cf.Diff == "" {
			return ClassWaitsForTermination, nil
		}
		if mc.Waits && mc.Message == "" {
			// Still waiting: the counterfactual changed nothing.
			return "", nil
		}
		next, err := cf.classify(r, s)
		if next == "" || err != nil {
			return "", err
		}
		return ClassWaitsForTermination + "; " + next, nil
	}
	if !m.Fits && !ra.Fits && len(m.Branches) == 0 && !m.Waits && m.Message != ra.Message && m.Message == ra.FirstReasons {
		return ClassFirstReason, nil
	}
	if preempted := s.allPreempted(); preempted != nil {
		rc, err := r.Preempt(preempted)
		if err != nil {
			return "", err
		}
		cf := &Comparison{Model: m, Real: rc}
		if cf.Diff = cf.diff(s); cf.Diff == "" {
			return ClassEligibilityEveryTerminating, nil
		}
	}
	if unselected := s.terminatingUnselected(); unselected != nil {
		mc, err := unselected.model(c.noWaiting)
		if err != nil {
			return "", err
		}
		rc, err := r.Preempt(unselected)
		if err != nil {
			return "", err
		}
		cf := &Comparison{Model: mc, Real: rc}
		if cf.Diff = cf.diff(unselected); cf.Diff == "" {
			return ClassSpreadRemovesTerminating, nil
		}
	}
	return "", nil
}

// unselectedTier is a tier no spread constraint or budget selects.
const unselectedTier = "z"

// terminatingUnselected returns a copy of s in which the terminating pods
// that the pending pod's spread constraint selects belong to a copy of
// their app of tier unselectedTier, or nil when there are none.
func (s *Snapshot) terminatingUnselected() *Snapshot {
	if !s.Pending.Spread {
		return nil
	}
	var c *Snapshot
	for i, q := range s.Pods {
		if q.Terminating == NotTerminating || s.Apps[q.App].Tier != s.Pending.SpreadTier {
			continue
		}
		if c == nil {
			cp := *s
			cp.Apps, cp.Pods = slices.Clone(s.Apps), slices.Clone(s.Pods)
			c = &cp
		}
		app := s.Apps[q.App]
		app.Tier = unselectedTier
		c.Apps = append(c.Apps, app)
		c.Pods[i].App = len(c.Apps) - 1
	}
	return c
}

// allPreempted returns a copy of s whose terminating pods all terminate
// by a preemption, or nil when s has no pod terminating otherwise.
func (s *Snapshot) allPreempted() *Snapshot {
	other := false
	for _, q := range s.Pods {
		other = other || q.Terminating == TerminatingOther
	}
	if !other {
		return nil
	}
	c := *s
	c.Pods = make([]Pod, len(s.Pods))
	for i, q := range s.Pods {
		if q.Terminating != NotTerminating {
			q.Terminating = TerminatingByPreemption
		}
		c.Pods[i] = q
	}
	return &c
}
