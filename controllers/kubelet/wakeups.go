package kubelet

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// wakeups collects, during one drain of the kubelet queue, which
// deployments the deployment controller and the HPA must look at, and
// queues them after the drain in the order in which the deployments first
// appear in the kubelet queue.
//
// Kivi queues a deployment when the first of its pods that needs it is
// handled. Queuing by first appearance instead makes a drain's effect a
// function of the set of queued pods and of the order of their owners'
// first appearances: reordering one deployment's pods in the kubelet queue
// changes nothing. Real kubelets and informers give no order at all among
// pods of different nodes, so neither order is more faithful; this one
// lets reduction/symmetry identify such reorderings (docs/divergences.md).
type wakeups struct {
	// owners are the deployments of the queued pods, by first appearance.
	owners [256]uint8
	n      int
	// depSet and hpaSet are bit sets over deployment indices.
	depSet, hpaSet [4]uint64
}

// order records the owners of the pods now in the kubelet queue.
func (w *wakeups) order(s *model.State) {
	var seen [4]uint64
	for _, p := range s.Queues[model.KubeletQueue] {
		if int(p) >= len(s.Pods) {
			continue
		}
		o := s.Pods[p].Owner
		if o == 0 || seen[o>>6]&(1<<(o&63)) != 0 {
			continue
		}
		seen[o>>6] |= 1 << (o & 63)
		w.owners[w.n] = o
		w.n++
	}
}

// appear adds owner o (a deployment index+1; 0, a bare pod, is none)
// after the owners of the queued pods when it is not one of them: the
// owner of a pod the drain touches without its being queued (a pod
// preempted to admit a critical pod, preemption.go).
func (w *wakeups) appear(o uint8) {
	if o == 0 || slices.Contains(w.owners[:w.n], o) {
		return
	}
	w.owners[w.n] = o
	w.n++
}

// deployment asks for deployment d to be queued for its controller.
func (w *wakeups) deployment(d int) { w.depSet[d>>6] |= 1 << (d & 63) }

// hpa asks for deployment d to be queued for the HPA.
func (w *wakeups) hpa(d int) { w.hpaSet[d>>6] |= 1 << (d & 63) }

// podGone marks the step with mark and wakes what a pod of deployment d
// leaving wakes: its deployment and HPA queues, and the descheduler's
// trigger.
func (w *wakeups) podGone(u *model.Universe, tx *model.Tx, s *model.State, d int, mark model.Mark) {
	tx.Mark(mark)
	w.deployment(d)
	if u.HasHPA {
		w.hpa(d)
	}
	model.RequestDeschedulerCycle(u, s)
}

// flush queues the requested deployments in first-appearance order.
func (w *wakeups) flush(u *model.Universe, s *model.State) {
	for _, o := range w.owners[:w.n] {
		d := int(o) - 1
		if w.depSet[d>>6]&(1<<(d&63)) != 0 {
			s.Enqueue(model.DeploymentQueue, d)
		}
	}
	for _, o := range w.owners[:w.n] {
		d := int(o) - 1
		if w.hpaSet[d>>6]&(1<<(d&63)) != 0 {
			s.EnqueueHPA(u, d)
		}
	}
}
