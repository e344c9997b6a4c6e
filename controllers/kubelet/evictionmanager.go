package kubelet

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// EvictionManager is the kubelets' eviction manager for memory
// (pkg/kubelet/eviction, v1.36), one process for the kubelets of every
// node. A node whose allocatableMemory.available falls below the hard
// eviction threshold (model.UnderMemoryPressure) reports the
// MemoryPressure condition, which the node lifecycle controller turns into
// the node.kubernetes.io/memory-pressure:NoSchedule taint (one bit of
// state, model.NodeState.MemoryPressure), and its kubelet evicts one pod
// per housekeeping cycle (synchronize returns after the first eviction)
// for as long as the threshold is met: the first of its running pods in
// rankMemoryPressure's order. The condition stays for the pressure
// transition period (evictionPressureTransitionPeriod, 5 min) after the
// last observation of pressure; the model has no clock, so that period
// passes at quiescence, where the model lets time pass, and the taint
// goes with the condition.
//
// It is composed only in universes with an eventMemoryChange
// (model.Universe.HasMemoryChange): without one no pod's usage exceeds
// its request, so no node the scheduler and the kubelet's admission
// filled is ever under pressure.
type EvictionManager struct{}

// NewEvictionManager returns the eviction manager process.
func NewEvictionManager() *EvictionManager { return &EvictionManager{} }

// Name is the process name.
func (*EvictionManager) Name() string { return "EvictionManager" }

// Enabled: some node's kubelet has something to do: a Ready node under
// pressure that has not reported it yet or has a pod to evict, or a node
// with the condition whose pressure is gone (or whose kubelet stopped
// reporting) once the cluster is quiet.
func (*EvictionManager) Enabled(u *model.Universe, s *model.State) bool {
	if !u.HasMemoryChange() {
		return false
	}
	for n := range u.Nodes {
		if nodeWork(u, s, n) != noPressureWork {
			return true
		}
	}
	return false
}

// pressureWork is what a node's kubelet does about memory pressure.
type pressureWork uint8

const (
	noPressureWork pressureWork = iota
	// reportPressure: a threshold is met and the condition not yet
	// reported, but no pod may go yet (a soft threshold's grace period
	// runs, or every pod is critical).
	reportPressure
	// evictForPressure: report the condition if not yet reported, and
	// evict a pod.
	evictForPressure
	// resolved: the thresholds an eviction left unresolved are now
	// evictionMinimumReclaim above their values.
	resolved
	// clearPressure: the transition period has passed without pressure.
	clearPressure
)

// nodeWork decides node n's work in s. A hard threshold evicts at once;
// a soft one once its evictionSoftGracePeriod has passed, which in the
// model is at quiescence, where it lets time pass (the threshold met ever
// since: memory usage only grows while the node runs the pods).
func nodeWork(u *model.Universe, s *model.State, n int) pressureWork {
	st := s.Nodes[n]
	ready := st.Status.Health() == model.Ready
	hard, soft := u.MemoryThresholdsMet(s, n)
	if ready && (hard || soft) {
		if (hard || s.ControllerAndHPAQueuesEmpty()) && len(evictionCandidates(u, s, n)) > 0 {
			return evictForPressure
		}
		if !st.MemoryPressure {
			return reportPressure
		}
		return noPressureWork
	}
	if st.Reclaiming && !hard && !soft {
		return resolved
	}
	if st.MemoryPressure && s.ControllerAndHPAQueuesEmpty() {
		return clearPressure
	}
	return noPressureWork
}

