package scheduler

import (
	"github.com/kivi-go/kivi/model"
)

// Scheduler is the kube-scheduler process. The zero value is ready to use;
// it holds no model state. Its scratch cycles keep what they derived from
// a universe (keyed by its address), so a universe must not change once
// the scheduler has stepped one of its states, as model.Universe is
// static. A value returned by New steps on one goroutine at a time; the
// engine gives each of its goroutines its own (ForWorker), and the zero
// value, which keeps no scratch, is safe on any number.
type Scheduler struct {
	// cycles recycles the scratch cycles of Step across steps: a cycle's
	// buffers are as large as the universe, and its decision memo is
	// worth keeping for the whole search. Nil in the zero value: each
	// step then allocates its own.
	cycles *cyclePool
	// EveryNode filters and scores every node in each scheduling cycle,
	// even where the state's symmetry makes the nodes of an orbit alike
	// (orbitshortcut.go): the reference the shortcut is tested against.
	EveryNode bool
}

// New returns the scheduler process.
func New() Scheduler {
	return Scheduler{cycles: &cyclePool{}}
}

// cyclePool keeps idle cycles for the next steps of one goroutine (the
// engine gives each of its goroutines its own scheduler, ForWorker). Not
// a sync.Pool: that drops its items at every garbage collection, and
// with them the decision memos, which a search's allocation of stored
// states triggers several times a run (C8 at 20 nodes answered 18 530
// questions from scratch for 3 724 distinct ones).
type cyclePool struct {
	idle []*cycle
}

var _ model.WorkerLocal = Scheduler{}

// ForWorker returns a scheduler with its own scratch cycles and decision
// memo, for one goroutine (model.WorkerLocal). A Scheduler is not safe
// for concurrent steps.
func (sch Scheduler) ForWorker() model.Process {
	w := New()
	w.EveryNode = sch.EveryNode
	return w
}

// getCycle returns a scratch cycle for one step; putCycle hands it back.
func (sch Scheduler) getCycle() *cycle {
	p := sch.cycles
	if p == nil {
		return new(cycle)
	}
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return c
	}
	return new(cycle)
}

func (sch Scheduler) putCycle(c *cycle) {
	p := sch.cycles
	if p == nil {
		return
	}
	// Drop the reference to the step's state. The universe stays
	// referenced by the plan and the decision memo while the scheduler
	// lives: the next step most likely runs on it.
	c.s = nil
	p.idle = append(p.idle, c)
}

// Component is the scheduler's name in trace lines.
const Component = "kube-scheduler"

func (Scheduler) Name() string { return "Scheduler" }

// Enabled: the scheduling queue holds a pod.
func (Scheduler) Enabled(u *model.Universe, s *model.State) bool {
	return !s.Empty(model.SchedulerQueue)
}

// AtomicID marks the scheduler's drain as an atomic sequence.
func (Scheduler) AtomicID() uint8 { return model.AtomicScheduler }

