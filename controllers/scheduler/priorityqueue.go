package scheduler

import "github.com/kivi-go/kivi/model"

// popNext removes and returns the pod the active queue hands out next:
// kube-scheduler's PrioritySort orders its active queue by priority,
// higher first, and by the time a pod was queued among pods of equal
// priority. The model's scheduling queue holds pods in the order they
// were queued, so the next pod is the first one of the highest priority
// in it; with one priority throughout that is the head, as a FIFO.
func popNext(u *model.Universe, s *model.State) int {
	q := s.Queues[model.SchedulerQueue]
	best := 0
	for i := 1; i < len(q); i++ {
		if u.Templates[s.Pods[q[i]].Template].Priority > u.Templates[s.Pods[q[best]].Template].Priority {
			best = i
		}
	}
	p := int(q[best])
	copy(q[best:], q[best+1:])
	s.Queues[model.SchedulerQueue] = q[:len(q)-1]
	return p
}
