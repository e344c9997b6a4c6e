package compose

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// memoryPressureAssumption is what a run with an eventMemoryChange assumes
// of the kubelets' eviction configuration, "" without one: the readers
// take no KubeletConfiguration, so every node has the kubelet's defaults.
func memoryPressureAssumption(u *model.Universe) string {
	if !u.HasMemoryChange() {
		return ""
	}
	return fmt.Sprintf("every kubelet has the default hard eviction threshold memory.available<%dMi (enforceNodeAllocatable: pods, evictionPressureTransitionPeriod: 5m, no soft thresholds): "+
		"a node is under memory pressure when its pods use more than its allocatable, and the pressure transition period passes only once the cluster is quiet",
		model.EvictionHardMemoryAvailable)
}
