package intents

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// replicas is Kivi's d.replicas: pods of d started by a kubelet and not
// yet removed (Running, or Terminating after running), counting only the
// pods that are Ready, or were when their deletion began: the replicas
// that serve. Pods whose template delays no readiness are Ready from
// their start (docs/intents.md). A Terminating pod that stays on a node
// that is not Ready (model.KeepsTerminatingPod) is no replica: it serves
// nothing until its node comes back, which removes it.
func replicas(u *model.Universe, s *model.State, d int) int {
	_, kept := model.KeptReplicas(u, s, d)
	return model.Counts(s, d).ReadyStarted - kept
}

func hpaBounds(u *model.Universe, s *model.State, d int) (min, max int, ok bool) {
	h := s.Deps[d].HPA
	if h == 0 {
		return 0, 0, false
	}
	return u.HPAs[h-1].Min, u.HPAs[h-1].Max, true
}

// oscillationWatch is no_oscillation_replica_num: stage 0 waits for the
// replica count to reach the HPA maximum (with max ≠ min); stage 1 fails
// when it falls back to the minimum or 3 below the maximum.
type oscillationWatch struct{ d int }

func (w oscillationWatch) Size() int { return 1 }

func (w oscillationWatch) Observe(u *model.Universe, s *model.State, mem []byte, _ []model.Mark) string {
	lo, hi, ok := hpaBounds(u, s, w.d)
	if !ok {
		return ""
	}
	r := replicas(u, s, w.d)
	if mem[0] == 0 && hi != lo && r == hi {
		mem[0] = 1
		return ""
	}
	if mem[0] == 1 && (r == lo || r <= hi-3) {
		return fmt.Sprintf("The number of replicas of %s %s was oscillating, now %d", u.KindWord(w.d, false), u.Deployments[w.d].Name, r)
	}
	return ""
}

func (w oscillationWatch) Stuck(*model.Universe, *model.State, []byte) string { return "" }

// minWatch is replica_num_always_meet_min: stage 0 waits for the replica
// count to reach T (HPA min, or spec without HPA; re-read in every state);
// stage 1 fails when it drops below T. Ending in stage 0 fails too.
type minWatch struct{ d int }

func (w minWatch) Size() int { return 1 }

func (w minWatch) threshold(u *model.Universe, s *model.State) int {
	if lo, _, ok := hpaBounds(u, s, w.d); ok {
		return lo
	}
	return int(s.Deps[w.d].Replicas)
}

func (w minWatch) Observe(u *model.Universe, s *model.State, mem []byte, _ []model.Mark) string {
	t, r := w.threshold(u, s), replicas(u, s, w.d)
	if mem[0] == 0 && r >= t {
		mem[0] = 1
		return ""
	}
	if mem[0] == 1 && r < t {
		return fmt.Sprintf("%s %s has fewer replicas than its minimum (HPA minReplicas, or spec.replicas): %d, minimum %d", u.KindWord(w.d, true), u.Deployments[w.d].Name, r, t)
	}
	return ""
}

func (w minWatch) Stuck(u *model.Universe, s *model.State, mem []byte) string {
	if mem[0] == 0 {
		return fmt.Sprintf("%s %s never reached %d replicas (now %d)", u.KindWord(w.d, false), u.Deployments[w.d].Name, w.threshold(u, s), replicas(u, s, w.d))
	}
	return ""
}

// expWatch is replica_num_always_meet_exp with threshold exp.
type expWatch struct {
	d   int
	exp Expected
}

func (w expWatch) Size() int { return 1 }

func (w expWatch) Observe(u *model.Universe, s *model.State, mem []byte, _ []model.Mark) string {
	t, r := w.exp.Value(s, w.d), replicas(u, s, w.d)
	if mem[0] == 0 && r >= t {
		mem[0] = 1
		return ""
	}
	if mem[0] == 1 && r < t {
		return fmt.Sprintf("%s %s has fewer replicas than expected: %d, expected %d", u.KindWord(w.d, true), u.Deployments[w.d].Name, r, t)
	}
	return ""
}

func (w expWatch) Stuck(u *model.Universe, s *model.State, mem []byte) string {
	if mem[0] == 0 {
		return fmt.Sprintf("%s %s never reached %d replicas (now %d)", u.KindWord(w.d, false), u.Deployments[w.d].Name, w.exp.Value(s, w.d), replicas(u, s, w.d))
	}
	return ""
}

// evictionCounter is Kivi's checkEvictionCycle: bits "a pod was deleted"
// and "a pod was started" set by the kubelet; one round consumes a
// deletion then a start; the third round fails. Memory: bit 0 deleted,
// bit 1 started, bit 2 stage, bits 3-4 rounds.
type evictionCounter struct{ d int }

func (w evictionCounter) Size() int { return 1 }

