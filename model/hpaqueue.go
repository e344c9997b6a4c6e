package model

import "slices"

// EnqueueHPA queues workload d for the HPA controller after a change of
// its pods, and with it every workload whose HPA counts d's pods in its
// metrics (HPA.CountsPodsOf): kube-controller-manager's HPA lists the
// pods of its target's selector, whoever owns them.
func (s *State) EnqueueHPA(u *Universe, d int) {
	s.Enqueue(HPAQueue, d)
	if !u.HPAsCountOtherPods {
		return
	}
	for e := range s.Deps {
		if h := int(s.Deps[e].HPA); e != d && h > 0 && slices.Contains(u.HPAs[h-1].CountsPodsOf, d) {
			s.Enqueue(HPAQueue, e)
		}
	}
}

// CountsPodOf reports whether the HPA of workload d lists a pod owned by
// owner (a deployment index + 1, 0 for a bare pod) in its metrics: d's
// own pods and those of HPA.CountsPodsOf.
func (h *HPA) CountsPodOf(d int, owner uint8) bool {
	return owner != 0 && (int(owner) == d+1 || slices.Contains(h.CountsPodsOf, int(owner)-1))
}
