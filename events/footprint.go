package events

import "github.com/kivi-go/kivi/model"

// Footprints for partial-order reduction (model.Footprinter).
//
// Every event is gated by the init phase, so one that may not move yet is
// disabled by the phase alone. The user commands get exact footprints;
// the other events (CPU changes and patterns, kernel panic, maintenance,
// node failure) read and write everything, short of a closer analysis.

var (
	_ model.Footprinter = CreateTargetDeployment{}
	_ model.Footprinter = CreateDeployment{}
	_ model.Footprinter = ApplyDeployment{}
	_ model.Footprinter = ScaleDeployment{}
	_ model.Footprinter = RolloutRestart{}
	_ model.Footprinter = RolloutUndo{}
	_ model.Footprinter = RolloutPause{}
	_ model.Footprinter = RolloutResume{}
	_ model.Footprinter = Init{}
	_ model.Footprinter = CPUChange{}
	_ model.Footprinter = CPUPattern{}
	_ model.Footprinter = KernelPanic{}
	_ model.Footprinter = Maintenance{}
	_ model.Footprinter = NodeFailure{}
	_ model.Footprinter = DeleteNode{}
)

// slotFootprint is what every step of event i reads and writes for its
// gating: the init phase and its own memory, and for a First-slot event
// the memory of every First event and the phase it may advance
// (afterStep).
func slotFootprint(u *model.Universe, i int) (reads, writes model.Footprint) {
	reads.Add(model.CompInit)
	reads.AddEvent(i)
	writes.AddEvent(i)
	if slotOf(&u.Events[i]) == model.First {
		reads.AddEvents()
		writes.Add(model.CompInit)
	}
	return reads, writes
}

// gatedBy is DisabledBy for event i: the init phase when the slot keeps it
// waiting, else its own memory (a finished command, or whatever
// memory-only guard), else everything.
func gatedBy(u *model.Universe, s *model.State, i int, ownMemoryOnly bool) model.Footprint {
	var f model.Footprint
	if !mayMove(slotOf(&u.Events[i]), s) {
		f.Add(model.CompInit)
		return f
	}
	if !mayStart(u, s, i) {
		// Waiting for a First event written before it (FirstInOrder).
		f.Add(model.CompInit)
		f.AddEvents()
		return f
	}
	if ownMemoryOnly {
		f.AddEvent(i)
		return f
	}
	return model.AllComponents()
}

// commandFootprint covers a user command: its gating, every deployment
// (name lookups, the deployment it writes), the deployment queue it feeds
// and the assertion kubectl create can fail.
func commandFootprint(u *model.Universe, i int) (reads, writes model.Footprint) {
	reads, writes = slotFootprint(u, i)
	reads.AddDeployments()
	writes.AddDeployments()
	reads.Add(model.CompActive)
	writes.Add(model.CompActive)
	reads.AddQueue(model.DeploymentQueue)
	writes.AddQueue(model.DeploymentQueue)
	writes.Add(model.CompFailed)
	return reads, writes
}

func (c command) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	return commandFootprint(u, c.event)
}

func (c command) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return commandFootprint(u, c.event)
}

// DisabledBy: the phase, or its own memory once it has run.
func (c command) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	return gatedBy(u, s, c.event, true)
}

// StaticFootprint: the target command only flips the target's Active flag
// and queues it.
func (c CreateTargetDeployment) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	reads, writes = slotFootprint(u, c.event)
	reads.Add(model.CompActive)
	writes.Add(model.CompActive)
	reads.AddQueue(model.DeploymentQueue)
	writes.AddQueue(model.DeploymentQueue)
	return reads, writes
}

func (c CreateTargetDeployment) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return c.StaticFootprint(u)
}

// quietDisabledBy is what keeps a guard that waits for ControllerAndHPAQueuesEmpty false: the
// first busy queue (everything if none is: the guard waits for more).
// atRest is the gate of the steps that come only while the cluster is at
// rest (a CPU pattern's next step, a Job pod completing, a CronJob
// firing): the main phase and quiescence.
func atRest(s *model.State) bool {
	return s.Init >= model.InitMain && s.ControllerAndHPAQueuesEmpty()
}

// atRestDisabledBy is DisabledBy of such a step: the phase, then
// quiescence, then rest, what the rest of its guard reads.
func atRestDisabledBy(s *model.State, rest model.Footprint) model.Footprint {
	switch {
	case s.Init < model.InitMain:
		var f model.Footprint
		f.Add(model.CompInit)
		return f
	case !s.ControllerAndHPAQueuesEmpty():
		return quietDisabledBy(s)
	}
	return rest
}

func quietDisabledBy(s *model.State) model.Footprint {
	for q := model.Queue(0); q < model.NumQueues; q++ {
		if q != model.TaintManagerQueue && !s.Empty(q) {
			return model.QueueFootprint(q)
		}
	}
	return model.AllComponents()
}