func (w evictionCounter) Observe(u *model.Universe, _ *model.State, mem []byte, marks []model.Mark) string {
	m := mem[0]
	if model.HasMark(marks, model.MarkDeleted(w.d)) {
		m |= 1
	}
	if model.HasMark(marks, model.MarkStarted(w.d)) {
		m |= 2
	}
	if m&4 == 0 && m&1 != 0 {
		m = m&^1 | 4
	}
	if m&4 != 0 && m&2 != 0 {
		rounds := (m>>3)&3 + 1
		m = m &^ (2 | 4 | 3<<3)
		if rounds >= 3 {
			mem[0] = m
			return fmt.Sprintf("Pods of %s %s were deleted and started again 3 times", u.KindWord(w.d, false), u.Deployments[w.d].Name)
		}
		m |= rounds << 3
	}
	mem[0] = m
	return ""
}

func (w evictionCounter) Stuck(*model.Universe, *model.State, []byte) string { return "" }

// balanceWatch is pod_balance_across_node: Running pods (of all
// workloads) differ by at most maxSkew between Ready nodes in every state
// where deployment d is at its spec and the cluster has settled
// (settled). With atPodStart it is Kivi's check instead: only at the
// steps that start a pod of d, once d has reached its spec.
type balanceWatch struct {
	d, maxSkew int
	atPodStart bool
}

func (w balanceWatch) Size() int { return 1 }

func (w balanceWatch) Observe(u *model.Universe, s *model.State, mem []byte, marks []model.Mark) string {
	reached := mem[0] != 0
	if !reached && replicas(u, s, w.d) >= int(s.Deps[w.d].Replicas) {
		mem[0] = 1
	}
	if w.atPodStart {
		if !reached || !model.HasMark(marks, model.MarkStarted(w.d)) {
			return ""
		}
	} else if !settled(u, s, w.d) {
		return ""
	}
	per := make([]int, len(s.Nodes))
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == model.Running && p.Node != 0 {
			per[p.Node-1]++
		}
	}
	lo, hi := -1, -1 // the Ready nodes with the fewest and the most pods
	for n := range s.Nodes {
		if s.Nodes[n].Status != model.Ready {
			continue
		}
		if lo < 0 || per[n] < per[lo] {
			lo = n
		}
		if hi < 0 || per[n] > per[hi] {
			hi = n
		}
	}
	if lo >= 0 && per[hi]-per[lo] > w.maxSkew {
		return fmt.Sprintf("The pods are unbalanced across the nodes: skew %d (%s on %s, %d on %s; at most %d apart)",
			per[hi]-per[lo], podCount(per[hi]), u.Nodes[hi].Name, per[lo], u.Nodes[lo].Name, w.maxSkew)
	}
	return ""
}

// podCount is n pods in words: "1 Running pod", "3 Running pods".
func podCount(n int) string {
	if n == 1 {
		return "1 Running pod"
	}
	return fmt.Sprintf("%d Running pods", n)
}

// settled reports whether deployment d exists at its spec (as many
// Running pods as spec replicas) and the cluster has come to rest: no pod
// Pending or Terminating, no pod of d whose readiness probe or
// minReadySeconds is still to pass (its passing may move the cluster
// again: a rollout's next step, a descheduler cycle a budget refused), no
// work queued for any controller, no descheduling cycle requested and no
// pod of a deleted node left for the pod garbage collector. Such a state
// lasts until an event or command moves the cluster again, so it is what
// a user inspects.
func settled(u *model.Universe, s *model.State, d int) bool {
	ds := &s.Deps[d]
	if !ds.Active || !s.ControllerAndHPAQueuesEmpty() || s.DeschedulerPending || model.AnyOrphanedPods(s) {
		return false
	}
	probing := u.HasReadiness()
	for i := range s.Pods {
		if ph := s.Pods[i].Phase; ph == model.Pending || ph == model.Terminating {
			return false
		}
		// The queues are empty here, so a pending readiness step is an
		// enabled one (model.ReadinessStepEnabled).
		if probing && int(s.Pods[i].Owner) == d+1 && model.ReadinessPending(s, i) {
			return false
		}
	}
	return model.Counts(s, d).Running == int(ds.Replicas)
}

func (w balanceWatch) Stuck(u *model.Universe, s *model.State, mem []byte) string {
	if mem[0] == 0 {
		return fmt.Sprintf("%s %s never reached its spec of %d replicas", u.KindWord(w.d, false), u.Deployments[w.d].Name, s.Deps[w.d].Replicas)
	}
	return ""
}

// rolloutWatch is rollout_completes: when the cluster stops, deployment d
// has finished its rollout as `kubectl rollout status` judges it (the
// updated, total and available replicas all equal spec.replicas): its
// spec replicas run, available, from its current ReplicaSet and no pod
// of an older one is left. A paused Deployment whose template has no
// ReplicaSet yet (created paused, or changed while paused) has no updated
// replica: its rollout does not complete until it is resumed. Nothing is
// judged before the cluster stops.
type rolloutWatch struct{ d int }

func (w rolloutWatch) Size() int { return 0 }

func (w rolloutWatch) Observe(*model.Universe, *model.State, []byte, []model.Mark) string { return "" }

