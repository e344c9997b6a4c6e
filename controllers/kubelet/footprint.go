package kubelet

import "github.com/kivi-go/kivi/model"

var _ model.Footprinter = (*Kubelet)(nil)

// StaticFootprint: every pod and node, every deployment (the rollout
// check), the kubelet, scheduler and taint-manager queues it drains or
// cleans, the deployment and HPA queues it wakes, the descheduler trigger,
// marks, and the internal-failure assertion.
func (*Kubelet) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	var f model.Footprint
	f.AddPods()
	f.AddDeployments()
	for _, q := range [...]model.Queue{model.KubeletQueue, model.SchedulerQueue, model.TaintManagerQueue, model.DeploymentQueue, model.HPAQueue} {
		f.AddQueue(q)
	}
	f.Add(model.CompDeschedulerPending)
	f.Add(model.CompFailed)
	f.Add(model.CompMarks)
	return f, f
}

// StepFootprint: the queued pods (the node each is bound to, or the pool),
// their deployments, and only the queues and flags this drain can touch:
// a drain that only starts pods outside a rollout leaves the deployment,
// HPA and scheduler queues alone.
func (k *Kubelet) StepFootprint(u *model.Universe, s *model.State) (reads, writes model.Footprint) {
	if mayPreempt(u, s) {
		return k.StaticFootprint(u)
	}
	var r, w model.Footprint
	r.AddQueue(model.KubeletQueue)
	w.AddQueue(model.KubeletQueue)
	for _, id := range s.Queues[model.KubeletQueue] {
		p := int(id)
		if p >= len(s.Pods) {
			w.Add(model.CompFailed)
			continue
		}
		r.AddPod(s, p)
		w.AddPod(s, p)
		pod := &s.Pods[p]
		act := decide(pod)
		if act == ignore {
			continue
		}
		d := int(pod.Owner) - 1
		if act == removePod {
			// The slot becomes Free; waiting pods (the pool's unbound
			// Pending pods) go back to the scheduling queue.
			r.Add(model.CompPodPool)
			w.Add(model.CompPodPool)
			w.AddQueue(model.SchedulerQueue)
			w.AddQueue(model.TaintManagerQueue)
			r.AddQueue(model.SchedulerQueue)
			r.AddQueue(model.TaintManagerQueue)
		} else if queuesForTaintEviction(u, s, pod) {
			r.AddQueue(model.TaintManagerQueue)
			w.AddQueue(model.TaintManagerQueue)
		}
		if u.Descheduler != nil {
			// Every start and removal requests a descheduler cycle.
			r.Add(model.CompDeschedulerPending)
			w.Add(model.CompDeschedulerPending)
		}
		if d < 0 {
			continue
		}
		w.Add(model.CompMarks)
		// The rollout check reads the deployment and, during a rollout,
		// every pod of it; wake-ups read and write the queues.
		r.AddDeployment(d)
		if act == removePod && u.IsJob(d) {
			w.AddDeployment(d) // the Job's counted failures (model.ForgetJobPod)
			if model.HasPodFailurePolicy(u, s, d) {
				r.AddPods() // a FailJob match reads the Job's pods
			}
		}
		if s.Deps[d].RS[1-s.Deps[d].Cur].Template != 0 {
			r.AddPods()
		}
		// A start may also be a rejection at admission, which wakes the
		// deployment (admission.go).
		if act == removePod || rolloutInProgress(s, d) || !u.Options.KiviLifecycle || u.StatefulSetPod(pod) {
			r.AddQueue(model.DeploymentQueue)
			w.AddQueue(model.DeploymentQueue)
		}
		if act == removePod && u.HasHPA {
			r.AddQueue(model.HPAQueue)
			w.AddQueue(model.HPAQueue)
		}
	}
	return r, w
}

// mayPreempt reports whether the drain may admit a critical pod by
// preempting others (preemption.go): its victims are any pods of the
// node, of any owner, whose controllers, the scheduler's waiting pods and
// a Job's counts it touches; the static footprint covers them.
func mayPreempt(u *model.Universe, s *model.State) bool {
	if u.Options.KiviLifecycle {
		return false
	}
	for _, id := range s.Queues[model.KubeletQueue] {
		if p := int(id); p < len(s.Pods) && decide(&s.Pods[p]) == startPod && u.Templates[s.Pods[p].Template].KubeletCritical() {
			return true
		}
	}
	return false
}

// DisabledBy: the kubelet waits for its queue.
func (*Kubelet) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.QueueFootprint(model.KubeletQueue)
}
