package kubelet

import "github.com/kivi-go/kivi/model"

// evictedReason is the reason and message of a pod the eviction manager's
// admission rejects (eviction.Reason and nodeConditionMessageFmt).
const evictedReason = "Evicted (The node had condition: [MemoryPressure])"

// rejectedUnderPressure is the eviction manager's admission
// (managerImpl.Admit), the kubelet's first admit handler: while node n
// has the MemoryPressure condition, a BestEffort pod is rejected unless
// it is critical or tolerates the memory-pressure taint; every other pod
// is admitted.
func rejectedUnderPressure(s *model.State, n int, t *model.PodTemplate) bool {
	return s.Nodes[n].MemoryPressure && t.BestEffort() && !t.KubeletCritical() && !t.ToleratesMemoryPressure()
}
