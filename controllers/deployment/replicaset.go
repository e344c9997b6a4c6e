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
		if which := rollingOut(s, d, rs); which != "" {
			tx.Log(Component, "Deployment %s rolls out: creating %d pod(s) of its %s ReplicaSet (rs %d)", tx.U.Deployments[d].Name, n, which, rs)
		} else {
			tx.Log(Component, "Deployment %s has too few replicas: creating %d", tx.U.Deployments[d].Name, n)
		}
	}
	tmpl := int(s.Deps[d].RS[rs].Template) - 1
	t := &u.Templates[tmpl]
	for range n {
		if msg, refused := u.QuotaRefusal(s, tmpl); refused {
			// The slow-start batch stops at its first error; the
			// ReplicaSet is retried once the quota has room (quota.go).
			s.Deps[d].QuotaRefused = uint8(tmpl + 1)
			if tx.Tracing() {
				tx.Log(Component, "Error creating a pod of deployment %s: pods is forbidden: %s", u.Deployments[d].Name, msg)
			}
			return
		}
		j := model.FreeSlot(s)
		if j < 0 {
			if tx.Tracing() {
				tx.Log(Component, "No free pod slot for a new pod of deployment %s (model bound: %d pod slots)", u.Deployments[d].Name, len(s.Pods))
			}
			s.ReachBound(model.BoundPodSlots)
			return
		}
		s.Pods[j] = newPod(t, tmpl, d, rs)
		if tx.Tracing() {
			tx.Log(Component, "Created pod %s", s.PodRef(j))
		}
		if t.NodeName != 0 {
			// A pod with spec.nodeName bypasses the scheduler: the
			// kubelet of that node admits it directly.
			s.Pods[j].Node = uint16(t.NodeName)
			s.Enqueue(model.KubeletQueue, j)
			model.AssignedPodAdded(u, s, j)
			if tx.Tracing() {
				tx.Log(Component, "Pod %s has spec.nodeName %s: it goes to that node's kubelet, not to the scheduler", s.PodRef(j), u.Nodes[t.NodeName-1].Name)
			}
			continue
		}
		s.Enqueue(model.SchedulerQueue, j)
	}
}

// newPod is a fresh Pending pod of template t (index tmpl) in slot rs of
// deployment d. Its usage starts at its running containers' requests
// (model.PodTemplate.StartUsage), or at the first entry of
// the template's CPU pattern.
func newPod(t *model.PodTemplate, tmpl, d, rs int) model.PodState {
	p := model.PodState{Phase: model.Pending, Owner: uint8(d + 1), RS: uint8(rs), Template: uint8(tmpl)}
	p.CPU, p.Memory = t.StartUsage()
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
	victims := chooseVictims(tx, s, d, rs, n)
	if tx.Tracing() && len(victims) > 0 {
		// A scale-down is a replica change like any other: it shows.
		if which := rollingOut(s, d, rs); which != "" {
			tx.Log(Component, "Deployment %s rolls out: deleting %d pod(s) of its %s ReplicaSet (rs %d)", tx.U.Deployments[d].Name, len(victims), which, rs)
		} else {
			tx.Log(Component, "Deployment %s has too many replicas: deleting %d", tx.U.Deployments[d].Name, len(victims))
		}
	}
	for _, p := range victims {
		s.MarkTerminating(p)
		if tx.Tracing() {
			tx.Log(Component, "Deleting pod %s", s.PodRef(p))
		}
	}
}

// rollingOut says, for a trace line about ReplicaSet slot rs of
// deployment d, whether the deployment is between two ReplicaSets (both
// slots hold a template, and each wants pods or still has some): then
// "new" or "old" names slot rs, since "too many replicas" would misread
// a rolling update that keeps spec.replicas; otherwise "".
func rollingOut(s *model.State, d, rs int) string {
	ds := &s.Deps[d]
	for k := range ds.RS {
		if set := &ds.RS[k]; set.Template == 0 || set.Replicas == 0 && model.RSCounts(s, d, k).Active() == 0 {
			return ""
		}
	}
	if rs == int(ds.Cur) {
		return "new"
	}
	return "old"
}
