package model

// readsCPUUsage reports whether some step of u reads the pods' CPU usage
// (PodState.CPU): an HPA with a Resource metric of CPU (its replica
// calculator), or a kernelPanic event (the nodes' load). Without one, a
// rise of a pod's usage changes nothing any controller, event or intent
// reads (eventCpuChange does not follow its amount then: events/cpu.go).
func (u *Universe) readsCPUUsage() bool {
	for i := range u.Events {
		if u.Events[i].Kind == KernelPanic {
			return true
		}
	}
	for i := range u.HPAs {
		for _, m := range u.HPAs[i].Metrics {
			if m.Kind == ResourceMetric && m.Resource == CPU {
				return true
			}
		}
	}
	return false
}