func (w rolloutWatch) Stuck(u *model.Universe, s *model.State, _ []byte) string {
	ds := &s.Deps[w.d]
	if !ds.Active {
		return ""
	}
	if u.IsStatefulSet(w.d) {
		return statefulSetRolloutStuck(u, s, w.d)
	}
	cur := int(ds.Cur)
	if int(ds.RS[cur].Template) != u.Configs[ds.Config].PodTemplate+1 {
		return notRolledOut(u, s, w.d)
	}
	updated := model.RSCounts(s, w.d, cur)
	old := model.RSCounts(s, w.d, 1-cur)
	spec := int(ds.Replicas)
	if updated.Running == spec && updated.Available == spec && updated.Pending == 0 && old.Pending+old.Running+old.Terminating == keptPods(u, s, w.d, 1-cur) {
		return ""
	}
	name := u.Deployments[w.d].Name
	switch {
	case updated.Running == spec && updated.Pending == 0 && old.Active() == 0 && updated.Available < spec:
		// kubectl rollout status: "Waiting for deployment rollout to
		// finish: n of m updated replicas are available".
		return fmt.Sprintf("deployment %s stopped with %d of %d updated replicas available", name, updated.Available, spec)
	case old.Active() > 0:
		return fmt.Sprintf("deployment %s's rollout stopped: %d of %d updated replicas running, %d old replicas left", name, updated.Running, spec, old.Active())
	default:
		return fmt.Sprintf("deployment %s stopped with %d of %d replicas running", name, updated.Running, spec)
	}
}

// notRolledOut is rolloutWatch's end check of Deployment d when it has
// no ReplicaSet of its pod template, which at rest only a paused
// Deployment lacks (a new one, or one whose template changed while
// paused): no replica is updated, so `kubectl rollout status` keeps
// waiting ("0 out of n new replicas have been updated") unless spec is 0
// and no pod is left (then every count it reads is 0).
func notRolledOut(u *model.Universe, s *model.State, d int) string {
	spec := int(s.Deps[d].Replicas)
	pods := model.Counts(s, d)
	left := pods.Pending + pods.Running + pods.Terminating - keptPods(u, s, d, 0) - keptPods(u, s, d, 1)
	if spec <= 0 && left == 0 {
		return ""
	}
	name := u.Deployments[d].Name
	switch {
	case u.IsPaused(s, d) && s.Deps[d].RS == [2]model.ReplicaSetState{}:
		return fmt.Sprintf("deployment %s stopped paused before its first rollout: no ReplicaSet, 0 of %d replicas", name, spec)
	case u.IsPaused(s, d):
		return fmt.Sprintf("deployment %s stopped paused with its pod template not rolled out: 0 of %d updated replicas, %d running pods of older templates", name, spec, pods.Running)
	}
	return fmt.Sprintf("deployment %s stopped without a ReplicaSet of its pod template: 0 of %d updated replicas", name, spec)
}

// keptPods counts the pods of ReplicaSet slot rs of deployment d that
// stay Terminating on a node that is not Ready (model.KeepsTerminatingPod):
// `kubectl rollout status` reads status.replicas, which counts no
// terminating pod, so such a pod of an old ReplicaSet, which goes only
// when its node comes back, does not hold the rollout back; the old pods
// the kubelet is still removing do (they are gone at rest).
func keptPods(u *model.Universe, s *model.State, d, rs int) int {
	n := 0
	for i := range s.Pods {
		if p := &s.Pods[i]; int(p.Owner) == d+1 && int(p.RS) == rs && model.KeepsTerminatingPod(u, s, p) {
			n++
		}
	}
	return n
}

// statefulSetRolloutStuck is rolloutWatch's end check of StatefulSet d,
// as `kubectl rollout status` reads one: every replica Running, and
// under RollingUpdate every pod at or above the partition of the update
// revision (below it the current revision stays by design). Under
// OnDelete rollout status does not apply: the replicas must run.
func statefulSetRolloutStuck(u *model.Universe, s *model.State, d int) string {
	ds := &s.Deps[d]
	cfg := &u.Configs[ds.Config]
	c := model.Counts(s, d)
	spec := int(ds.Replicas)
	name := u.Deployments[d].Name
	if c.Running != spec || c.Pending != 0 || c.Terminating != 0 {
		return fmt.Sprintf("statefulset %s stopped with %d of %d replicas running", name, c.Running, spec)
	}
	if c.Ready != spec {
		// kubectl rollout status: "Waiting for n pods to be ready".
		return fmt.Sprintf("statefulset %s stopped with %d of %d replicas ready", name, c.Ready, spec)
	}
	if cfg.Strategy == model.OnDelete {
		return ""
	}
	from := cfg.StatefulSet.OrdinalsStart + cfg.StatefulSet.Partition
	old := 0
	for i := range s.Pods {
		p := &s.Pods[i]
		if int(p.Owner) == d+1 && p.Phase == model.Running && int(p.Ordinal)-1 >= from && p.RS != ds.Cur {
			old++
		}
	}
	if old > 0 {
		return fmt.Sprintf("statefulset %s's rollout stopped: %d pods at or above the partition are of the old revision", name, old)
	}
	return ""
}
