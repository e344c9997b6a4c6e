package hpa

import "github.com/kivi-go/kivi/model"

// groupPods is groupPods of the replica calculator over the model: the
// pods of deployment d in every ReplicaSet (the scale subresource's
// selector matches old revisions too). Terminating pods carry a deletion
// timestamp and are ignored; Pending pods are unready; Running pods are
// ready, and the metrics server reports their current usage, except that
// for a CPU metric a Running pod whose Ready condition is False is unready
// too. Upstream decides that with the clock: within
// cpuInitializationPeriod (5 min) of the pod's start a pod not Ready is
// unready, after it a pod not Ready that has never been Ready since
// delayOfInitialReadinessStatus (30 s). The model has no clock and
// assumes the first case: a pod not yet Ready after its start is within
// its initialisation period, and a pod the node lifecycle controller
// marked not Ready is taken as within it too (docs/divergences.md). A
// memory metric reads every Running pod's sample, Ready or not, as
// upstream. Every Running pod has a sample but one of a deleted node
// (model.OnDeletedNode), whose kubelet is gone until the pod garbage
// collector removes the pod: the metrics server reports nothing for it,
// and the replica calculator takes it as missing.
// The samples are appended to into.Ready[:0] and into.Unready[:0], so a
// caller can lend buffers (the HPA evaluates on every sync: its garbage
// was a fifth of a scaling search's allocation).
func groupPods(u *model.Universe, s *model.State, d int, r model.MetricSource, into Pods) Pods {
	pods := Pods{Ready: into.Ready[:0], Unready: into.Unready[:0], Missing: into.Missing[:0]}
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Owner != owner {
			continue
		}
		sample := sampleOf(u, p, r)
		switch p.Phase {
		case model.Running:
			if model.OnDeletedNode(s, p) {
				pods.Missing = append(pods.Missing, sample)
				continue
			}
			if r != model.Memory && p.Readiness == model.PodNotReady {
				pods.Unready = append(pods.Unready, sample)
				continue
			}
			pods.Ready = append(pods.Ready, sample)
		case model.Pending:
			pods.Unready = append(pods.Unready, sample)
		}
	}
	return pods
}

// sampleOf is a pod's usage of resource r and its request as the replica
// calculator reads it (model.PodTemplate.MetricRequest).
func sampleOf(u *model.Universe, p *model.PodState, r model.MetricSource) Sample {
	t := &u.Templates[p.Template]
	if r == model.Memory {
		return Sample{Usage: int64(p.Memory), Request: t.MetricRequest(r)}
	}
	return Sample{Usage: int64(p.CPU), Request: t.MetricRequest(r)}
}
