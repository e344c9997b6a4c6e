package model

import (
	"slices"
	"strings"
)

// Footprint is a set of state components: what a step may read or write.
// Partial-order reduction (reduction/por) uses footprints to
// decide which steps commute: two steps are independent when neither
// writes what the other reads or writes. Components are coarse on purpose
// (a whole queue, a node with every pod bound to it, a deployment's
// state): an over-approximation only costs reduction, an
// under-approximation would cost soundness.
//
// Layout: word 0 holds the global components (bits 0-15) and the event
// memories (bits 16-63, one per event); word 1 one bit per deployment;
// words 2-3 one bit per node; word 4 one bit per deployment for the
// readiness (PodState.Readiness) of its pods. A universe with more nodes,
// deployments or events than bits shares them: node n has bit n mod 128,
// deployment d bit d mod 64 (its readiness too), event e bit e mod 48.
// Two components sharing a bit look like one, which over-approximates
// (steps on different nodes of one bit seem dependent) and so costs only
// reduction. A node's component covers
// its status and every field of the pods bound to it, readiness included
// (AddNode adds every readiness bit), and the out-of-service taint an
// event puts on it (nodeloss.go: the byte is in the event's memory); the readiness bits let a step that
// changes only the readiness of one owner's pods (the kubelet's
// readiness steps) say so, and a reader of one owner's pods
// (AddOwnerPods) read only that owner's readiness.
type Footprint [5]uint64

// Global components of a Footprint.
const (
	// CompQueue0 is the first queue; queue q is CompQueue0 + q.
	CompQueue0 = iota
	_
	_
	_
	_
	_
	// CompInit is State.Init, the start-up phase (it gates every
	// controller).
	CompInit
	// CompAtomic is State.Atomic.
	CompAtomic
	// CompDeschedulerPending is State.DeschedulerPending.
	CompDeschedulerPending
	// CompFailed is State.Failed and FailedArg: what every invariant reads.
	CompFailed
	// CompMonitors is State.Monitors, the intent monitors' memory.
	CompMonitors
	// CompPodPool is every pod slot not bound to a node: Free slots and
	// unbound Pending or Terminating pods. A pod bound to node n belongs
	// to node n's component.
	CompPodPool
	// CompMarks stands for the step's action marks (Tx.Marks): a step that
	// may mark writes it, cycle properties read it.
	CompMarks
	// CompActive is every DeploymentState.Active flag: which deployments
	// exist (what kubectl commands look up by name). The rest of a
	// deployment's state is its own per-deployment component.
	CompActive
	numGlobalComps
)

// The bits the per-index components use. A component of every node
// (deployment, owner's readiness, event) sets exactly the bits its
// single ones do, so that it is their union: with fewer bits than
// components (a large universe, or the kivi_narrowfootprint build), a
// footprint that names every owner's readiness one by one is still a
// superset of one that names them all at once.
const (
	depBits       = uint64(1<<footprintDeps - 1)
	readinessBits = depBits
	nodeLoBits    = uint64(1<<min(footprintNodes, 64) - 1)
	nodeHiBits    = uint64(1<<max(footprintNodes-64, 0) - 1)
	eventBits     = uint64(1<<footprintEvents-1) << 16
)

