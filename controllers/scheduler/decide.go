package scheduler

import "github.com/kivi-go/kivi/model"

// Decide runs the scheduling cycle that pod slot pod would get in s,
// without changing s, and returns the feasible nodes and the top-scoring
// feasible nodes (node indices, ascending; both empty when no node is
// feasible). It is the cycle Step runs, exported so that a comparison with
// another scheduler (the fidelity/ module measures the model against
// kube-scheduler) sees the feasible set too, which Step does not expose.
func Decide(u *model.Universe, s *model.State, pod int) (feasible, top []int) {
	pr := defaultProfile()
	var c cycle
	c.reset(u, s, pod)
	top = c.run(&pr)
	return append([]int(nil), c.feasible...), append([]int(nil), top...)
}
