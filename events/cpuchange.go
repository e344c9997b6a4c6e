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

// Step is either the guard step (no trace, as in Kivi) or the body. In a
// universe where nothing reads the pods' CPU usage
// (model.Universe.ReadsCPUUsage) the body does not branch over the pod
// and the amount, nor write the usage: every branch would lead to states
// that differ in that field alone, whose futures no step tells apart.
func (c CPUChange) Step(tx *model.Tx, s *model.State) {
	if !tx.U.ReadsCPUUsage && vars(tx.U, s, c.event)[0] == riseBody {
		c.unreadRise(tx, s)
		return
	}
	c.step(tx, s, changeCPU)
}

// unreadRise is the body where nothing reads the usage: the rise wakes
// the HPA controller for the deployment as changeCPU does (its HPA, if
// any, reads no CPU metric), and is traced as not followed.
func (c CPUChange) unreadRise(tx *model.Tx, s *model.State) {
	u := tx.U
	e := &u.Events[c.event]
	if u.HasHPA {
		s.EnqueueHPA(u, e.Deployment)
	}
	if tx.Tracing() {
		tx.Log(WorkloadComponent, "CPU usage of a pod of %s %s rises; nothing in this cluster reads it (no HorizontalPodAutoscaler has a CPU metric and no kernelPanic event watches the nodes' load), so the amount is not followed",
			u.KindWord(e.Deployment, false), u.Deployments[e.Deployment].Name)
	}
	vars(u, s, c.event)[0] = riseDone
	afterStep(u, s, c.event)
}

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
