package deployment

import "github.com/kivi-go/kivi/model"

// manageReplicas is the ReplicaSet controller's manageReplicas for slot rs
// of deployment d: it creates the missing pods or deletes the surplus so
// that the set's active (Pending or Running) pods equal its spec
// replicas. Creation and deletion are immediate in the model, so the
// controller's expectations are always met.
func manageReplicas(tx *model.Tx, s *model.State, d, rs int) {
	set := &s.Deps[d].RS[rs]
	if set.Template == 0 {
		return
	}
	diff := model.RSCounts(s, d, rs).Active() - int(set.Replicas)
	switch {
	case diff < 0:
		createPods(tx, s, d, rs, -diff)
	case diff > 0:
		deletePods(tx, s, d, rs, diff)
	}
}

// createPods creates n pods of slot rs, each in the lowest free pod slot.
// Kubernetes' slow-start batches (1, 2, 4, …) all succeed in the model, so
// they add up to n creations in one step. With no free slot the model
// cannot represent the cluster any more (the API server would create the
// pod): the state records the bound (model.BoundPodSlots), has no
// successors, and the run's verdicts become Unknown instead of exploring
// a cluster that lacks pods.
func createPods(tx *model.Tx, s *model.State, d, rs, n int) {
	u := tx.U
	if tx.Tracing() {
		tx.Log(Component, "Too few replicas, need to create %d", n)
	}
	tmpl := int(s.Deps[d].RS[rs].Template) - 1
	t := &u.Templates[tmpl]
	for range n {
		j := model.FreeSlot(s)
		if j < 0 {
			if tx.Tracing() {
				tx.Log(Component, "No free pod slot for a new pod of deployment %d (model bound: %d pod slots)", d+1, len(s.Pods))
			}
			s.ReachBound(model.BoundPodSlots)
			return
		}
		s.Pods[j] = newPod(t, tmpl, d, rs)
		if tx.Tracing() {
			tx.Log(Component, "Adding a new pod %d to deployment %d", j+1, d+1)
		}
		if t.NodeName != 0 {
			// A pod with spec.nodeName bypasses the scheduler: the
			// kubelet of that node admits it directly.
			s.Pods[j].Node = uint8(t.NodeName)
			s.Enqueue(model.KubeletQueue, j)
			if tx.Tracing() {
				tx.Log(Component, "The nodeName has been defined in the deployment %d, enqueue to kubelet directly", j+1)
			}
			continue
		}
		s.Enqueue(model.SchedulerQueue, j)
	}
}

// newPod is a fresh Pending pod of template t (index tmpl) in slot rs of
// deployment d. Its usage starts at the request, or at the first entry of
// the template's CPU pattern.
func newPod(t *model.PodTemplate, tmpl, d, rs int) model.PodState {
	p := model.PodState{Phase: model.Pending, Owner: uint8(d + 1), RS: uint8(rs), Template: uint8(tmpl),
		CPU: int32(t.CPU), Memory: int32(t.Memory)}
	if len(t.Pattern) > 0 {
		p.CPU = int32(t.Pattern[0].CPU)
		p.Pattern = 1
	}
	return p
}

// deletePods deletes n active pods of slot rs ranked first for deletion
// (chooseVictims, which branches over tied pods): they become Terminating
// and the kubelet removes them.
func deletePods(tx *model.Tx, s *model.State, d, rs, n int) {
	for _, p := range chooseVictims(tx, s, d, rs, n) {
		pod := &s.Pods[p]
		pod.WasRunning = pod.Phase == model.Running
		pod.Phase = model.Terminating
		s.Enqueue(model.KubeletQueue, p)
	}
}