// AllComponents is the footprint of a step that may touch anything.
func AllComponents() Footprint {
	return Footprint{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
}

// Add adds a global component; the pool (CompPodPool) with the readiness
// of its pods, every owner's bit.
func (f *Footprint) Add(c int) {
	f[0] |= 1 << c
	if c == CompPodPool {
		f[4] |= readinessBits
	}
}

// AddQueue adds queue q.
func (f *Footprint) AddQueue(q Queue) { f[0] |= 1 << (CompQueue0 + int(q)) }

// AddEvent adds the memory of event e.
func (f *Footprint) AddEvent(e int) { f[0] |= 1 << (16 + e%footprintEvents) }

// AddEvents adds the memory of every event.
func (f *Footprint) AddEvents() { f[0] |= eventBits }

// AddDeployment adds deployment d's state.
func (f *Footprint) AddDeployment(d int) { f[1] |= 1 << (d % footprintDeps) }

// AddDeployments adds every deployment's state except the Active flags
// (CompActive).
func (f *Footprint) AddDeployments() { f[1] |= depBits }

// AddNode adds node n: its status and every pod bound to it, their
// readiness included (every owner's readiness bit: the component does not
// say whose pods are bound where).
func (f *Footprint) AddNode(n int) {
	f.AddNodeWithoutReadiness(n)
	f[4] |= readinessBits
}

// AddNodes adds every node.
func (f *Footprint) AddNodes() {
	f.addEveryNode()
	f[4] |= readinessBits
}

// addEveryNode adds every node's bits, not their pods' readiness.
func (f *Footprint) addEveryNode() { f[2], f[3] = f[2]|nodeLoBits, f[3]|nodeHiBits }

// AddNodeWithoutReadiness adds node n but not the readiness of its pods:
// its status and the other fields of the pods bound to it.
func (f *Footprint) AddNodeWithoutReadiness(n int) {
	n %= footprintNodes
	f[2+n/64] |= 1 << (n % 64)
}

// AddPodsWithoutReadiness adds every pod slot but not the pods'
// readiness: every node's status and the other fields of its pods, and
// the pool.
func (f *Footprint) AddPodsWithoutReadiness() {
	f.addEveryNode()
	f[0] |= 1 << CompPodPool
}

// AddReadiness adds the readiness of the pods whose PodState.Owner is
// owner (index+1); a bare pod's (owner 0) is every owner's bit.
func (f *Footprint) AddReadiness(owner int) {
	if owner <= 0 {
		f[4] |= readinessBits
		return
	}
	f[4] |= 1 << ((owner - 1) % footprintDeps)
}

// AddOwnerPods adds what a reader of one owner's pods (PodState.Owner,
// index+1) reads: every node and the pool (where its pods are and what
// they are), and that owner's readiness alone.
func (f *Footprint) AddOwnerPods(owner int) {
	f.addEveryNode()
	f[0] |= 1 << CompPodPool
	f.AddReadiness(owner)
}

// AddPods adds every pod slot: every node and the pool.
func (f *Footprint) AddPods() {
	f.AddNodes()
	f.Add(CompPodPool)
}

// AddPod adds the component pod slot i belongs to in s.
func (f *Footprint) AddPod(s *State, i int) {
	p := &s.Pods[i]
	if p.Phase != Free && p.Node != 0 {
		f.AddNode(int(p.Node) - 1)
		return
	}
	f.Add(CompPodPool)
}

// addPodWithoutReadiness is AddPod without the readiness bits a bound
// pod's node adds.
func (f *Footprint) addPodWithoutReadiness(s *State, i int) {
	p := &s.Pods[i]
	if p.Phase != Free && p.Node != 0 {
		f.AddNodeWithoutReadiness(int(p.Node) - 1)
		return
	}
	f[0] |= 1 << CompPodPool
}

// SetReadiness replaces the readiness components of f by o's.
func (f *Footprint) SetReadiness(o Footprint) { f[4] = o[4] }

// Union adds every component of o.
func (f *Footprint) Union(o Footprint) {
	for i := range f {
		f[i] |= o[i]
	}
}

// Intersects reports whether f and o share a component.
func (f Footprint) Intersects(o Footprint) bool {
	return f[0]&o[0] != 0 || f[1]&o[1] != 0 || f[2]&o[2] != 0 || f[3]&o[3] != 0 || f[4]&o[4] != 0
}

// Has reports whether global component c is in f.
func (f Footprint) Has(c int) bool { return f[0]&(1<<c) != 0 }

// Empty reports whether f has no component.
func (f Footprint) Empty() bool { return f == Footprint{} }

// Footprinter is implemented by processes that declare their footprints,
// which partial-order reduction needs; a process that does not is assumed
// to read and write everything (and so never commutes with anything).
//
// Every answer must over-approximate: a component a step reads or writes
// but the footprint omits makes the reduction unsound. Reads include what
// Enabled reads. Package compose adds the gate and atomic-section reads
// of every actor and the effect of the intent monitors itself.
type Footprinter interface {
	// StaticFootprint covers every step of the process in every state.
	StaticFootprint(u *Universe) (reads, writes Footprint)
	// StepFootprint covers every choice of the step from s, where the
	// process is enabled. While no other process writes one of its reads,
	// the step stays enabled with the same effect.
	StepFootprint(u *Universe, s *State) (reads, writes Footprint)
	// DisabledBy, for s where the process is disabled, returns components
	// that keep it disabled: while none of them changes, it stays
	// disabled.
	DisabledBy(u *Universe, s *State) Footprint
}

// AddQueues adds every queue.
func (f *Footprint) AddQueues() {
	for q := Queue(0); q < NumQueues; q++ {
		f.AddQueue(q)
	}
}

// ClusterFootprint is what a control-plane controller may touch, short of
// knowing better: every node and pod slot, every deployment, every queue,
// the descheduler trigger, failures and action marks, but not the init
// phase, the atomic section, event or monitor memory (controllers read
// none of those; package compose adds the gate and atomic reads).
func ClusterFootprint() Footprint {
	var f Footprint
	f.AddPods()
	f.AddDeployments()
	f.Add(CompActive)
	f.AddQueues()
	f.Add(CompDeschedulerPending)
	f.Add(CompFailed)
	f.Add(CompMarks)
	return f
}

// ClusterWide supplies the footprints of a controller that may touch the
// whole cluster (ClusterFootprint) whatever the state: a controller
// embeds it and adds its own DisabledBy.
type ClusterWide struct{}

// StaticFootprint is ClusterFootprint for reads and writes.
func (ClusterWide) StaticFootprint(*Universe) (reads, writes Footprint) {
	f := ClusterFootprint()
	return f, f
}

// StepFootprint is ClusterFootprint for reads and writes.
func (ClusterWide) StepFootprint(*Universe, *State) (reads, writes Footprint) {
	f := ClusterFootprint()
	return f, f
}

// QueueFootprint is the footprint of queue q alone (a disabled
// controller's DisabledBy when its queue is empty).
func QueueFootprint(q Queue) Footprint {
	var f Footprint
	f.AddQueue(q)
	return f
}

// ControllerQueuesDisabledBy is DisabledBy for a guard that waits for ControllerQueuesEmpty: the
// first of its queues that is not empty (it stays non-empty until written).
// It returns false when ControllerQueuesEmpty holds.
func ControllerQueuesDisabledBy(s *State) (Footprint, bool) {
	for _, q := range [...]Queue{NodeControllerQueue, SchedulerQueue, KubeletQueue, DeploymentQueue} {
		if !s.Empty(q) {
			return QueueFootprint(q), true
		}
	}
	return Footprint{}, false
}

// Changed returns the components in which s and t differ (tests check
// declared footprints against it).
func Changed(u *Universe, s, t *State) Footprint {
	var f Footprint
	for n := range min(len(s.Nodes), len(t.Nodes)) {
		if s.Nodes[n] != t.Nodes[n] {
			f.AddNode(n)
		}
	}
	for i := range min(len(s.Pods), len(t.Pods)) {
		a, b := s.Pods[i], t.Pods[i]
		if a.Readiness != b.Readiness {
			f.AddReadiness(int(a.Owner))
			f.AddReadiness(int(b.Owner))
		}
		a.Readiness, b.Readiness = 0, 0
		if a != b {
			f.addPodWithoutReadiness(s, i)
			f.addPodWithoutReadiness(t, i)
		}
	}
	for d := range min(len(s.Deps), len(t.Deps)) {
		a, b := s.Deps[d], t.Deps[d]
		if a.Active != b.Active {
			f.Add(CompActive)
		}
		a.Active, b.Active = false, false
		if a != b {
			f.AddDeployment(d)
		}
	}
	for q := Queue(0); q < NumQueues; q++ {
		if !slices.Equal(s.Queues[q], t.Queues[q]) {
			f.AddQueue(q)
		}
	}
	if s.Init != t.Init {
		f.Add(CompInit)
	}
	if s.Atomic != t.Atomic {
		f.Add(CompAtomic)
	}
	if s.DeschedulerPending != t.DeschedulerPending {
		f.Add(CompDeschedulerPending)
	}
	if s.Failed != t.Failed || s.FailedArg != t.FailedArg {
		f.Add(CompFailed)
	}
	if string(s.Monitors) != string(t.Monitors) {
		f.Add(CompMonitors)
	}
	for e := range u.Events {
		ev := &u.Events[e]
		lo, hi := ev.VarOffset, ev.VarOffset+ev.VarLen
		if hi <= len(s.EventVars) && hi <= len(t.EventVars) && string(s.EventVars[lo:hi]) != string(t.EventVars[lo:hi]) {
			f.AddEvent(e)
		}
	}
	u.addOutOfServiceChanged(&f, s, t)
	return f
}

// Subset reports whether every component of f is in o.
func (f Footprint) Subset(o Footprint) bool {
	return f[0]&^o[0] == 0 && f[1]&^o[1] == 0 && f[2]&^o[2] == 0 && f[3]&^o[3] == 0 && f[4]&^o[4] == 0
}

// DescribeFootprint names f's components in u's words, for people
// ("queue scheduler", "node worker-1", "deployment web", …). A bit that
// several nodes, deployments or events share (a large universe) names
// all of them.
func DescribeFootprint(u *Universe, f Footprint) string {
	var parts []string
	for q := Queue(0); q < NumQueues; q++ {
		if f.Has(CompQueue0 + int(q)) {
			parts = append(parts, "queue "+q.String())
		}
	}
	for _, g := range []struct {
		c    int
		name string
	}{{CompInit, "the start-up phase"}, {CompAtomic, "the atomic section"}, {CompDeschedulerPending, "the descheduler's trigger"},
		{CompFailed, "the failure flag"}, {CompMonitors, "the intents' monitors"}, {CompPodPool, "the unbound pods and free slots"},
		{CompMarks, "the action marks"}, {CompActive, "which deployments exist"}} {
		if f.Has(g.c) {
			parts = append(parts, g.name)
		}
	}
	some := func(kind string, n, bits int, has func(bit int) bool, name func(i int) string) {
		var names []string
		for i := range n {
			if has(i % bits) {
				names = append(names, name(i))
			}
		}
		switch {
		case len(names) == 0:
		case len(names) == n && n > 1:
			parts = append(parts, "every "+kind)
		default:
			parts = append(parts, kind+" "+strings.Join(names, ", "))
		}
	}
	some("event memory", len(u.Events), footprintEvents, func(b int) bool { return f[0]&(1<<(16+b)) != 0 },
		func(i int) string { return u.Events[i].Kind.String() })
	some("deployment", len(u.Deployments), footprintDeps, func(b int) bool { return f[1]&(1<<b) != 0 },
		func(i int) string { return u.Deployments[i].Name })
	some("node (with its pods)", len(u.Nodes), footprintNodes, func(b int) bool { return f[2+b/64]&(1<<(b%64)) != 0 },
		func(i int) string { return u.Nodes[i].Name })
	some("readiness of the pods of", len(u.Deployments), footprintDeps, func(b int) bool { return f[4]&(1<<b) != 0 },
		func(i int) string { return u.Deployments[i].Name })
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}
