package nodelifecycle

import "github.com/kivi-go/kivi/model"

// evict asks for the deletion of pod p on behalf of a controller other
// than its owner: the pod becomes Terminating (remembering whether it had
// started, so it still counts as a started replica until removed), the
// kubelet will remove it, and the step is marked as an eviction of the
// owner's pods.
func evict(tx *model.Tx, s *model.State, p int) {
	pod := &s.Pods[p]
	pod.WasRunning = pod.Phase == model.Running
	pod.Phase = model.Terminating
	s.Enqueue(model.KubeletQueue, p)
	if pod.Owner != 0 {
		tx.Mark(model.MarkEvicted(int(pod.Owner) - 1))
	}
}
