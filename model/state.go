package model

import (
	"fmt"
	"slices"
)

// PodState is one pod slot. A Free slot is all zero.
type PodState struct {
	Phase Phase
	// WasRunning marks a Terminating pod that had been Running: it is still
	// a member of its ReplicaSet until the kubelet removes it, unless it
	// stayed on a node that was not Ready (requeueKeptPods clears it).
	WasRunning bool
	// Owner is the owning deployment as index+1; 0 = a bare pod.
	Owner uint8
	// RS is which of the owner's two ReplicaSet slots the pod belongs to.
	RS uint8
	// Template is the pod template index.
	Template uint8
	// Pattern is the next entry of the template's CPU pattern to apply.
	Pattern uint8
	// Node is the node the pod is bound to, as index+1; 0 = unbound.
	Node uint16
	// NominatedNode is status.nominatedNodeName as index+1 (0 = none):
	// the node a preemption made room on for the pod
	// (controllers/scheduler, nominated.go). Only a Pending, unbound pod
	// carries one: binding and deletion clear it, as the scheduler's
	// nominator forgets a pod once it is assigned or deleted.
	NominatedNode uint16
	// Ordinal is a StatefulSet pod's ordinal + 1 (its identity:
	// `<set>-<ordinal>`, statefulset.go); 0 for every other pod.
	Ordinal uint8
	// Readiness is a Running pod's Ready condition and availability
	// (readiness.go); PodAvailable, the zero value, for every pod whose
	// template delays neither.
	Readiness Readiness
	// Failure is what a Job's podFailurePolicy reads of the pod once it
	// fails (podfailurepolicy.go): its DisruptionTarget condition and
	// whether its containers ran. Zero for every pod of a Job without a
	// podFailurePolicy and of any other owner, so other universes encode
	// as without it.
	Failure PodFailureFacts
	// Restarts is how often the pod's containers restarted (OOM kills the
	// kubelet restarted in place, and those of a pod placed by the input),
	// saturated at Universe.RestartCap: the count RemovePodsHavingTooManyRestarts
	// reads, or whether the pod restarted where only that matters. Zero
	// in every universe where nothing reads them (TracksRestarts), so
	// they encode as without it.
	Restarts uint8
	// The padding after Restarts stays zero (a blank field is zeroed by
	// every composite literal and never written), so a pod's bytes are
	// its fields' (layout.go compares pods as memory).
	_ [2]byte
	// CPU and Memory are the pod's current usage (not its request).
	CPU, Memory int32
}

// NodeOf returns the node index of a bound pod, or -1.
func (p *PodState) NodeOf() int { return int(p.Node) - 1 }

// Active reports whether the pod counts towards its ReplicaSet's active
// pods (Pending or Running, not terminating): Kubernetes'
// controller.FilterActivePods.
func (p *PodState) Active() bool { return p.Phase == Pending || p.Phase == Running }

// NodeState is the dynamic part of a node.
type NodeState struct {
	Status NodeStatus
	// Cordoned is spec.unschedulable, set by a drain (cordon.go); false
	// in every model without one.
	Cordoned bool
	// MemoryPressure is the node's MemoryPressure condition and the
	// node.kubernetes.io/memory-pressure:NoSchedule taint that comes with
	// it (memorypressure.go); false in every model without an
	// eventMemoryChange.
	MemoryPressure bool
	// Reclaiming says that the node's kubelet evicted for memory and
	// has not yet reclaimed evictionMinimumReclaim beyond the threshold
	// (kubeletconfig.go); false in every model without a minimum reclaim.
	Reclaiming bool
}

// ReplicaSetState is one of a deployment's two ReplicaSet slots. Its
// members are derived from the pod slots (Owner and RS).
type ReplicaSetState struct {
	// Template is the pod template index + 1; 0 = the slot is unused.
	Template uint8
	// Replicas is the ReplicaSet's spec.replicas.
	Replicas int16
}

