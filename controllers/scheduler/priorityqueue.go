package scheduler

import "github.com/kivi-go/kivi/model"

// popNext removes and returns the pod the active queue hands out next:
// kube-scheduler's PrioritySort orders its active queue by priority,
// higher first, and by the time a pod was queued among pods of equal
// priority. The model's scheduling queue holds pods in the order they
// were queued, so the next pod is the first one of the highest priority
// in it; with one priority throughout that is the head, as a FIFO.
//
// Pods that differ only in their nominated node (model.NominatedTwins)
// wait next to each other in the queue, and upstream takes them in the
// order of their last failed attempts, which the model does not keep:
// when ties branch, the step takes each of them first in turn (one per
// nominated node: pods alike there too are the same pod to the
// scheduler), so that their slots, which the symmetry reduction
// permutes, decide nothing.
func popNext(tx *model.Tx, s *model.State) int {
	u := tx.U
	q := s.Queues[model.SchedulerQueue]
	best := 0
	for i := 1; i < len(q); i++ {
		if u.Templates[s.Pods[q[i]].Template].Priority > u.Templates[s.Pods[q[best]].Template].Priority {
			best = i
		}
	}
	if u.Options.TieBreak == model.BranchOnTies {
		if end := model.NominatedRun(s, q, best); end > best+1 {
			best = chooseNominated(tx, s, q, best, end)
		}
	}
	p := int(q[best])
	copy(q[best:], q[best+1:])
	s.Queues[model.SchedulerQueue] = q[:len(q)-1]
	return p
}

// chooseNominated chooses which of the nominated twins q[from:to] the
// scheduler takes first: one branch per nominated node among them, in
// queue order. It returns the chosen pod's index in q.
func chooseNominated(tx *model.Tx, s *model.State, q []uint16, from, to int) int {
	var buf [8]int
	first := buf[:0] // queue indexes of the first twin nominated to each node
	for i := from; i < to; i++ {
		n := s.Pods[q[i]].NominatedNode
		seen := false
		for _, j := range first {
			if s.Pods[q[j]].NominatedNode == n {
				seen = true
				break
			}
		}
		if !seen {
			first = append(first, i)
		}
	}
	return first[tx.Choose(len(first))]
}
