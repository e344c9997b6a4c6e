package compose

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// memoryPressureAssumption is what a run with an eventMemoryChange assumes
// of the kubelets' eviction configuration, "" without one or when the
// input gives a KubeletConfiguration: otherwise every node has the
// kubelet's defaults.
func memoryPressureAssumption(u *model.Universe) string {
	if !u.HasMemoryChange() || u.Kubelet.Configured {
		return ""
	}
	return fmt.Sprintf("every kubelet has the default hard eviction threshold memory.available<%dMi (enforceNodeAllocatable: pods, evictionPressureTransitionPeriod: 5m, no soft thresholds): "+
		"a node is under memory pressure when its pods use more than its allocatable, and the pressure transition period passes only once the cluster is quiet; a KubeletConfiguration, given with -f, sets them",
		model.EvictionHardMemoryAvailable)
}

// memoryPressureWhen says when a node comes under memory pressure, for the
// events' description: with the default or a configured hard threshold,
// when its pods use more than its allocatable; with a soft threshold above
// the hard one, from that far below it.
func memoryPressureWhen(u *model.Universe) string {
	k := u.Kubelet
	if !k.Configured {
		return fmt.Sprintf("a node whose pods use more than its allocatable is under memory pressure (eviction threshold %dMi)", model.EvictionHardMemoryAvailable)
	}
	var th []string
	if k.EvictionHard.Set() {
		th = append(th, "memory.available<"+k.EvictionHard.Text)
	}
	if k.EvictionSoft.Set() {
		th = append(th, "soft memory.available<"+k.EvictionSoft.Text+" for "+k.SoftGracePeriod)
	}
	if k.MinimumReclaim.Set() {
		th = append(th, "minimum reclaim "+k.MinimumReclaim.Text)
	}
	if len(th) == 0 {
		return "no kubelet has a memory eviction threshold (its KubeletConfiguration sets none), so no node is under memory pressure"
	}
	what := "a node whose pods use more than its allocatable is under memory pressure"
	if k.EvictionSoft.Set() {
		what = "a node is under memory pressure when its allocatableMemory.available falls below a threshold"
	}
	return what + " (eviction threshold " + strings.Join(th, ", ") + ")"
}
