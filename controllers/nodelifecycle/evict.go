package nodelifecycle

import "github.com/kivi-go/kivi/model"

// evict asks for the deletion of pod p on behalf of a controller other
// than its owner (model.State.RequestDeletion): the pod becomes
// Terminating (remembering whether it had started, so it still counts as
// a started replica until removed), the kubelet will remove it, the
// owner's ReplicaSet is queued to replace it, and the step is marked as
// an eviction of the owner's pods. The pod carries the DisruptionTarget
// condition (reason DeletionByTaintManager).
func evict(tx *model.Tx, s *model.State, p int) {
	// DeletionByTaintManager.
	model.AddDisruptionTarget(tx.U, s, p)
	if d := s.RequestDeletion(p); d >= 0 {
		tx.Mark(model.MarkEvicted(d))
	}
}
