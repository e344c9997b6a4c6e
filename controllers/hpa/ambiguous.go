package hpa

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// A workload that several HPAs scale (model.HPA.Ambiguous). Each HPA is
// synced on its own, every sync period, and each finds the workload's
// pods selected by more than one HPA (validateAndParseSelector: the
// AmbiguousSelector event, ScalingActive False), so none of them computes
// a metric. What is left of reconcileAutoscaler is its entry cases: a
// count of 0 disables scaling, and a count above an HPA's maxReplicas or
// below its minReplicas is set to that bound. Two HPAs whose ranges do
// not overlap set the count back and forth for as long as both exist.
//
// The model's HPA syncs a deployment when its pods change (Kivi's
// trigger) and, the cluster quiescent, when a sync period passes. A sync
// of a workload with several HPAs is one of them syncing, any of them;
// a period passes for it whenever one of them would move the count, so a
// quiescent state is one that every one of its HPAs leaves as it is.

// ambiguous reports whether deployment ds is active under several HPAs.
func ambiguous(u *model.Universe, ds *model.DeploymentState) bool {
	return ds.Active && ds.HPA != 0 && len(u.HPAs[ds.HPA-1].Ambiguous) > 0
}

// boundsMove reports whether one of the several HPAs of deployment ds
// would move its count at its next sync.
func boundsMove(u *model.Universe, ds *model.DeploymentState) bool {
	if !ambiguous(u, ds) {
		return false
	}
	current := int(ds.Replicas)
	for _, b := range u.HPAs[ds.HPA-1].Ambiguous {
		if desired, _ := EntryCase(current, Bounds{Min: b.Min, Max: b.Max}); desired != current {
			return true
		}
	}
	return false
}

// anyBoundsMove reports whether a sync period would move some workload
// with several HPAs.
func anyBoundsMove(u *model.Universe, s *model.State) bool {
	for d := range s.Deps {
		if boundsMove(u, &s.Deps[d]) {
			return true
		}
	}
	return false
}

// hasAmbiguous reports whether some HPA of u shares its target.
func hasAmbiguous(u *model.Universe) bool {
	for i := range u.HPAs {
		if len(u.HPAs[i].Ambiguous) > 0 {
			return true
		}
	}
	return false
}

// syncAmbiguous is the sync of one of deployment d's HPAs, chosen among
// those whose syncs end differently; moving keeps only those that move
// the count (a sync period, which passes only for them).
func syncAmbiguous(tx *model.Tx, s *model.State, d int, spec *model.HPA, moving bool) {
	ds := &s.Deps[d]
	current := int(ds.Replicas)
	// One HPA per distinct outcome, the first in the manifests' order.
	var pickBuf, outcomeBuf [4]int
	pick, outcomes := pickBuf[:0], outcomeBuf[:0]
	for i, b := range spec.Ambiguous {
		desired, _ := EntryCase(current, Bounds{Min: b.Min, Max: b.Max})
		if moving && desired == current {
			continue
		}
		dup := false
		for _, o := range outcomes {
			dup = dup || o == desired
		}
		if !dup {
			outcomes = append(outcomes, desired)
			pick = append(pick, i)
		}
	}
	if len(pick) == 0 {
		return
	}
	c := tx.Choose(len(pick))
	b, desired := spec.Ambiguous[pick[c]], outcomes[c]
	if desired != current {
		ds.Replicas = int16(desired)
		s.Enqueue(model.DeploymentQueue, d)
	}
	if !tx.Tracing() {
		return
	}
	why := fmt.Sprintf("HPA %s: the pods of %s %s are controlled by multiple HPAs (%s), so it computes no metric (AmbiguousSelector)", b.Name, tx.U.KindWord(d, false), tx.U.Deployments[d].Name, ambiguousNames(spec))
	logEntryCase(tx, d, why, b, current, desired)
}

// logEntryCase traces an AmbiguousSelector sync of deployment d by an
// HPA of bounds b (why says whose and why), which moved current
// replicas to desired.
func logEntryCase(tx *model.Tx, d int, why string, b model.HPABounds, current, desired int) {
	kind, name := tx.U.KindWord(d, false), tx.U.Deployments[d].Name
	switch {
	case current == 0:
		tx.Log(Component, "%s; scaling is disabled since the replica count is zero", why)
	case desired == current:
		tx.Log(Component, "%s; %d replicas are within its minReplicas..maxReplicas %d..%d: no change", why, current, b.Min, b.Max)
	case current > b.Max:
		tx.Log(Component, "%s; %d replicas are above its maxReplicas %d: scaling %s %s from %d to %d replicas", why, current, b.Max, kind, name, current, desired)
	default:
		tx.Log(Component, "%s; %d replicas are below its minReplicas %d: scaling %s %s from %d to %d replicas", why, current, b.Min, kind, name, current, desired)
	}
}

// ambiguousNames lists the names of the HPAs of a workload with several.
func ambiguousNames(spec *model.HPA) string {
	names := make([]string, len(spec.Ambiguous))
	for i, b := range spec.Ambiguous {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}

// AmbiguousNow reports whether deployment d's HPA, were it to sync in s,
// would find the pods it lists controlled by several HPAs (upstream's
// AmbiguousSelector) and so compute no metric, leaving only the entry
// cases: d is scaled by several HPAs (model.HPA.Ambiguous), or a pod
// exists of a workload whose pods its target's selector selects and
// another HPA's target's selects too (model.HPA.AmbiguousWhenPodsOf).
// It is the decision sync takes, for the differential test against
// kube-controller-manager (fidelity/hpadiff).
func AmbiguousNow(u *model.Universe, s *model.State, d int) bool {
	ds := &s.Deps[d]
	if !ds.Active || ds.HPA == 0 {
		return false
	}
	spec := &u.HPAs[ds.HPA-1]
	return len(spec.Ambiguous) > 0 || sharedSelectorNow(s, spec)
}

// sharedSelectorNow reports whether deployment d's HPA finds, in s, pods
// it lists that another HPA's target selects too
// (model.HPA.AmbiguousWhenPodsOf): some pod of those workloads exists,
// in any phase (the pod lister lists them all).
func sharedSelectorNow(s *model.State, spec *model.HPA) bool {
	if len(spec.AmbiguousWhenPodsOf) == 0 {
		return false
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == model.Free || p.Owner == 0 {
			continue
		}
		for _, d := range spec.AmbiguousWhenPodsOf {
			if int(p.Owner) == d+1 {
				return true
			}
		}
	}
	return false
}

// syncSharedSelector is the sync of deployment d's HPA while pods it
// lists are controlled by another HPA too: only its entry cases.
func syncSharedSelector(tx *model.Tx, s *model.State, d int, spec *model.HPA, live bool) {
	ds := &s.Deps[d]
	current := int(ds.Replicas)
	desired, _ := EntryCase(current, Bounds{Min: spec.Min, Max: spec.Max})
	if desired != current {
		ds.Replicas = int16(desired)
	}
	if !live {
		return
	}
	if desired != current {
		s.Enqueue(model.DeploymentQueue, d)
	}
	if !tx.Tracing() {
		return
	}
	why := fmt.Sprintf("HPA %s: pods its target's selector selects are selected by another HPA's target too, so it computes no metric (AmbiguousSelector)", spec.Name)
	logEntryCase(tx, d, why, model.HPABounds{Name: spec.Name, Min: spec.Min, Max: spec.Max}, current, desired)
}