// Step drains the scheduling queue. A pod that is no longer Pending, or is
// already bound, is dropped; every other pod gets one scheduling cycle.
// A pod without a feasible node fails the state (Kivi's
// pod_always_schedulable assertion): the step ends there, and so does the
// run under Kivi's lifecycle, while under Kubernetes' the pod waits and
// the run goes on (unschedulable.go); except while some pod is
// terminating (waiting.go), when it waits for the removal unfailed.
//
// When ties branch (model.BranchOnTies), a step schedules one pod and, if
// more wait, keeps the drain atomic through s.Atomic: nothing else moves
// until the queue is empty, exactly as in one drain, but the placements of
// successive pods are explored through shared intermediate states rather
// than as every combination of choices inside one step (k pods with t tied
// nodes each would otherwise give t^k transitions from one state).
func (sch Scheduler) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	var c *cycle // taken from the pool when a cycle must run
	onePod := u.Options.TieBreak == model.BranchOnTies
	defer func() {
		if c != nil {
			sch.putCycle(c)
		}
		s.Atomic = 0
		if drainGoesOn(u, s, onePod) {
			s.Atomic = model.AtomicScheduler
		}
	}()
	for !s.Empty(model.SchedulerQueue) {
		p := popNext(tx, s)
		pod := &s.Pods[p]
		if pod.Phase != model.Pending || pod.Node != 0 {
			continue
		}
		top, known := tx.Recall()
		if !known {
			if c == nil {
				c = sch.getCycle()
			}
			// The profile is made only here: the other runs of the step
			// recall the cycle's outcome, and copying the plugins showed
			// in profiles.
			pr := defaultProfile()
			// Nodes of one orbit are alike for the pod (orbitshortcut.go):
			// the step has changed nothing of the nodes yet, as it takes
			// one pod. EveryNode evaluates them all.
			if onePod && !sch.EveryNode {
				c.orbits = tx.NodeOrbitLabels()
			}
			top = c.hosts(&pr, u, s, p)
			c.orbits = nil
			tx.Remember(top)
		}
		n, ok := pickHost(tx, u, top)
		if !ok && u.HasPriorities() {
			// PostFilter runs whether or not pods are terminating
			// (upstream's cycle does not look): a preemption may take
			// victims while others are on their way out.
			switch out, msg := sch.preempt(tx, s, p); out {
			case preempted:
				if onePod {
					return
				}
				continue
			case preemptWaits:
				if tx.Tracing() {
					tx.Log(Component, "Pod %s cannot be scheduled yet: %s preemption: "+notEligibleTerminatingReason, s.PodRef(p), unavailableMsg(u, s, p))
				}
				if onePod {
					return
				}
				continue
			default:
				if s.Failed == model.NoFailure && waitsForTermination(u, s) {
					if tx.Tracing() {
						tx.Log(Component, "Pod %s cannot be scheduled yet, it waits for a terminating pod to be removed: %s preemption: %s", s.PodRef(p), unavailableMsg(u, s, p), msg)
					}
					if onePod {
						return
					}
					continue
				}
				if tx.Tracing() {
					tx.Log(Component, "Pod %s cannot be scheduled: %s preemption: %s", s.PodRef(p), unavailableMsg(u, s, p), msg)
				}
				s.Fail(model.FailNoFeasibleNode, p)
				return
			}
		}
		if !ok && waitsForTermination(u, s) {
			if tx.Tracing() {
				tx.Log(Component, "Pod %s cannot be scheduled yet, it waits for a terminating pod to be removed: %s", s.PodRef(p), unavailable(u, s, p))
			}
			if onePod {
				return
			}
			continue
		}
		if !ok {
			if tx.Tracing() {
				tx.Log(Component, "Pod %s cannot be scheduled: %s", s.PodRef(p), unavailable(u, s, p))
			}
			s.Fail(model.FailNoFeasibleNode, p)
			return
		}
		pod.Node, pod.NominatedNode = uint16(n+1), 0
		s.Enqueue(model.KubeletQueue, p)
		model.AssignedPodAdded(u, s, p)
		if tx.Tracing() {
			tx.Log(Component, "Scheduled pod %s on node %s", s.PodRef(p), u.Nodes[n].Name)
		}
		if pod.Owner != 0 && u.HasHPA {
			s.EnqueueHPA(u, int(pod.Owner)-1)
		}
		if onePod {
			return
		}
	}
}

// pickHost picks the host among the top-scoring feasible nodes of a
// scheduling cycle, ties broken as u.Options.TieBreak says. It reports
// false when no node is feasible. A cycle's outcome is a function of the
// step's state, which is the same in every run of the step: Step
// computes it once (model.Tx.Recall) and each run picks its tied node.
func pickHost(tx *model.Tx, u *model.Universe, top []int) (int, bool) {
	if len(top) == 0 {
		return 0, false
	}
	if u.Options.TieBreak == model.BranchOnTies {
		// One branch per orbit of interchangeable nodes when the checker
		// stores states up to symmetry.
		return tx.ChooseNode(top), true
	}
	return top[0], true
}
