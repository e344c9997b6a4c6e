package events

import "github.com/kivi-go/kivi/model"

// CPUChange is eventCpuChange(D): once the cluster is quiescent, one pod
// of deployment D's current ReplicaSet gets 1..MaxDelta times DeltaUnit
// more CPU usage (usageRise). Every (pod, Δ) pair is a branch.
type CPUChange struct {
	usageRise
	unanalysed
}

var (
	_ model.Process    = CPUChange{}
	_ model.EndChecker = CPUChange{}
)

func (CPUChange) Name() string { return "eventCpuChange" }

func (c CPUChange) Enabled(u *model.Universe, s *model.State) bool { return c.enabled(u, s) }

// Step is either the guard step (no trace, as in Kivi) or the body.
func (c CPUChange) Step(tx *model.Tx, s *model.State) { c.step(tx, s, changeCPU) }

// ValidEnd: waiting in the body for a member to exist is not an end
// location (Kivi's invalid end state).
func (c CPUChange) ValidEnd(u *model.Universe, s *model.State) bool { return c.validEnd(u, s) }

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
