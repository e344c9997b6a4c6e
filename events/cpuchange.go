package events

import "github.com/kivi-go/kivi/model"

// Program counter of eventCpuChange (one byte of event memory).
const (
	cpuChangeWaiting uint8 = iota // before the guard step
	cpuChangeBody                 // guard passed, waiting for a started member
	cpuChangeDone
)

// CPUChange is eventCpuChange(D): once the cluster is
// quiescent, one pod of deployment D's current ReplicaSet gets 1..MaxDelta
// times DeltaUnit more CPU usage. Every (pod, Δ) pair is a branch.
type CPUChange struct {
	event int
	unanalysed
}

var (
	_ model.Process    = CPUChange{}
	_ model.EndChecker = CPUChange{}
)

func (CPUChange) Name() string { return "eventCpuChange" }

func (c CPUChange) Enabled(u *model.Universe, s *model.State) bool {
	e := &u.Events[c.event]
	if !mayStart(u, s, c.event) {
		return false
	}
	switch vars(u, s, c.event)[0] {
	case cpuChangeWaiting:
		return s.ControllerAndHPAQueuesEmpty()
	case cpuChangeBody:
		return startedCount(s, e.Deployment) > 0
	}
	return false
}

// Step is either the guard step (no trace, as in Kivi) or the body, which
// does not re-check the guard.
func (c CPUChange) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	e := &u.Events[c.event]
	pc := &vars(u, s, c.event)[0]
	switch *pc {
	case cpuChangeWaiting:
		*pc = cpuChangeBody
	case cpuChangeBody:
		p := startedMember(s, e.Deployment, tx.Choose(startedCount(s, e.Deployment)))
		delta := int64(1+tx.Choose(e.MaxDelta)) * int64(max(e.DeltaUnit, 1))
		changeCPU(tx, s, p, delta)
		*pc = cpuChangeDone
	}
	afterStep(u, s, c.event)
}

// ValidEnd: waiting in the body for a member to exist is not an end
// location (Kivi's invalid end state).
func (c CPUChange) ValidEnd(u *model.Universe, s *model.State) bool {
	e := &u.Events[c.event]
	if !mayStart(u, s, c.event) || vars(u, s, c.event)[0] != cpuChangeBody {
		return true
	}
	return startedCount(s, e.Deployment) > 0
}

// startedMembers tells the started members of a deployment's current
// ReplicaSet (Running, or Terminating after running): the entries of
// Kivi's replica-set list, whose length is rs.replicas. Its fields are
// read once for a scan of the pod slots.
type startedMembers struct {
	owner, cur uint8
	none       bool // the deployment's index does not fit a pod's Owner
}

func startedOf(s *model.State, d int) startedMembers {
	return startedMembers{owner: uint8(d + 1), cur: s.Deps[d].Cur, none: d+1 > 255}
}

func (m startedMembers) has(p *model.PodState) bool {
	return p.Owner == m.owner && p.RS == m.cur && p.Node != 0 &&
		(p.Phase == model.Running || (p.Phase == model.Terminating && p.WasRunning))
}

// startedCount counts the started members of d's current ReplicaSet.
func startedCount(s *model.State, d int) int {
	m := startedOf(s, d)
	if m.none {
		return 0
	}
	n := 0
	for i := range s.Pods {
		if m.has(&s.Pods[i]) {
			n++
		}
	}
	return n
}

// startedMember returns the slot of the k-th started member, in ascending
// slot order.
func startedMember(s *model.State, d, k int) int {
	m := startedOf(s, d)
	if m.none {
		return -1
	}
	for i := range s.Pods {
		if m.has(&s.Pods[i]) {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return -1
}