// DeploymentState is the dynamic part of a deployment.
type DeploymentState struct {
	Active bool
	// Replicas is spec.replicas (written by the HPA and user commands).
	Replicas int16
	// Config indexes Universe.Configs.
	Config uint8
	// HPA is Universe.HPAs index + 1; 0 = no HPA.
	HPA uint8
	// Cur is the current ReplicaSet slot (the one matching the template).
	Cur uint8
	RS  [2]ReplicaSetState
	// HPAWindow, HPASeen and HPAHeld are the HPA's downscale
	// stabilisation memory. They stay zero unless the deployment's HPA has
	// ScaleDownStabilizationSyncs W > 0; then HPAWindow[0..W] are used.
	// HPAWindow[k] is the highest recommendation made k sync periods ago,
	// or 0 when it is not above every newer one: such a recommendation
	// leaves the window no earlier than a newer, at least as high one, so
	// it can never decide the maximum again, and zeroing it keeps states
	// with equal futures equal.
	HPAWindow [MaxStabilizationSyncs + 1]int16
	// HPASeen: the HPA has evaluated the deployment once (Kubernetes
	// seeds its memory with the current replica count at the first sync,
	// and never again).
	HPASeen bool
	// HPAHeld: at its last evaluation the HPA's recommendation was below
	// the window's maximum (Kubernetes' ScaleDownStabilized condition),
	// so a later sync can still change the replica count as the window
	// moves on. Under an HPA with behavior: the last evaluation's outcome
	// was held back by the remembered recommendations or scale events
	// (a stabilisation window or a rate policy).
	HPAHeld bool
	// HPAMemory is the encoded HPAMemory of an HPA with behavior
	// (hpabehavior.go); "" when it remembers nothing and under every
	// other HPA. A string, so that copies of the state share it safely.
	HPAMemory string
	// DesiredReplicas and MaxReplicas hold the deployment.kubernetes.io
	// desired-replicas and max-replicas annotations of the ReplicaSets,
	// stored canonically: read them with Annotations, write them with
	// SetAnnotations (replicasannotations.go). Both stay zero while the
	// deployment is not rolling out.
	DesiredReplicas int16
	MaxReplicas     [2]int16
	// NewRSOlder: the current ReplicaSet was created before the other
	// slot's (a rollback made an older set current again). Upstream orders
	// equal-sized sets by creation time when it scales them in proportion.
	// False while the other slot holds no set.
	NewRSOlder bool
	// QuotaRefused is the template (index+1) of the pod whose creation a
	// ResourceQuota refused at the workload's last sync, 0 when none: its
	// controller retries the workload once the quota would admit that pod
	// (resourcequota.go).
	QuotaRefused uint8
	// JobSucceeded is a Job's status.succeeded, JobFailed the failed pods
	// it counted that are no longer in their slots (model.CountJob adds
	// the failed pods still present), JobFinished its finished
	// condition (job.go). All zero for the other kinds.
	JobSucceeded, JobFailed int16
	JobFinished             JobCondition
	// JobIndexes is an Indexed Job's per-index status, one byte per
	// completion index (JobIndexState, indexedjob.go); "" while every
	// index is pending without a counted failure, and for every other
	// workload.
	JobIndexes string
	// LastAppliedOmitsReplicas: the configuration `kubectl apply` saved
	// last leaves spec.replicas out, or none was saved (lastapplied.go).
	// Only the states of universes that track it set it.
	LastAppliedOmitsReplicas bool
	// Paused is the Deployment's spec.paused (paused.go): its controller
	// creates no ReplicaSet and rolls nothing out, and only scales the
	// sets it has. Only the states of universes where some Deployment may
	// be paused carry it.
	Paused bool
	// LastAppliedSetsPaused: the configuration `kubectl apply` saved
	// last sets spec.paused, so an apply of a file that leaves it out
	// deletes it (paused.go). Carried with Paused.
	LastAppliedSetsPaused bool
}

// MaxStabilizationSyncs bounds HPA.ScaleDownStabilizationSyncs: each
// sync period of the window is one recommendation per deployment in the
// state.
const MaxStabilizationSyncs = 4

// WindowSlots is the number of HPAWindow entries the states of u carry:
// 1 + the largest ScaleDownStabilizationSyncs of u's HPAs, or 0 when no
// HPA has a window (the states of such models carry no window at all).
func WindowSlots(u *Universe) int {
	if u.compiled {
		return u.windowSlots
	}
	return windowSlots(u)
}

func windowSlots(u *Universe) int {
	w := -1
	for i := range u.HPAs {
		w = max(w, u.HPAs[i].ScaleDownStabilizationSyncs)
	}
	if w <= 0 {
		return 0
	}
	return w + 1
}

// Init phases of the init process (Kivi's start-up sequence).
const (
	// InitFirst: commands of the First slot run before anything else.
	InitFirst uint8 = iota
	// InitMain: controllers and Main events run; after-stable events wait
	// for the first quiescent state.
	InitMain
	// InitStable: after-stable events have started.
	InitStable
)

// Atomic sequence owners (State.Atomic).
const (
	// AtomicScheduler: the scheduler is draining its queue.
	AtomicScheduler uint8 = 1
)

