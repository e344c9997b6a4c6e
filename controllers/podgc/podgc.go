// Package podgc is the pod garbage collector of kube-controller-manager
// (pkg/controller/podgc, v1.36), reduced to what the model needs: it
// deletes Failed pods, so that pods the kubelet rejected at admission
// (controllers/kubelet) do not fill the pod slots (Collector), and the
// pods of a deleted Node (gcOrphaned: Orphaned, orphaned.go). Its
// gcTerminating, for a node with the out-of-service taint, runs in the
// kubelet's step (controllers/kubelet, outofservice.go).
//
// Upstream deletes terminated pods only once more than
// --terminated-pod-gc-threshold (12 500) exist, oldest first; a
// ReplicaSet whose pods the kubelet keeps rejecting creates replacements
// until then. The model has no clock and a handful of pod slots, so the
// collection is a step that may come at any time after a pod failed:
// every interleaving of it with the other controllers is explored, the
// one where failed pods pile up until the pod slots run out included
// (that run ends Unknown through the pod-slot bound, never silently).
package podgc

import "github.com/kivi-go/kivi/model"

// Component is the collector's name in trace lines (kube-controller-
// manager's controller name).
const Component = "pod-garbage-collector-controller"

// Collector deletes every Failed pod in one step.
type Collector struct{}

// New returns the pod garbage collector process.
func New() *Collector { return &Collector{} }

// Name is the process name.
func (*Collector) Name() string { return "PodGC" }

// Enabled: some pod is Failed.
func (*Collector) Enabled(_ *model.Universe, s *model.State) bool {
	for i := range s.Pods {
		if s.Pods[i].Phase == model.Failed {
			return true
		}
	}
	return false
}

// Step deletes the Failed pods: their slots become Free and leave the pod
// queues (a Failed pod may still wait in the taint manager's, queued when
// it started on a node with NoExecute taints). Nothing is woken:
// a Failed pod is no longer active for its ReplicaSet, which already
// replaced it when it failed; a Job's keeps the failure counted
// (model.ForgetJobPod).
func (*Collector) Step(tx *model.Tx, s *model.State) {
	for i := range s.Pods {
		pod := s.Pods[i]
		if pod.Phase != model.Failed {
			continue
		}
		model.ForgetJobPod(tx, s, i, false)
		s.ForgetPod(i)
		if tx.Tracing() {
			tx.Log(Component, "Deleted failed pod %s", model.PodRef{Slot: i, Pod: pod})
		}
	}
}

var _ model.Footprinter = (*Collector)(nil)

// StaticFootprint: every pod slot, read and written, the pod queues the
// deleted pods leave, and the Jobs' counted failures.
func (*Collector) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	var f model.Footprint
	f.AddPods()
	for _, q := range model.PodQueues() {
		f.AddQueue(q)
	}
	if u.HasJobs {
		f.AddDeployments()
	}
	return f, f
}

// StepFootprint: it reads every pod (a pod failing elsewhere would be
// collected too) and writes the Failed pods (their nodes, or the pool for
// an unbound one) and the pool, where their slots go.
func (*Collector) StepFootprint(u *model.Universe, s *model.State) (reads, writes model.Footprint) {
	reads.AddPods()
	writes.Add(model.CompPodPool)
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Phase == model.Failed {
			// model.State.ForgetPod: whether the pod waits in a pod
			// queue, now or after another actor's step.
			for _, q := range model.PodQueues() {
				reads.AddQueue(q)
				writes.AddQueue(q)
			}
			writes.AddPod(s, i)
			if d := int(p.Owner) - 1; u.IsJob(d) {
				reads.AddDeployment(d)
				writes.AddDeployment(d) // model.ForgetJobPod
			}
		}
	}
	return reads, writes
}

// DisabledBy: any pod slot may become Failed (its phase: a change of
// readiness alone fails no pod).
func (*Collector) DisabledBy(*model.Universe, *model.State) model.Footprint {
	var f model.Footprint
	f.AddPodsWithoutReadiness()
	return f
}
