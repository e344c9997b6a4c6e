package events

import "github.com/kivi-go/kivi/model"

// Program counter of eventCpuChange and eventMemoryChange (one byte of
// event memory).
const (
	riseWaiting uint8 = iota // before the guard step
	riseBody                 // guard passed, waiting for a started member
	riseDone
)

// usageRise is what eventCpuChange and eventMemoryChange share: once the
// cluster is quiescent (the guard step, untraced, as in Kivi), one started
// pod of deployment D's current ReplicaSet uses more, by one of the
// event's amounts (DeltaUnit, 2·DeltaUnit, … MaxDelta·DeltaUnit); every
// (pod, amount) pair is a branch, identical pods being one pod
// (choosePod). The two differ in what the rise does
// to the pod (raise).
type usageRise struct {
	event int
}

func (r usageRise) enabled(u *model.Universe, s *model.State) bool {
	if !mayStart(u, s, r.event) {
		return false
	}
	switch vars(u, s, r.event)[0] {
	case riseWaiting:
		return s.ControllerAndHPAQueuesEmpty()
	case riseBody:
		return startedCount(s, u.Events[r.event].Deployment) > 0
	}
	return false
}

// step is either the guard step or the body, which does not re-check the
// guard; raise changes pod p's usage by delta units.
func (r usageRise) step(tx *model.Tx, s *model.State, raise func(tx *model.Tx, s *model.State, p int, delta int64)) {
	u := tx.U
	e := &u.Events[r.event]
	pc := &vars(u, s, r.event)[0]
	switch *pc {
	case riseWaiting:
		*pc = riseBody
	case riseBody:
		p := r.choosePod(tx, s, e.Deployment)
		delta := int64(1+tx.Choose(e.MaxDelta)) * int64(max(e.DeltaUnit, 1))
		raise(tx, s, p, delta)
		*pc = riseDone
	}
	afterStep(u, s, r.event)
}

// choosePod branches over the started member whose usage rises: over
// every one under Kivi's tie-breaks (the quick pass, as Kivi), else over
// one pod per group of identical pods, up to the node orbits
// (Tx.ChoosePods): identical pods have the same futures, so raising one
// or its twin leads to states no step tells apart.
func (r usageRise) choosePod(tx *model.Tx, s *model.State, d int) int {
	m := startedOf(s, d)
	var members []int
	if !m.none {
		for i := range s.Pods {
			if m.has(&s.Pods[i]) {
				members = append(members, i)
			}
		}
	}
	switch {
	case len(members) == 0:
		return -1
	case tx.U.Options.TieBreak == model.LowestIndex:
		return members[tx.Choose(len(members))]
	}
	return tx.ChoosePods(s, members, 1)[0]
}

// validEnd: waiting in the body for a member to exist is not an end
// location (Kivi's invalid end state).
func (r usageRise) validEnd(u *model.Universe, s *model.State) bool {
	if !mayStart(u, s, r.event) || vars(u, s, r.event)[0] != riseBody {
		return true
	}
	return startedCount(s, u.Events[r.event].Deployment) > 0
}

// disabledBy: the phase; waiting for quiescence, a busy queue; in the
// body, the pods and deployments that make members; done, its memory.
func (r usageRise) disabledBy(u *model.Universe, s *model.State) model.Footprint {
	if !mayStart(u, s, r.event) {
		return gatedBy(u, s, r.event, false)
	}
	var f model.Footprint
	switch vars(u, s, r.event)[0] {
	case riseWaiting:
		f = quietDisabledBy(s)
	case riseBody:
		f.AddPods()
		f.AddDeployments()
	}
	f.AddEvent(r.event)
	return f
}
