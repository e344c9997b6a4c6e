package manifest

import (
	"maps"
	"slices"
)

// kube-scheduler's LeastAllocated scores a container that leaves out its
// cpu or memory request as requesting 100m or 200Mi (NonZeroRequested,
// resource.PodRequests with NonMissingContainerRequests); an explicit 0
// stays 0. In the model's units, millicores and MiB.
const (
	nonZeroCPU    = 100
	nonZeroMemory = 200
)

// nonZeroRequests is requests with every missing container request
// (containers and init containers) replaced by the default: the requests
// LeastAllocated scores the pod with (model.PodTemplate.NonZeroCPU and
// NonZeroMemory). A request the API server defaults from a limit is not
// missing (requestsOf). The quantities were checked by requests, so
// parse errors cannot occur here.
func (tc templateConv) nonZeroRequests(spec PodSpec) (cpu, mem int64) {
	read := func(rl map[string]QuantityText) (c, m int64) {
		c, m = nonZeroCPU, nonZeroMemory
		for _, name := range slices.Sorted(maps.Keys(rl)) {
			switch name {
			case "cpu":
				c, _ = parseResource(tc.o.at(), "", rl[name], cpuRequest)
			case "memory":
				m, _ = parseResource(tc.o.at(), "", rl[name], memoryRequest)
			}
		}
		return c, m
	}
	var sumCPU, sumMem, initCPU, initMem, sideCPU, sideMem int64
	for _, c := range spec.Containers {
		rl, _, _, _ := admit(tc.limits, c)
		x, y := read(rl)
		sumCPU, sumMem = sumCPU+x, sumMem+y
	}
	for _, c := range spec.InitContainers {
		rl, _, _, _ := admit(tc.limits, c)
		x, y := read(rl)
		if c.RestartPolicy == "Always" {
			sumCPU, sumMem = sumCPU+x, sumMem+y
			sideCPU, sideMem = sideCPU+x, sideMem+y
			x, y = sideCPU, sideMem
		} else {
			x, y = x+sideCPU, y+sideMem
		}
		initCPU, initMem = max(initCPU, x), max(initMem, y)
	}
	var overCPU, overMem int64
	if q, ok := spec.Overhead["cpu"]; ok {
		overCPU, _ = parseResource(tc.o.at(), "", q, cpuRequest)
	}
	if q, ok := spec.Overhead["memory"]; ok {
		overMem, _ = parseResource(tc.o.at(), "", q, memoryRequest)
	}
	return max(sumCPU, initCPU) + overCPU, max(sumMem, initMem) + overMem
}
