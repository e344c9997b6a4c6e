package script

import "github.com/kivi-go/kivi/model"

// FirstFit (process first-fit) is a stand-in scheduler for scripts that
// exercise other controllers end to end: it binds each queued unbound
// Pending pod to the lowest-index Ready node that passes the static
// filters (nodeName, affinity, NoSchedule and NoExecute taints) and has
// room for its requests (scalar resources such as nvidia.com/gpu
// included). An unschedulable pod stays Pending and is
// dropped from the queue (no failure, unlike the real model's assertion).
type FirstFit struct{}

func (FirstFit) Name() string { return "Scheduler" }

func (FirstFit) Enabled(_ *model.Universe, s *model.State) bool {
	return !s.Empty(model.SchedulerQueue)
}

func (f FirstFit) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	for f.Enabled(u, s) {
		p, _ := s.Dequeue(model.SchedulerQueue)
		pod := &s.Pods[p]
		if pod.Phase != model.Pending || pod.Node != 0 {
			continue
		}
		n := firstFit(u, s, pod)
		if pod.Owner != 0 && u.HasHPA {
			s.EnqueueHPA(u, int(pod.Owner)-1)
		}
		if n < 0 {
			tx.Log("kube-scheduler", "Pod %s cannot be scheduled: 0/%d nodes are available", s.PodRef(p), len(s.Nodes))
			continue
		}
		pod.Node = uint16(n + 1)
		s.Enqueue(model.KubeletQueue, p)
		tx.Log("kube-scheduler", "Scheduled pod %s on node %s", s.PodRef(p), u.Nodes[n].Name)
	}
}

func firstFit(u *model.Universe, s *model.State, pod *model.PodState) int {
	t := &u.Templates[pod.Template]
	for n := range u.Nodes {
		fit := t.Fit[n]
		if s.Nodes[n].Status != model.Ready || !fit.NodeName || !fit.Affinity || fit.AddedAffinityRejects || fit.NoSchedule || fit.NoExecute {
			continue
		}
		req, alloc := u.Requested(s, n), u.Allocatable(n)
		if req.CPU+t.CPU > alloc.CPU || req.Memory+t.Memory > alloc.Memory || req.Pods+1 > alloc.Pods {
			continue
		}
		if k, _ := u.InsufficientScalar(int(pod.Template), n, u.ScalarRequested(s, n, nil)); k < 0 {
			return n
		}
	}
	return -1
}