// AtomicProcess is implemented by processes that run atomic sequences:
// while State.Atomic equals AtomicID(), only that process is enabled.
type AtomicProcess interface {
	AtomicID() uint8
}

// Failure codes recorded in State.Failed when a step hits an assertion.
// A failed state has no successors.
type Failure uint8

const (
	NoFailure Failure = iota
	// FailNoFeasibleNode: the scheduler found no node (pod_always_schedulable).
	FailNoFeasibleNode
	// FailKernelPanic: a node panicked three times (no_kernel_panic).
	FailKernelPanic
	// FailDeploymentExists: kubectl create of an existing deployment.
	FailDeploymentExists
	// FailMonitor: an intent monitor fired; FailedArg names the monitor.
	FailMonitor
	// FailInternal: a model consistency assertion (FailedArg says which).
	FailInternal
	// FailBound: a step needed more of a finite table of the model than
	// it has (FailedArg is the Bound). The state stands for clusters the
	// model cannot represent, so it has no successors and the run's
	// verdicts are Unknown rather than Holds.
	FailBound
)

func (f Failure) String() string {
	switch f {
	case NoFailure:
		return "none"
	case FailNoFeasibleNode:
		return "no feasible node"
	case FailKernelPanic:
		return "kernel panic"
	case FailDeploymentExists:
		return "deployment exists"
	case FailMonitor:
		return "intent monitor"
	case FailInternal:
		return "internal assertion"
	case FailBound:
		return "model bound"
	}
	return fmt.Sprintf("Failure(%d)", uint8(f))
}

// Bound names a finite table of the model that a step can exhaust.
type Bound uint8

const (
	// BoundPodSlots: the ReplicaSet controller creates a pod and every
	// pod slot is taken.
	BoundPodSlots Bound = iota + 1
	// BoundDeploymentObjects: kubectl apply or create of a new
	// deployment finds no deployment object free.
	BoundDeploymentObjects
	// BoundPreemptionOrders: a preemption's dry run on one node would
	// take more steps than the scheduler allows to find every outcome of
	// the orders of equal-priority victims (controllers/scheduler,
	// preemption.go: maxReprieveStates).
	BoundPreemptionOrders
	// BoundHPAScaleEvents: an HPA with behavior rescales while it
	// remembers MaxHPAScaleEvents scale events of that direction, none of
	// them outdated (controllers/hpa, behavior.go: StoreScaleEvent).
	BoundHPAScaleEvents
	// BoundCronJobRuns: a CronJob with concurrencyPolicy Allow fires
	// while each of its MaxCronJobRuns runs is active (cronjob.go).
	BoundCronJobRuns
	// BoundStatefulSetOrdinals: a StatefulSet needs a pod of an ordinal
	// above MaxOrdinal.
	BoundStatefulSetOrdinals
	// BoundReplicaSetRevisions: a Deployment's pod template changes while
	// it has two ReplicaSets and the older one still has replicas or
	// active pods, so Kubernetes would keep a third ReplicaSet; the model keeps
	// two per Deployment (Options.MergeOldRevisions rolls the older ones
	// out as one instead).
	BoundReplicaSetRevisions
)

func (b Bound) String() string {
	switch b {
	case BoundPodSlots:
		return "pod slots"
	case BoundDeploymentObjects:
		return "deployment objects"
	case BoundPreemptionOrders:
		return "preemption victim orders"
	case BoundHPAScaleEvents:
		return "HPA scale events"
	case BoundCronJobRuns:
		return "concurrent CronJob runs"
	case BoundStatefulSetOrdinals:
		return "StatefulSet ordinals"
	case BoundReplicaSetRevisions:
		return "ReplicaSet revisions"
	}
	return fmt.Sprintf("Bound(%d)", uint8(b))
}

// ReachBound records that the step needed more of bound b than the
// model has (FailBound).
func (s *State) ReachBound(b Bound) { s.Fail(FailBound, int(b)) }

