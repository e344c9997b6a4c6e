package kubelet

import (
	"math"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// The kubelet's preemption for a critical pod (pkg/kubelet/preemption,
// v1.36: CriticalPodAdmissionHandler). A critical pod that fails
// admission only for resources (admit) is admitted once the kubelet has
// killed a set of the pods it runs that frees what it lacks: each
// insufficient resource is a requirement (what the pod requests beyond
// what is free); the candidates are the pods it runs that the critical
// pod may preempt (kubetypes.Preemptable), split by QoS class; the
// Guaranteed pods to go are chosen as if every BestEffort and Burstable
// pod went, then the Burstable ones as if every BestEffort pod and the
// chosen Guaranteed ones went, then the BestEffort ones
// (getPodsToPreempt). Within a class the kubelet takes, round by round,
// the pod closest to the remaining requirements (the sum over them of
// the squared fraction a pod leaves unmet), the smaller memory and then
// cpu request among equally close ones (getPodsToPreemptByDistance). When
// all the candidates together do not free enough, the pod is rejected
// with UnexpectedAdmissionError.
//
// Upstream takes the last of the pods those rules leave tied in the
// order the kubelet lists its active pods, a map's order: the model
// branches over them (model.Tx.ChoosePods: identical pods are one
// choice). One listing serves every round of an admission, and the
// model branches in each round on its own; that allows no more than the
// listing does: a round's choice only puts the chosen pod after the
// others tied with it, and the chosen pod is in no later round, so the
// choices of all the rounds together always fit some order of the list.

// Reasons of the critical pod admission handler: a rejected critical
// pod's (lifecycle.UnexpectedAdmissionError) and a preempted pod's
// status reason (events.PreemptContainer).
const (
	unexpectedAdmissionError = "UnexpectedAdmissionError"
	preemptingReason         = "Preempting"
)

// Requirement resources: pods, cpu and memory, then the scalar resources
// (index requireScalar+k for model.Universe.ScalarResources[k]).
const (
	requirePods = iota
	requireCPU
	requireMemory
	requireScalar
)

// requirement is one resource a critical pod lacks on its node and how
// much of it (InsufficientResourceError.GetInsufficientAmount).
type requirement struct {
	resource int
	quantity int64
}

// requirements are the resources pod p lacks on node n, in
// NodeResourcesFit's order, each with what p requests beyond what the
// node has free: the checks of outOfResources and outOfScalar, all of
// them rather than the first.
func requirements(u *model.Universe, s *model.State, p, n int) []requirement {
	t := &u.Templates[s.Pods[p].Template]
	node := &u.Nodes[n]
	used := runningRequests(u, s, n)
	var out []requirement
	if used.Pods+1 > node.MaxPods {
		out = append(out, requirement{requirePods, int64(used.Pods + 1 - node.MaxPods)})
	}
	if t.CPU > 0 && t.CPU > node.CPU-used.CPU {
		out = append(out, requirement{requireCPU, t.CPU - (node.CPU - used.CPU)})
	}
	if t.Memory > 0 && t.Memory > node.Memory-used.Memory {
		out = append(out, requirement{requireMemory, t.Memory - (node.Memory - used.Memory)})
	}
	if t.Scalar == nil {
		return out
	}
	usedScalar := slices.Clone(node.ReservedScalar)
	if usedScalar == nil {
		usedScalar = make([]int64, len(t.Scalar))
	}
	for i := range s.Pods {
		q := &s.Pods[i]
		if int(q.Node) == n+1 && (q.Phase == model.Running || q.Phase == model.Terminating) {
			u.AddScalar(usedScalar, int(q.Template))
		}
	}
	for k, r := range t.Scalar {
		if r == 0 || model.IsExtendedResource(u.ScalarResources[k]) && (node.ScalarListed == nil || !node.ScalarListed[k]) {
			continue
		}
		if free := u.NodeScalar(n, k) - usedScalar[k]; r > free {
			out = append(out, requirement{requireScalar + k, r - free})
		}
	}
	return out
}

// preemptionRequest is what killing a pod of template t frees of
// requirement resource r as the handler counts it
// (resource.GetResourceRequest): one pod; its cpu or memory request with
// the overhead, or nothing when it requests none beyond the overhead; its
// scalar request. A pod with pod-level resources counts its pod-level
// requests only: nothing of a resource they leave out, of cpu or memory
// as of the scalar resources, though its containers request it.
func preemptionRequest(u *model.Universe, t *model.PodTemplate, r int) int64 {
	podLevel := t.PodLevel[model.CPU] || t.PodLevel[model.Memory]
	switch r {
	case requirePods:
		return 1
	case requireCPU:
		if t.CPU == t.Overhead[model.CPU] || podLevel && !t.PodLevel[model.CPU] {
			return 0
		}
		return t.CPU
	case requireMemory:
		if t.Memory == t.Overhead[model.Memory] || podLevel && !t.PodLevel[model.Memory] {
			return 0
		}
		return t.Memory
	}
	if t.Scalar == nil || podLevel {
		return 0
	}
	return t.Scalar[r-requireScalar]
}

// subtract is what remains of reqs once the pods (slots) are killed:
// the requirements they do not meet, reduced by what they free.
func subtract(u *model.Universe, s *model.State, reqs []requirement, pods ...int) []requirement {
	var out []requirement
	for _, r := range reqs {
		q := r.quantity
		for _, p := range pods {
			q -= preemptionRequest(u, &u.Templates[s.Pods[p].Template], r.resource)
		}
		if q > 0 {
			out = append(out, requirement{r.resource, q})
		}
	}
	return out
}

// distance is how far killing pod p leaves reqs from being met: the sum
// of the squared fractions of each requirement it leaves unmet.
func distance(u *model.Universe, s *model.State, reqs []requirement, p int) float64 {
	t := &u.Templates[s.Pods[p].Template]
	d := 0.0
	for _, r := range reqs {
		if left := float64(r.quantity - preemptionRequest(u, t, r.resource)); left > 0 {
			d += math.Pow(left/float64(r.quantity), 2)
		}
	}
	return d
}

// compareRequests orders pods a and b by their memory and then cpu
// requests as the handler counts them (smallerResourceRequest).
func compareRequests(u *model.Universe, s *model.State, a, b int) int {
	ta, tb := &u.Templates[s.Pods[a].Template], &u.Templates[s.Pods[b].Template]
	for _, r := range [...]int{requireMemory, requireCPU} {
		if x, y := preemptionRequest(u, ta, r), preemptionRequest(u, tb, r); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// preemptionCandidates are the pods node n's kubelet runs (Running and
// Terminating) that critical pod p may preempt (kubetypes.Preemptable:
// a pod that is not critical, or of a lower priority), by QoS class.
func preemptionCandidates(u *model.Universe, s *model.State, p, n int) (classes [3][]int) {
	preemptor := &u.Templates[s.Pods[p].Template]
	for i := range s.Pods {
		q := &s.Pods[i]
		if i == p || int(q.Node) != n+1 || q.Phase != model.Running && q.Phase != model.Terminating {
			continue
		}
		t := &u.Templates[q.Template]
		if t.KubeletCritical() && preemptor.Priority <= t.Priority {
			continue
		}
		classes[t.QoS()] = append(classes[t.QoS()], i)
	}
	return classes
}

// podsToPreempt returns the pods node n's kubelet kills to admit
// critical pod p, in the order it kills them (BestEffort, Burstable,
// Guaranteed), or ok false when all of its candidates together do not
// free what p lacks (getPodsToPreempt).
func podsToPreempt(tx *model.Tx, s *model.State, p, n int) (victims []int, ok bool) {
	return victimsFor(tx, s, requirements(tx.U, s, p, n), preemptionCandidates(tx.U, s, p, n))
}

// victimsFor is getPodsToPreempt over the candidates c, by QoS class,
// for the requirements reqs.
func victimsFor(tx *model.Tx, s *model.State, reqs []requirement, c [3][]int) (victims []int, ok bool) {
	u := tx.U
	be, bu, g := c[model.BestEffortQoS], c[model.BurstableQoS], c[model.GuaranteedQoS]
	if len(subtract(u, s, reqs, slices.Concat(be, bu, g)...)) > 0 {
		return nil, false
	}
	gone := closestPods(tx, s, g, subtract(u, s, reqs, slices.Concat(be, bu)...))
	burstable := closestPods(tx, s, bu, subtract(u, s, reqs, slices.Concat(be, gone)...))
	bestEffort := closestPods(tx, s, be, subtract(u, s, reqs, slices.Concat(burstable, gone)...))
	return slices.Concat(bestEffort, burstable, gone), true
}

// closestPods takes pods, round by round, until reqs are met
// (getPodsToPreemptByDistance): the closest to what remains, the smaller
// requests among equally close ones, a choice among pods that are still
// tied. The candidates always suffice here: podsToPreempt checked that
// all of them together do.
func closestPods(tx *model.Tx, s *model.State, pods []int, reqs []requirement) []int {
	u := tx.U
	pods = slices.Clone(pods)
	var out []int
	for len(reqs) > 0 && len(pods) > 0 {
		var tied []int
		best := 0.0
		for _, q := range pods {
			d := distance(u, s, reqs, q)
			switch {
			case len(tied) == 0 || d < best || d == best && compareRequests(u, s, q, tied[0]) < 0:
				best, tied = d, append(tied[:0], q)
			case d == best && compareRequests(u, s, q, tied[0]) == 0:
				tied = append(tied, q)
			}
		}
		pick := tx.ChoosePods(s, tied, 1)[0]
		out = append(out, pick)
		reqs = subtract(u, s, reqs, pick)
		pods = slices.DeleteFunc(pods, func(q int) bool { return q == pick })
	}
	return out
}

// preemptFor preempts the pods node n's kubelet kills to admit critical
// pod p (podsToPreempt), or reports false when no set of them frees
// enough.
func preemptFor(tx *model.Tx, s *model.State, p int, w *wakeups, updates *queueUpdates) bool {
	victims, ok := podsToPreempt(tx, s, p, int(s.Pods[p].Node)-1)
	if !ok {
		return false
	}
	for _, q := range victims {
		preempt(tx, s, q, p, w, updates)
	}
	return true
}

// preempt kills pod q to admit critical pod p: a Running pod fails as
// the handler's killPodFunc leaves it (phase Failed, reason Preempting,
// the DisruptionTarget condition) and its controller replaces it; a
// Terminating one, already deleted, is gone once its containers are.
func preempt(tx *model.Tx, s *model.State, q, p int, w *wakeups, updates *queueUpdates) {
	u := tx.U
	pod := &s.Pods[q]
	w.appear(pod.Owner)
	if pod.Phase == model.Terminating {
		if tx.Tracing() {
			tx.Log(Component, "Preempted pod %s on node %s to admit critical pod %s (it was Terminating)", s.PodRef(q), nodeName(u, pod.Node), s.PodRef(p))
		}
		remove(tx, s, q, w, updates)
		return
	}
	model.AddDisruptionTarget(u, s, q)
	failEvictedPod(u, pod)
	if d := int(pod.Owner) - 1; d >= 0 {
		w.podGone(u, tx, s, d, model.MarkEvicted(d))
	} else {
		model.RequestDeschedulerCycle(u, s)
	}
	updates.fail()
	if tx.Tracing() {
		tx.Log(Component, "Preempted pod %s on node %s to admit critical pod %s; the pod is Failed (%s)", s.PodRef(q), nodeName(u, pod.Node), s.PodRef(p), preemptingReason)
	}
}
