package events

import "github.com/kivi-go/kivi/model"

// Program counter of one node's kernel-panic watcher (the first of its
// two bytes of event memory; the second counts its panics).
const (
	panicIdle    uint8 = iota // loop head
	panicCrash                // panic guard passed
	panicRecover              // recover guard passed
)

// panicLimit is the panic count that fails no_kernel_panic (Kivi's
// LOOP_TIMES = 3).
const panicLimit = 3

// KernelPanic is kernelPanic(i) for every node i, as one
// process whose sub-actors are the nodes' watchers. A node whose free CPU
// falls to 2 % or less of its capacity crashes (Unhealthy, reported to
// the node controller); once its load is gone it recovers. Each
// alternative is a guard step followed by a body that does not re-check
// the guard.
type KernelPanic struct {
	event  int
	assert bool
	unanalysed
}

var _ model.Process = KernelPanic{}

func (KernelPanic) Name() string { return "kernelPanic" }

func (k KernelPanic) Enabled(u *model.Universe, s *model.State) bool {
	if !mayStart(u, s, k.event) {
		return false
	}
	var buf [32]int64
	used := loadOnNodes(u, s, buf[:0])
	return anyEnabled(len(s.Nodes), func(n int) bool { return k.watcherEnabled(u, s, n, used) })
}

// Step lets one enabled watcher move; the choice ranges over the enabled
// watchers in node order.
func (k KernelPanic) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	var buf [32]int64
	used := loadOnNodes(u, s, buf[:0])
	if n := chooseEnabledNode(tx, len(s.Nodes), func(n int) bool { return k.watcherEnabled(u, s, n, used) }); n >= 0 {
		k.watcherStep(tx, s, n)
	}
}

// loadOnNodes is every node's load (model.Universe.UsedCPUOnNodes) but
// for the pods that stay Terminating on a node that is not Ready
// (model.KeepsTerminatingPod): their containers run no more, and they go
// only once the node is Ready again, so a crashed node whose pods were
// all evicted recovers.
func loadOnNodes(u *model.Universe, s *model.State, buf []int64) []int64 {
	used := u.UsedCPUOnNodes(s, buf)
	for i := range s.Pods {
		if p := &s.Pods[i]; model.KeepsTerminatingPod(u, s, p) {
			used[p.Node-1] -= int64(p.CPU)
		}
	}
	return used
}

// watcherEnabled reports whether node n's watcher may move, given the
// nodes' loads (loadOnNodes), summed once for all the
// nodes: summing per node would cost nodes × pods per step.
func (k KernelPanic) watcherEnabled(u *model.Universe, s *model.State, n int, used []int64) bool {
	switch vars(u, s, k.event)[2*n] {
	case panicIdle:
		// The free CPU in percent of the capacity, with Go's division,
		// which truncates toward zero like Promela's.
		free := (u.Nodes[n].CPU - used[n]) * 100 / u.Nodes[n].CPU
		switch s.Nodes[n].Status.Health() {
		case model.Ready:
			return free <= 2
		case model.Unhealthy:
			return free > 2
		}
		return false
	case panicCrash, panicRecover:
		return true
	}
	return false
}

func (k KernelPanic) watcherStep(tx *model.Tx, s *model.State, n int) {
	u := tx.U
	m := vars(u, s, k.event)
	pc, times := &m[2*n], &m[2*n+1]
	name := u.Nodes[n].Name
	switch *pc {
	case panicIdle:
		// Guard step: the statuses of the two guards exclude each other.
		if s.Nodes[n].Status == model.Ready {
			*pc = panicCrash
		} else {
			*pc = panicRecover
		}
	case panicCrash:
		*pc = panicIdle
		reached := *times >= panicLimit
		if k.assert {
			*times = min(*times+1, panicLimit)
		}
		if tx.Tracing() {
			if k.assert {
				tx.Log(NodeComponent, "Node %s: kernel panic (%d so far)", name, *times)
			} else {
				// The count is not kept without the assertion.
				tx.Log(NodeComponent, "Node %s: kernel panic", name)
			}
		}
		model.SetNodeStatus(u, s, n, model.Unhealthy)
		s.Enqueue(model.NodeControllerQueue, n)
		if k.assert && *times >= panicLimit && !reached {
			if tx.Tracing() {
				tx.Log("no_kernel_panic", "Kernel panic happened %d times on node %s", *times, name)
			}
			if !u.Options.ContinueAfterViolation || u.Options.KiviLifecycle {
				s.Fail(model.FailKernelPanic, n)
			}
			// Otherwise the run goes on (every intent settled): the
			// count kept in the node's memory is the violation
			// (PanicLimitReached), so a monitor firing in this same
			// step is recorded too.
			return
		}
	case panicRecover:
		*pc = panicIdle
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s recovered from its kernel panic", name)
		}
		model.SetNodeReady(tx, s, n)
	}
}
