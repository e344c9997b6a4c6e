package model

// kube-controller-manager's HPA divides a Utilization metric by the pods'
// requests as calculateRequests (replica_calculator.go) reads them: the
// requests of the containers and the sidecar (restartable) init
// containers summed, or, when the pod sets pod-level requests, the
// pod's effective request (resource.PodRequests, overhead included). The
// scheduler's request (PodTemplate.CPU and Memory) also holds the largest
// regular init container where it exceeds the running containers, and the
// RuntimeClass overhead: the part the pod reserves but no running
// container requests (PodTemplate.ReservedOnly). The metrics server
// reports the usage of the running containers, so a pod of the model
// starts using its MetricRequest, not its scheduler's request.

// MetricRequest is t's request of resource r as the HPA's replica
// calculator reads it.
func (t *PodTemplate) MetricRequest(r MetricSource) int64 {
	if r == Memory {
		return t.Memory - t.ReservedOnly[Memory]
	}
	return t.CPU - t.ReservedOnly[CPU]
}

// StartUsage is what a new pod of t uses until a usage change: the
// requests of its running containers (its first CPU pattern point, where
// it has a pattern, is set by the caller).
func (t *PodTemplate) StartUsage() (cpu, memory int32) {
	return int32(t.MetricRequest(CPU)), int32(t.MetricRequest(Memory))
}