// StaticFootprint: the phase and the queues of quiescence.
func (Init) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	reads.Add(model.CompInit)
	reads.AddQueues()
	if u.HasReadiness() {
		reads.AddPods() // the pods' readiness (model.AnyReadinessPending)
	}
	writes.Add(model.CompInit)
	return reads, writes
}

func (i Init) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return i.StaticFootprint(u)
}

// DisabledBy: the phase, a busy queue, a pod whose readiness is pending
// (model.ReadinessPendingFootprint of the first), or nothing (no
// after-stable event: never enabled).
func (Init) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	var f model.Footprint
	switch {
	case !hasAfterStable(u):
	case s.Init != model.InitMain:
		f.Add(model.CompInit)
	case s.ControllerAndHPAQueuesEmpty():
		if i := model.FirstReadinessPending(u, s); i >= 0 {
			return model.ReadinessPendingFootprint(s, i)
		}
		return quietDisabledBy(s)
	default:
		return quietDisabledBy(s)
	}
	return f
}

// unanalysed supplies the footprints of an event nobody has analysed
// closely yet: any of its steps may read and write everything.
type unanalysed struct{}

func (unanalysed) StaticFootprint(*model.Universe) (reads, writes model.Footprint) {
	return model.AllComponents(), model.AllComponents()
}

func (unanalysed) StepFootprint(*model.Universe, *model.State) (reads, writes model.Footprint) {
	return model.AllComponents(), model.AllComponents()
}

// DisabledBy is usageRise's.
func (c CPUChange) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	return c.disabledBy(u, s)
}

// DisabledBy: the pattern waits for the main phase, then for quiescence,
// then for a pattern step that is due (read conservatively: anything).
func (CPUPattern) DisabledBy(_ *model.Universe, s *model.State) model.Footprint {
	return atRestDisabledBy(s, model.AllComponents())
}

func (k KernelPanic) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	return gatedBy(u, s, k.event, false)
}

func (m Maintenance) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	return gatedBy(u, s, m.event, false)
}

// DisabledBy: the phase, or its own memory (a finished failure).
func (f NodeFailure) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	return gatedBy(u, s, f.event, true)
}

// DisabledBy: the phase, or anything (a drain first waits for the
// evictions its budgets allow and for the node's pods to go).
func (d DeleteNode) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	return gatedBy(u, s, d.event, !u.Events[d.event].DrainFirst)
}

var _ model.Footprinter = Drain{}

// drainFootprint covers every step of drain event i: its gating; the pods
// and deployments the Eviction API reads (every pod a budget selects,
// the deployments' spec.replicas) and the pod queues that tell tied pods
// apart; the drained nodes it cordons and whose
// pods it evicts; the kubelet and deployment queues an eviction feeds
// (read for their de-duplication); the marks of its evictions; every
// queue when a timeout makes a retry wait for quiescence; the
// descheduler's trigger on a cordon change; under Kubernetes' lifecycle the
// scheduling queue the waiting pods go back to on a cordon change.
func drainFootprint(u *model.Universe, i int) (reads, writes model.Footprint) {
	reads, writes = slotFootprint(u, i)
	e := &u.Events[i]
	reads.AddPods()
	reads.AddDeployments()
	// The evictions a budget lets through branch over the tied pods,
	// whose groups the pod queues split (model.Tx.ChoosePods).
	reads.Union(model.TiesFootprint())
	for _, n := range e.Nodes {
		writes.AddNode(n)
	}
	for _, q := range []model.Queue{model.KubeletQueue, model.DeploymentQueue} {
		reads.AddQueue(q)
		writes.AddQueue(q)
	}
	if !u.Options.KiviLifecycle {
		// A cordon or an uncordon moves the waiting pods (the pool's) to
		// the scheduling queue (model.NodeUpdated).
		reads.AddQueue(model.SchedulerQueue)
		writes.AddQueue(model.SchedulerQueue)
	}
	writes.Add(model.CompMarks)
	if e.Drain.TimeoutRetries > 0 {
		reads.AddQueues()
	}
	if u.Descheduler != nil {
		// A cordon or an uncordon requests a descheduler cycle
		// (model.RequestDeschedulerCycle), whose effect depends on
		// whether one is pending.
		reads.Add(model.CompDeschedulerPending)
		writes.Add(model.CompDeschedulerPending)
	}
	return reads, writes
}

func (d Drain) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	return drainFootprint(u, d.event)
}

func (d Drain) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return drainFootprint(u, d.event)
}

// DisabledBy: the phase while the slot keeps the drain waiting; then what
// its guard reads (its memory, the pods and budgets, the queues of a
// retry).
func (d Drain) DisabledBy(u *model.Universe, s *model.State) model.Footprint {
	if !mayStart(u, s, d.event) {
		return gatedBy(u, s, d.event, false)
	}
	reads, _ := drainFootprint(u, d.event)
	return reads
}
