package hpa

import "github.com/kivi-go/kivi/model"

// behaviorOf is the behavior of deployment ds's HPA, nil without one.
func behaviorOf(u *model.Universe, ds *model.DeploymentState) *model.HPABehavior {
	if ds.HPA == 0 {
		return nil
	}
	return u.HPAs[ds.HPA-1].Behavior
}

// waiting reports whether deployment ds's HPA has behavior and remembers
// a scale event that some policy still reads. Time passes for it at
// quiescence even when nothing is held: such an event loosens a limit as
// well as it tightens one (a scale-up lowers the replicas a scale-down
// period started with), so without this step a later load change would
// always see it, and the slower course after it has expired would never
// be explored. Remembered recommendations need no such step: a window
// only ever holds the count back, and a held count is re-synced.
func waiting(u *model.Universe, ds *model.DeploymentState) bool {
	if behaviorOf(u, ds) == nil || ds.HPAMemory == "" {
		return false
	}
	var mem model.HPAMemory
	if model.DecodeHPAMemory(ds.HPAMemory, &mem) != nil {
		return true // the re-sync reports the broken memory
	}
	for _, l := range [][]model.HPAScaleEvent{mem.UpEvents, mem.DownEvents} {
		for _, e := range l {
			if e.Change > 0 {
				return true
			}
		}
	}
	return false
}

// advanceMemory is one sync period passing for ds's memory; false when
// the memory does not decode (a model invariant broken).
func advanceMemory(b *model.HPABehavior, ds *model.DeploymentState) bool {
	var mem model.HPAMemory
	if err := model.DecodeHPAMemory(ds.HPAMemory, &mem); err != nil {
		return false
	}
	AdvanceBehavior(b, &mem)
	ds.HPAMemory = mem.Encode()
	return true
}

// RecommendWithBehavior evaluates deployment d, whose HPA has behavior,
// at current spec replicas: the entry cases, the metrics, then
// NormalizeWithBehavior over mem (which records the proposal). Held is
// set when the memory held the outcome back (Held).
func RecommendWithBehavior(u *model.Universe, s *model.State, d int, spec *model.HPA, current int, mem *model.HPAMemory) (Recommendation, Limit) {
	return recommendWithBehavior(u, s, d, spec, current, mem, noEnvironment)
}

// recommendWithBehavior is RecommendWithBehavior with the metrics outside
// the model giving env.
func recommendWithBehavior(u *model.Universe, s *model.State, d int, spec *model.HPA, current int, mem *model.HPAMemory, env environment) (Recommendation, Limit) {
	b := Bounds{Min: spec.Min, Max: spec.Max}
	if desired, decided := EntryCase(current, b); decided {
		return Recommendation{Desired: desired, OK: true}, DesiredWithinRange
	}
	proposal, ok := propose(u, s, d, spec, current, env)
	if !ok {
		return Recommendation{Desired: current}, DesiredWithinRange
	}
	out := NormalizeWithBehavior(spec.Behavior, mem, current, proposal, b)
	return Recommendation{Desired: out.Desired, OK: true, Proposal: proposal, Stabilized: out.Stabilized,
		Held: Held(spec.Behavior, current, proposal, out.Desired, b)}, out.Limit
}

// reconcileWithBehavior is one HPA sync of deployment d under an HPA with
// behavior (reconcileAutoscaler with normalizeDesiredReplicasWithBehaviors):
// the first sync seeds the windows with the current count, the evaluation
// records its proposal, and a rescale is stored as a scale event. The
// metrics outside the model give env; a sync that is not live neither
// logs nor enqueues (sync).
func reconcileWithBehavior(tx *model.Tx, s *model.State, d int, spec *model.HPA, env environment, live bool) {
	ds := &s.Deps[d]
	b := spec.Behavior
	var mem model.HPAMemory
	if err := model.DecodeHPAMemory(ds.HPAMemory, &mem); err != nil {
		s.Fail(model.FailInternal, d)
		return
	}
	current := int(ds.Replicas)
	if b.HasWindow() && !ds.HPASeen {
		// recordInitialRecommendation (only a window reads it).
		ds.HPASeen = true
		RecordRecommendation(b, &mem, current, Bounds{Min: spec.Min, Max: spec.Max})
	}
	r, limit := recommendWithBehavior(tx.U, s, d, spec, current, &mem, env)
	ds.HPAHeld = r.Held
	name := tx.U.Deployments[d].Name
	tracing := live && tx.Tracing()
	if r.Held && tracing {
		tx.Log(Component, "%s %s: %s, recommendation %d, stabilized %d, allowed %d",
			tx.U.KindWord(d, true), name, limit, r.Proposal, r.Stabilized, r.Desired)
	}
	if r.OK && r.Desired != current {
		if !StoreScaleEvent(b, &mem, current, r.Desired) {
			ds.HPAMemory = mem.Encode()
			s.ReachBound(model.BoundHPAScaleEvents)
			return
		}
		ds.Replicas = int16(r.Desired)
		if live {
			s.Enqueue(model.DeploymentQueue, d)
		}
		if tracing {
			tx.Log(Component, "Scaling %s %s from %d to %d replicas", tx.U.KindWord(d, false), name, current, r.Desired)
		}
	}
	ds.HPAMemory = mem.Encode()
}
