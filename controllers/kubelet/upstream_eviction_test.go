package kubelet

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The tables below restate rows of Kubernetes' tests of the kubelet's
// eviction manager (k8s.io/kubernetes@v1.36.3, pkg/kubelet/eviction:
// helpers_test.go, eviction_manager_test.go) where the model has it:
// memory only (docs/divergences.md, "Node-pressure eviction (memory)").
// Memory in MiB; a pod's usage is its working set.
//
// Not restated, and why: the disk, inode, PID and storage-limit tests
// (TestDiskPressure*, TestInodePressureFsInodes, TestPIDPressure*,
// TestStorageLimitEvictions, TestOrderedbyDisk, TestOrderedbyInodes,
// TestOrderedByPriorityDisk, TestOrderedByPriorityInodes,
// TestOrderedByPriorityProcess, TestOrderedByExceedsRequestDisk,
// TestAddContainerFsThresholds, TestManagerWithLocalStorageCapacityIsolationOpen,
// TestNodeReclaimFuncs): no disk or PID pressure in the model; the
// threshold arithmetic, observation and grace-period tests
// (TestParseThresholdConfig, TestThresholdsMet*, TestPercentageThresholdsMet,
// TestThresholdsFirstObservedAt, TestNodeConditions*, TestMakeSignalObservations,
// TestGetReclaimableThreshold, TestCompareThresholdValue, TestParsePercentage,
// TestMemoryPressure, TestMinReclaim, TestAllocatableMemoryPressure,
// TestUpdateMemcgThreshold): timed sequences of summaries, measured
// against the real eviction manager by fidelity/evictiondiff instead;
// TestEvictionMessage, TestStatsNotFoundForPod, TestFallbackResourcesUsage:
// message text and missing statistics (every pod has its usage in the
// model); TestSortByEvictionPriority: the order of the thresholds of
// several resources (memory only).

// TestUpstreamOrderedByMemoryPressure: TestOrderedByExceedsRequestMemory,
// TestOrderedByPriority, TestOrderedByMemory and TestOrderedByPriorityMemory
// (helpers_test.go). The model ranks by the three together
// (rankMemoryPressure, upstream's rankMemoryPressure); in the rows that
// sort by one of them the others do not change the order.
func TestUpstreamOrderedByMemoryPressure(t *testing.T) {
	type pod struct {
		name           string
		priority       int32
		request, usage int64
		guaranteed     bool
	}
	const low, high = -1, 1 // lowPriority, highPriority
	for _, tc := range []struct {
		name string
		pods []pod // in upstream's input order
		want []string
	}{
		{"TestOrderedByExceedsRequestMemory", []pod{
			{"below-requests", -1, 200, 199, false}, {"exceeds-requests", 1, 100, 101, false}},
			[]string{"exceeds-requests", "below-requests"}},
		{"TestOrderedByPriority", []pod{
			{"high-priority", 12534, 200, 0, true}, {"medium-priority", 1, 100, 0, false}, {"low-priority", -134, 0, 0, false}},
			[]string{"low-priority", "medium-priority", "high-priority"}},
		{"TestOrderedByMemory", []pod{
			{"best-effort-high", 0, 0, 500, false}, {"best-effort-low", 0, 0, 300, false},
			{"burstable-high", 0, 100, 800, false}, {"burstable-low", 0, 100, 300, false},
			{"guaranteed-high", 0, 1024, 800, true}, {"guaranteed-low", 0, 1024, 200, true}},
			[]string{"burstable-high", "best-effort-high", "best-effort-low", "burstable-low", "guaranteed-high", "guaranteed-low"}},
		{"TestOrderedByPriorityMemory", []pod{
			{"below-requests-high-priority-low-usage", high, 1024, 200, false},
			{"below-requests-high-priority-high-usage", high, 1024, 800, false},
			{"below-requests-low-priority-low-usage", low, 1024, 200, false},
			{"below-requests-low-priority-high-usage", low, 1024, 800, false},
			{"above-requests-high-priority-low-usage", high, 100, 150, false},
			{"above-requests-high-priority-high-usage", high, 100, 600, false},
			{"above-requests-low-priority-low-usage", low, 0, 50, false},
			{"above-requests-low-priority-high-usage", low, 0, 500, false}},
			[]string{"above-requests-low-priority-high-usage", "above-requests-low-priority-low-usage",
				"above-requests-high-priority-high-usage", "above-requests-high-priority-low-usage",
				"below-requests-low-priority-high-usage", "below-requests-low-priority-low-usage",
				"below-requests-high-priority-high-usage", "below-requests-high-priority-low-usage"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node().CPU(100000).Mem(100000))
			for _, p := range tc.pods {
				tb := build.Template(p.name).Requests(0, p.request).Priority(p.priority)
				if p.guaranteed {
					tb.Guaranteed()
				}
				b.RunPod(b.AddDeployment(p.name, b.AddTemplate(tb), 1), 0)
			}
			u, s := b.MustBuild()
			for i, p := range tc.pods {
				s.Pods[i].Memory = int32(p.usage)
			}
			var got []string
			for _, i := range evictionCandidates(u, s, 0) {
				got = append(got, tc.pods[i].name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("ranked %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUpstreamAdmitUnderNodeConditions: TestAdmitUnderNodeConditions
// (eviction_manager_test.go) without and with MemoryPressure: only the
// BestEffort pod is rejected under it. Its third step (MemoryPressure and
// DiskPressure: every pod rejected) is not restated: no disk pressure.
// TestStaticCriticalPodsAreNotEvicted's critical pod is restated as a pod
// of system-critical priority (the model has no static pods): it is no
// eviction candidate.
func TestUpstreamAdmitUnderNodeConditions(t *testing.T) {
	guaranteedPod := build.Template("guaranteed-pod").Requests(100, 100).Guaranteed().Obj()
	burstablePod := build.Template("burstable-pod").Requests(100, 100).Obj()
	bestEffortPod := build.Template("best-effort-pod").Obj()
	for _, pressure := range []bool{false, true} {
		var s model.State
		s.Nodes = []model.NodeState{{MemoryPressure: pressure}}
		for _, tc := range []struct {
			t    *model.PodTemplate
			want bool
		}{{&guaranteedPod, true}, {&burstablePod, true}, {&bestEffortPod, !pressure}} {
			if got := !rejectedUnderPressure(&s, 0, tc.t); got != tc.want {
				t.Errorf("MemoryPressure %v: admit %s = %v, want %v", pressure, tc.t.Name, got, tc.want)
			}
		}
	}

	b := build.New()
	b.AddNodes(1, build.Node().CPU(1000).Mem(1000))
	b.RunPod(b.AddDeployment("critical", b.AddTemplate(build.Template("critical").Priority(model.SystemCriticalPriority+1000)), 1), 0)
	b.RunPod(b.AddDeployment("plain", b.AddTemplate(build.Template("plain")), 1), 0)
	u, s := b.MustBuild()
	s.Pods[0].Memory = 900
	if got := evictionCandidates(u, s, 0); !slices.Equal(got, []int{1}) {
		t.Errorf("TestStaticCriticalPodsAreNotEvicted: candidates %v, want only the non-critical pod [1]", got)
	}
}
