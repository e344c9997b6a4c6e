package scheduler

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestResourceAllocationScorerCalculateRequests transcribes
// TestResourceAllocationScorerCalculateRequests (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/resource_allocation_test.go):
// the requests NodeResourcesFit scores a pod with, a container without a
// cpu or memory request counting as 100m and 200Mi
// (model.PodTemplate.NonZeroCPU and NonZeroMemory, which the manifest
// reader computes). Memory is in MiB: upstream's 1Mi is 1, its byte
// quantities 1 and 3 are restated as 1Mi and 3Mi. The model's pod has a
// container, so "overhead only" has one requesting 0 cpu and 0 memory,
// which adds nothing.
func TestResourceAllocationScorerCalculateRequests(t *testing.T) {
	const defCPU, defMem = 100, 200
	none := kRes{unset: true}
	for _, tc := range []struct {
		name     string
		pod      kSpec
		cpu, mem int64
	}{
		{"overhead only", kSpec{containers: []kRes{{}}, overhead: &kRes{cpu: 1000, mem: 1}}, 1000, 1},
		{"1x requestless container", pod(none), defCPU, defMem},
		{"2x requestless container", pod(none, none), 2 * defCPU, 2 * defMem},
		{"request container + requestless container", pod(kRes{cpu: 1000, mem: 1}, none), 1000 + defCPU, 1 + defMem},
		{"container + requestless container + overhead",
			kSpec{containers: []kRes{{cpu: 1000, mem: 1}, none}, overhead: &kRes{cpu: 1000, mem: 1}}, 2000 + defCPU, 2 + defMem},
		{"init container + container + requestless container + overhead",
			kSpec{containers: []kRes{{cpu: 1000, mem: 1}, none}, init: []kRes{{cpu: 3000, memUnset: true}}, overhead: &kRes{cpu: 1000, mem: 1}},
			4000, 2 + defMem},
		{"requestless init container + small init container + small container ",
			kSpec{containers: []kRes{{cpu: 3, mem: 3}}, init: []kRes{none, {cpu: 1, mem: 1}}}, defCPU, defMem},
		{"requestless init container + small init container + small container + requestless container ",
			kSpec{containers: []kRes{{cpu: 3, mem: 3}, none}, init: []kRes{none, {cpu: 1, mem: 1}}}, 3 + defCPU, 3 + defMem},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildResources(t, []kResNode{scoreNode("node", 8000, 8000)}, tc.pod, model.SchedulerProfile{})
			if cpu, mem := scoredRequests(&u.Templates[s.Pods[p].Template]); cpu != tc.cpu || mem != tc.mem {
				t.Errorf("scored requests cpu %d memory %d, want %d %d", cpu, mem, tc.cpu, tc.mem)
			}
		})
	}
}