// Step takes one node's housekeeping cycle, a choice among the nodes that
// have work (each node's kubelet runs on its own).
func (*EvictionManager) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	var nodes []int
	for n := range u.Nodes {
		if nodeWork(u, s, n) != noPressureWork {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 0 {
		return
	}
	n := nodes[tx.Choose(len(nodes))]
	switch w := nodeWork(u, s, n); w {
	case reportPressure, evictForPressure:
		if !s.Nodes[n].MemoryPressure {
			model.SetMemoryPressure(u, s, n, true)
			if tx.Tracing() {
				tx.Log(Component, "Node %s has condition MemoryPressure: allocatableMemory.available %dMi is below the eviction threshold %s; the node lifecycle controller taints it %s:NoSchedule",
					u.Nodes[n].Name, u.MemoryAvailable(s, n), thresholdMet(u, s, n), model.TaintNodeMemoryPressure)
			}
		}
		if w == reportPressure {
			if hard, _ := u.MemoryThresholdsMet(s, n); hard && tx.Tracing() {
				tx.Log(Component, "Node %s: no pod to evict for memory (critical pods are not evicted)", u.Nodes[n].Name)
			} else if tx.Tracing() {
				tx.Log(Component, "Node %s: the soft eviction threshold's grace period runs", u.Nodes[n].Name)
			}
			return
		}
		threshold := thresholdMet(u, s, n)
		ranked := evictionCandidates(u, s, n)
		p := tx.ChoosePods(s, tiedFirst(u, s, ranked), 1)[0]
		evictForMemory(tx, s, p, n, threshold)
		// The threshold is met until the signal is evictionMinimumReclaim
		// above it (thresholdsMet with enforceMinReclaim).
		s.Nodes[n].Reclaiming = u.Nodes[n].Eviction.MinimumReclaim > 0
	case resolved:
		s.Nodes[n].Reclaiming = false
		if tx.Tracing() {
			tx.Log(Component, "Node %s: allocatableMemory.available %dMi has reclaimed the minimum reclaim", u.Nodes[n].Name, u.MemoryAvailable(s, n))
		}
	case clearPressure:
		model.SetMemoryPressure(u, s, n, false)
		if tx.Tracing() {
			tx.Log(Component, "Node %s no longer has condition MemoryPressure (allocatableMemory.available %dMi) after the pressure transition period; the node lifecycle controller removes the %s taint",
				u.Nodes[n].Name, u.MemoryAvailable(s, n), model.TaintNodeMemoryPressure)
		}
	}
}

// thresholdMet names the threshold node n's kubelet acts on, for traces:
// the hard one when it is met, else the soft one.
func thresholdMet(u *model.Universe, s *model.State, n int) string {
	if hard, _ := u.MemoryThresholdsMet(s, n); hard || u.Nodes[n].Eviction.Soft == 0 {
		return fmt.Sprintf("%dMi", u.EvictionThresholdMi(n))
	}
	return fmt.Sprintf("%dMi (soft, its grace period passed)", u.SoftThresholdMi(n))
}

// evictionCandidates are the pods node n's eviction manager may evict,
// ranked: its Running pods but the critical ones (evictPod refuses
// those), in rankMemoryPressure's order. A terminating pod is already
// being killed: its memory is freed when the kubelet removes it.
func evictionCandidates(u *model.Universe, s *model.State, n int) []int {
	var out []int
	for i := range s.Pods {
		p := &s.Pods[i]
		if int(p.Node) != n+1 || p.Phase != model.Running || u.Templates[p.Template].KubeletCritical() {
			continue
		}
		out = append(out, i)
	}
	slices.SortStableFunc(out, func(a, b int) int { return rankMemoryPressure(u, s, a, b) })
	return out
}

// rankMemoryPressure is upstream's order (helpers.go rankMemoryPressure:
// orderedBy(exceedMemoryRequests, priority, memory)): first the pods
// whose usage exceeds their memory request, then the lower priority, then
// the larger usage above the request. Upstream breaks the remaining ties
// by the active pods' order under an unstable sort, so the pods it leaves
// tied are a choice (tiedFirst).
func rankMemoryPressure(u *model.Universe, s *model.State, a, b int) int {
	pa, pb := &s.Pods[a], &s.Pods[b]
	ta, tb := &u.Templates[pa.Template], &u.Templates[pb.Template]
	overA, overB := int64(pa.Memory)-ta.Memory, int64(pb.Memory)-tb.Memory
	if c := cmp.Compare(boolRank(overB > 0), boolRank(overA > 0)); c != 0 {
		return c
	}
	if c := cmp.Compare(ta.Priority, tb.Priority); c != 0 {
		return c
	}
	return cmp.Compare(overB, overA)
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tiedFirst returns the leading pods of ranked that the ranking does not
// tell apart.
func tiedFirst(u *model.Universe, s *model.State, ranked []int) []int {
	k := 1
	for k < len(ranked) && rankMemoryPressure(u, s, ranked[0], ranked[k]) == 0 {
		k++
	}
	return ranked[:k]
}

// evictForMemory evicts pod p from node n: the pod is killed at once
// (upstream gives it 1 s for a hard threshold, its own grace period up to
// evictionMaxPodGracePeriod for a soft one) and fails (failEvictedPod);
// its controller replaces it, the scheduler sees it gone (its informer lists
// no terminal pod) and retries the pods waiting for room.
func evictForMemory(tx *model.Tx, s *model.State, p, n int, threshold string) {
	u := tx.U
	pod := &s.Pods[p]
	t := &u.Templates[pod.Template]
	usage, available := int64(pod.Memory), u.MemoryAvailable(s, n)
	// The DisruptionTarget condition (reason TerminationByKubelet), which
	// a Job's podFailurePolicy reads.
	model.AddDisruptionTarget(u, s, p)
	failEvictedPod(u, pod)
	d := int(pod.Owner) - 1
	if d >= 0 {
		tx.Mark(model.MarkEvicted(d))
		s.Enqueue(model.DeploymentQueue, d)
		if u.HasHPA {
			s.EnqueueHPA(u, d)
		}
	}
	model.RequestDeschedulerCycle(u, s)
	model.AssignedPodDeleted(u, s)
	if tx.Tracing() {
		tx.Log(Component, "Evicted pod %s from node %s: The node was low on resource: memory. Threshold quantity: %s, available: %dMi. The pod was using %dMi, request is %dMi; the pod is Failed (Evicted)",
			s.PodRef(p), u.Nodes[n].Name, threshold, available, usage, t.Memory)
	}
}

var _ model.Footprinter = (*EvictionManager)(nil)

// StaticFootprint: everything (it reads every pod's usage and the queues'
// quiescence, and writes pods, nodes and the queues it wakes).
func (*EvictionManager) StaticFootprint(*model.Universe) (reads, writes model.Footprint) {
	return model.AllComponents(), model.AllComponents()
}

// StepFootprint is the static footprint.
func (m *EvictionManager) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return m.StaticFootprint(u)
}

// DisabledBy: a pod's usage or phase, a node's status or condition, or
// the queues (quiescence) may enable it; a universe without an
// eventMemoryChange never.
func (*EvictionManager) DisabledBy(u *model.Universe, _ *model.State) model.Footprint {
	if !u.HasMemoryChange() {
		return model.Footprint{}
	}
	return model.AllComponents()
}