// State is the dynamic part of one cluster state: everything a future step
// can read, and nothing else.
type State struct {
	Nodes []NodeState
	Pods  []PodState
	Deps  []DeploymentState
	// Queues hold the pending items of each work queue in FIFO order, each
	// id at most once (Kubernetes work-queue de-duplication). Items are
	// pod, deployment or node indices.
	Queues [NumQueues][]uint16
	// DeschedulerPending is the descheduler's trigger: any kubelet start or
	// delete sets it, and so does a change of a node the descheduler reads
	// (RequestDeschedulerCycle); a descheduling cycle clears it. (Kivi
	// queues deployment ids but ignores their value.)
	DeschedulerPending bool
	// Init is the init process phase (InitFirst, InitMain, InitStable).
	Init uint8
	// Atomic names the process in the middle of an atomic sequence
	// (AtomicScheduler, ...; 0 = none): only that process may move until
	// it clears it. It lets a drain that branches at every item (the
	// scheduler exploring every tied node) take one item per step, so
	// that equal intermediate states are shared instead of enumerating
	// every combination of choices inside one step.
	Atomic uint8
	// EventVars is the memory of the event processes (layout in
	// Universe.Events[i].VarOffset).
	EventVars []uint8
	// Monitors is the memory of the intent monitors (layout owned by the
	// intents that the System was built with).
	Monitors []uint8
	// Failed records an assertion failure; FailedArg qualifies it (the
	// node, pod or monitor concerned).
	Failed    Failure
	FailedArg uint16

	// decoded records what the state was last decoded from, and origin
	// the state it was derived from (encoding.go: incremental encoding).
	decoded decodeRecord
	origin  *State
}

// NewState returns the all-empty state for u: nodes Ready, every pod slot
// Free, deployments inactive, queues empty.
func NewState(u *Universe, monitors int) *State {
	s := &State{
		Nodes:     make([]NodeState, len(u.Nodes)),
		Pods:      make([]PodState, u.PodSlots),
		Deps:      make([]DeploymentState, len(u.Deployments)),
		EventVars: make([]uint8, u.NumEventVars),
		Monitors:  make([]uint8, monitors),
	}
	for i := range s.Nodes {
		s.Nodes[i].Status = Ready
	}
	return s
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := &State{}
	s.CopyTo(c)
	return c
}

// CopyTo overwrites dst with s, reusing dst's slices when they are large
// enough (successor generation reuses one scratch State per worker).
func (s *State) CopyTo(dst *State) { s.CopyToFrom(dst, 0) }

// CopyToFrom is CopyTo but for the first skip pods, which dst gets room
// for but whose contents it keeps (a permutation writes them next).
func (s *State) CopyToFrom(dst *State, skip int) {
	dst.origin = nil
	dst.Nodes = append(dst.Nodes[:0], s.Nodes...)
	if skip = min(skip, len(s.Pods)); cap(dst.Pods) >= len(s.Pods) {
		dst.Pods = dst.Pods[:len(s.Pods)]
		copy(dst.Pods[skip:], s.Pods[skip:])
	} else {
		dst.Pods = append(dst.Pods[:0], s.Pods...)
	}
	dst.Deps = append(dst.Deps[:0], s.Deps...)
	for q := range s.Queues {
		if src := s.Queues[q]; len(src) > 0 {
			dst.Queues[q] = append(dst.Queues[q][:0], src...)
		} else {
			dst.Queues[q] = dst.Queues[q][:0] // most queues are empty: no copy call
		}
	}
	dst.DeschedulerPending = s.DeschedulerPending
	dst.Init = s.Init
	dst.Atomic = s.Atomic
	dst.EventVars = append(dst.EventVars[:0], s.EventVars...)
	dst.Monitors = append(dst.Monitors[:0], s.Monitors...)
	dst.Failed = s.Failed
	dst.FailedArg = s.FailedArg
}

// Enqueue appends id to queue q unless it is already pending.
func (s *State) Enqueue(q Queue, id int) {
	for _, x := range s.Queues[q] {
		if int(x) == id {
			return
		}
	}
	s.Queues[q] = append(s.Queues[q], uint16(id))
}

// PodQueues returns the queues of pod slots.
func PodQueues() [3]Queue { return [3]Queue{SchedulerQueue, KubeletQueue, TaintManagerQueue} }

// ForgetPod frees pod slot i once its pod object is deleted, and drops it
// from the pod queues (PodQueues): the informers behind them drop a
// deleted pod (the taint-eviction controller cancels its work for it),
// and a stale id would otherwise name whatever pod takes the slot next,
// which also makes that free slot unlike the others. The kubelet queue
// keeps the order in which the owners first appear in it
// (dropKubeletItem).
func (s *State) ForgetPod(i int) {
	owner := s.Pods[i].Owner
	s.Pods[i] = PodState{}
	for _, q := range [...]Queue{SchedulerQueue, TaintManagerQueue} {
		s.Queues[q] = slices.DeleteFunc(s.Queues[q], func(x uint16) bool { return int(x) == i })
	}
	s.dropKubeletItem(i, owner)
}

