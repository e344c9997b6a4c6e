package hpa

import (
	"strings"

	"github.com/kivi-go/kivi/model"
)

// groupPods is groupPods of the replica calculator over the model: the
// pods the HPA of deployment d lists (listedPods): d's in every ReplicaSet
// (the scale subresource's selector matches old revisions too) and those
// of the other workloads its selector selects. Terminating pods carry a deletion
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
func groupPods(u *model.Universe, s *model.State, d int, spec *model.HPA, r model.MetricSource, into Pods) Pods {
	pods := Pods{Ready: into.Ready[:0], Unready: into.Unready[:0], Missing: into.Missing[:0]}
	for i := range s.Pods {
		p := &s.Pods[i]
		if !lists(spec, d, p) {
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

// lists reports whether the HPA spec of deployment d lists pod p (any
// phase but Free): the target's selector selects d's own pods and those
// of HPA.CountsPodsOf (a nil spec: d's own).
func lists(spec *model.HPA, d int, p *model.PodState) bool {
	if p.Phase == model.Free {
		return false
	}
	if spec == nil {
		return int(p.Owner) == d+1
	}
	return spec.CountsPodOf(d, p.Owner)
}

// othersListed is, for a trace line, a clause naming the pods of other
// workloads the HPA of deployment d lists with its own (HPA.CountsPodsOf)
// and its arguments (pod references, which the trace names); "" when none
// exists.
func othersListed(u *model.Universe, s *model.State, d int, spec *model.HPA) (string, []any) {
	if len(spec.CountsPodsOf) == 0 {
		return "", nil
	}
	var verbs []string
	var pods []any
	for i := range s.Pods {
		if p := &s.Pods[i]; int(p.Owner) != d+1 && lists(spec, d, p) {
			verbs = append(verbs, "%s")
			pods = append(pods, s.PodRef(i))
		}
	}
	if len(pods) == 0 {
		return "", nil
	}
	return " (the pods its selector selects include " + strings.Join(verbs, ", ") + ", which it does not control)", pods
}
