package kubelet

import "github.com/kivi-go/kivi/model"

// failEvictedPod writes the status the eviction manager's killPodFunc
// gives a pod it evicts (eviction_manager.go evictPod): phase Failed,
// reason Evicted, and the DisruptionTarget condition with reason
// TerminationByKubelet. The model's Failed pod holds nothing, counts as
// no replica and is replaced; it records no reason, and the condition
// only for a Job with a podFailurePolicy (model.AddDisruptionTarget,
// before the phase changes).
// Its containers are gone, so its usage returns to where a pod starts,
// which keeps the evicted pod from telling states apart.
func failEvictedPod(u *model.Universe, p *model.PodState) {
	p.Phase = model.Failed
	p.WasRunning = false
	p.Readiness = model.PodAvailable
	p.CPU, p.Memory = u.Templates[p.Template].StartUsage()
}