// dropKubeletItem removes pod slot i, of owner owner, from the kubelet
// queue without changing the order in which the owners first appear
// there: when i is its owner's first item and a later item of that owner
// is queued, that item takes i's place. The kubelet wakes the owners'
// controllers in that order (controllers/kubelet, wakeups.go), and the
// symmetry reduction treats the items of one owner as a set
// (reduction/symmetry, kubeletqueue.go): were the next owner to move
// ahead where i was its owner's first item but not where another item of
// that owner came first, the wake-up order would depend on the order of
// one owner's items, which pod slots decide.
func (s *State) dropKubeletItem(i int, owner uint8) {
	q := s.Queues[KubeletQueue]
	at := slices.Index(q, uint16(i))
	if at < 0 {
		return
	}
	first := true
	for _, x := range q[:at] {
		if int(x) < len(s.Pods) && s.Pods[x].Owner == owner {
			first = false
			break
		}
	}
	if first {
		for j := at + 1; j < len(q); j++ {
			if x := q[j]; int(x) < len(s.Pods) && s.Pods[x].Owner == owner && int(x) != i {
				q[at] = x
				s.Queues[KubeletQueue] = slices.Delete(q, j, j+1)
				return
			}
		}
	}
	s.Queues[KubeletQueue] = slices.Delete(q, at, at+1)
}

// Dequeue removes and returns the head of queue q; ok is false when empty.
func (s *State) Dequeue(q Queue) (id int, ok bool) {
	items := s.Queues[q]
	if len(items) == 0 {
		return 0, false
	}
	id = int(items[0])
	// Shift in place: queues are a handful of items, and keeping the
	// backing array at index 0 keeps Clone cheap.
	copy(items, items[1:])
	s.Queues[q] = items[:len(items)-1]
	return id, true
}

// Empty reports whether queue q has no pending item.
func (s *State) Empty(q Queue) bool { return len(s.Queues[q]) == 0 }

// ControllerQueuesEmpty reports whether the node-controller, scheduler,
// kubelet and deployment work queues are empty (Kivi's Q4-empty). The HPA
// and the descheduler wait for it.
func (s *State) ControllerQueuesEmpty() bool {
	return len(s.Queues[NodeControllerQueue]) == 0 && len(s.Queues[SchedulerQueue]) == 0 &&
		len(s.Queues[KubeletQueue]) == 0 && len(s.Queues[DeploymentQueue]) == 0
}

// ControllerAndHPAQueuesEmpty reports whether the HPA queue is empty too
// (Kivi's Q5-empty). Quiescence-gated events wait for it.
func (s *State) ControllerAndHPAQueuesEmpty() bool {
	return s.ControllerQueuesEmpty() && len(s.Queues[HPAQueue]) == 0
}

// Fail records an assertion failure (the first one wins).
func (s *State) Fail(f Failure, arg int) {
	if s.Failed == NoFailure {
		s.Failed = f
		s.FailedArg = uint16(arg)
	}
}

// MarkTerminating deletes active pod p as the API server does: it turns
// Terminating (remembering whether it was running, so it still counts
// as a started replica until the kubelet removes it), loses its
// nomination (an unbound pod is deleted at once), and goes to the kubelet.
// The controller that deletes its own pod calls it; others use
// RequestDeletion.
func (s *State) MarkTerminating(p int) {
	pod := &s.Pods[p]
	pod.WasRunning = pod.Phase == Running
	pod.Phase = Terminating
	pod.NominatedNode = 0
	// A pod with a deletion timestamp is counted by no controller that
	// reads readiness (FilterActivePods, countHealthyPods, groupPods); the
	// replica-count intents read whether it was Ready (Counts), not for
	// how long.
	if pod.Readiness == PodReadyNotAvailable {
		pod.Readiness = PodAvailable
	}
	s.Enqueue(KubeletQueue, p)
}

// RequestDeletion marks pod p Terminating and hands it to the kubelet, as
// an eviction or a delete through the API does, and queues the owning
// deployment: the pod is no longer active, and its ReplicaSet replaces it
// at once (upstream's updatePod on a deletion timestamp). It returns the
// owning deployment (index, or -1 for a bare pod). Pods that are not
// active are left alone (returns -1). Controllers other than the owner's
// use it to evict.
func (s *State) RequestDeletion(p int) int {
	pod := &s.Pods[p]
	if pod.Phase != Pending && pod.Phase != Running {
		return -1
	}
	s.MarkTerminating(p)
	d := int(pod.Owner) - 1
	if d >= 0 {
		s.Enqueue(DeploymentQueue, d)
	}
	return d
}
