package hpa

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestMemoryAverageValueInMilliBytes: upstream's replica calculator
// averages a memory AverageValue metric in milli-bytes (the samples'
// MilliValue), so two pods at 96 and 97 MiB average 96.5 MiB: against a
// 64 MiB target the ratio is 1.5078 and ⌈1.5078·2⌉ = 4. An average taken
// in whole MiB (96) gives exactly 1.5 and 3 (found by hpadiff
// TestSelectedPods' probe of the memory path).
func TestMemoryAverageValueInMilliBytes(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(8000).Mem(8192))
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(100, 64)), 2)
	b.WithHPA(web, b.AddHPA(1, 10, 100))
	b.RunPod(web, 0).RunPod(web, 1)
	u, s := b.MustBuild()
	spec := &u.HPAs[0]
	spec.Metrics = []model.Metric{{Resource: model.Memory, Target: model.AverageValue, Value: 64}}
	usage := []int32{96, 97}
	for i := range s.Pods {
		if s.Pods[i].Phase == model.Running {
			s.Pods[i].Memory, usage = usage[0], usage[1:]
		}
	}
	if got := Recommend(u, s, web, spec, 2, nil); !got.OK || got.Proposal != 4 || got.Desired != 4 {
		t.Errorf("recommendation %+v, want a proposal of 4 and 4 replicas", got)
	}
	// CPU is averaged in millicores, the model's unit: 960 m and 970 m
	// average 965 m, 1.5078 of 640 m.
	spec.Metrics = []model.Metric{{Resource: model.CPU, Target: model.AverageValue, Value: 640}}
	cpu := []int32{960, 970}
	for i := range s.Pods {
		if s.Pods[i].Phase == model.Running {
			s.Pods[i].CPU, cpu = cpu[0], cpu[1:]
		}
	}
	if got := Recommend(u, s, web, spec, 2, nil); !got.OK || got.Proposal != 4 {
		t.Errorf("CPU recommendation %+v, want a proposal of 4", got)
	}
}
