package scheduler

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// Of fit_test.go, TestPreFilterDisabled (a Filter without its PreFilter,
// which the model's cycle cannot run), the queueing hints
// (Test_isSchedulableAfterPodChange, Test_isSchedulableAfterNodeChange,
// Test_isSchedulableAfterDeviceClassChange, TestIsFit,
// TestHaveAnyRequestedResourcesIncreased, TestEventsToRegister: the model
// retries waiting pods on its own events, docs/divergences.md "Scheduling
// queue"), the pod signatures (TestFitSignPod), the DRA table
// (TestComputePodResourceRequestWithNodeAllocatableDRA) and pod-group
// placement scoring (TestScorePlacement_Resources, behind the alpha
// GenericWorkload gates; pod groups are not modelled) are not
// transcribed.

// fitNode is upstream's node of the Filter tables:
// makeAllocatableResources(10, 20, 32, 5, 20, 5) (milli-cpu, memory,
// pods, example.com/aaa, ephemeral-storage, hugepages-2Mi) with the
// given pods bound to it.
func fitNode(existing ...kSpec) kResNode {
	return kResNode{cpu: 10, mem: 20, pods: 32,
		scalar:   map[string]int64{extendedA: 5, ephStorage: 20, hugePageA: 5},
		existing: existing}
}

// initPod is upstream's newResourceInitPod(newResourcePod(c), init...).
func initPod(c kRes, init ...kRes) kSpec { return kSpec{containers: []kRes{c}, init: init} }

// fitRow is one row of a NodeResourcesFit Filter table: reasons are
// upstream's status reasons, in its order, joined by ", ".
type fitRow struct {
	name    string
	pod     kSpec
	node    kResNode
	code    Code
	reasons string
}

func (r fitRow) run(t *testing.T) {
	t.Helper()
	u, s, p := buildResources(t, []kResNode{r.node}, r.pod, model.SchedulerProfile{})
	got := fitFilter(u, s, p)[0]
	if reasons := strings.Join(splitReasons(got.Reason), ", "); got.Code != r.code || reasons != r.reasons {
		t.Errorf("status %v %q, want %v %q (pod cpu %d memory %d scalar %v)", got.Code, reasons, r.code, r.reasons,
			u.Templates[s.Pods[p].Template].CPU, u.Templates[s.Pods[p].Template].Memory, u.Templates[s.Pods[p].Template].Scalar)
	}
}

func insufficient(name string) string { return "Insufficient " + name }

// TestEnoughRequests transcribes TestEnoughRequests
// (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/fit_test.go). Left out:
// the rows on "kubernetes.io resource capacity enforced" (and "for init
// container"): resources under kubernetes.io/ are not modelled (warned;
// docs/divergences.md, Inputs, "Requests summed"); "skip checking
// ignored extended resource" and "... via resource groups":
// ignoredResources and ignoredResourceGroups are not modelled (the
// Scheduler row on profiles, "ignoredResources ... warned about");
// the pod-level hugepages rows: pod-level resources are cpu and memory
// only ("Pod-level resources" row); "extended resource backed by DRA"
// and "extended resource was backed by Device Plugin (Allocatable: 0)":
// an extended resource a DeviceClass maps to DRA is not modelled
// ("DRA-backed extended resources not modelled" row).
func TestEnoughRequests(t *testing.T) {
	r := func(cpu, mem int64) kRes { return kRes{cpu: cpu, mem: mem} }
	rs := func(cpu, mem int64, name string, v int64) kRes { return kRes{cpu: cpu, mem: mem, scalar: ext(name, v)} }
	cpuR, memR := insufficient("cpu"), insufficient("memory")
	for _, row := range []fitRow{
		{name: "no resources requested always fits", pod: kSpec{}, node: fitNode(pod(r(10, 20)))},
		{name: "too many resources fails", pod: pod(r(1, 1)), node: fitNode(pod(r(10, 20))), code: ko, reasons: cpuR + ", " + memR},
		{name: "too many resources fails due to init container cpu", pod: initPod(r(1, 1), r(3, 1)),
			node: fitNode(pod(r(8, 19))), code: ko, reasons: cpuR},
		{name: "too many resources fails due to highest init container cpu", pod: initPod(r(1, 1), r(3, 1), r(2, 1)),
			node: fitNode(pod(r(8, 19))), code: ko, reasons: cpuR},
		{name: "too many resources fails due to init container memory", pod: initPod(r(1, 1), r(1, 3)),
			node: fitNode(pod(r(9, 19))), code: ko, reasons: memR},
		{name: "too many resources fails due to highest init container memory", pod: initPod(r(1, 1), r(1, 3), r(1, 2)),
			node: fitNode(pod(r(9, 19))), code: ko, reasons: memR},
		{name: "init container fits because it's the max, not sum, of containers and init containers",
			pod: initPod(r(1, 1), r(1, 1)), node: fitNode(pod(r(9, 19)))},
		{name: "multiple init containers fit because it's the max, not sum, of containers and init containers",
			pod: initPod(r(1, 1), r(1, 1), r(1, 1)), node: fitNode(pod(r(9, 19)))},
		{name: "both resources fit", pod: pod(r(1, 1)), node: fitNode(pod(r(5, 5)))},
		{name: "one resource memory fits", pod: pod(r(2, 1)), node: fitNode(pod(r(9, 5))), code: ko, reasons: cpuR},
		{name: "one resource cpu fits", pod: pod(r(1, 2)), node: fitNode(pod(r(5, 19))), code: ko, reasons: memR},
		{name: "equal edge case", pod: pod(r(5, 1)), node: fitNode(pod(r(5, 19)))},
		{name: "equal edge case for init container", pod: initPod(r(4, 1), r(5, 1)), node: fitNode(pod(r(5, 19)))},
		{name: "extended resource fits", pod: pod(rs(0, 0, extendedA, 1)), node: fitNode(pod(r(0, 0)))},
		{name: "extended resource fits for init container", pod: initPod(r(0, 0), rs(0, 0, extendedA, 1)), node: fitNode(pod(r(0, 0)))},
		{name: "extended resource capacity enforced", pod: pod(rs(1, 1, extendedA, 10)),
			node: fitNode(pod(rs(0, 0, extendedA, 0))), code: kou, reasons: insufficient(extendedA)},
		{name: "extended resource capacity enforced for init container", pod: initPod(r(0, 0), rs(1, 1, extendedA, 10)),
			node: fitNode(pod(rs(0, 0, extendedA, 0))), code: kou, reasons: insufficient(extendedA)},
		{name: "extended resource allocatable enforced", pod: pod(rs(1, 1, extendedA, 1)),
			node: fitNode(pod(rs(0, 0, extendedA, 5))), code: ko, reasons: insufficient(extendedA)},
		{name: "extended resource allocatable enforced for init container", pod: initPod(r(0, 0), rs(1, 1, extendedA, 1)),
			node: fitNode(pod(rs(0, 0, extendedA, 5))), code: ko, reasons: insufficient(extendedA)},
		{name: "extended resource allocatable enforced for multiple containers", pod: pod(rs(1, 1, extendedA, 3), rs(1, 1, extendedA, 3)),
			node: fitNode(pod(rs(0, 0, extendedA, 2))), code: kou, reasons: insufficient(extendedA)},
		{name: "extended resource allocatable admits multiple init containers", pod: initPod(r(0, 0), rs(1, 1, extendedA, 3), rs(1, 1, extendedA, 3)),
			node: fitNode(pod(rs(0, 0, extendedA, 2)))},
		{name: "extended resource allocatable enforced for multiple init containers", pod: initPod(r(0, 0), rs(1, 1, extendedA, 6), rs(1, 1, extendedA, 3)),
			node: fitNode(pod(rs(0, 0, extendedA, 2))), code: kou, reasons: insufficient(extendedA)},
		{name: "extended resource allocatable enforced for unknown resource", pod: pod(rs(1, 1, extendedB, 1)),
			node: fitNode(pod(r(0, 0))), code: kou, reasons: insufficient(extendedB)},
		{name: "extended resource allocatable enforced for unknown resource for init container", pod: initPod(r(0, 0), rs(1, 1, extendedB, 1)),
			node: fitNode(pod(r(0, 0))), code: kou, reasons: insufficient(extendedB)},
		{name: "hugepages resource capacity enforced", pod: pod(rs(1, 1, hugePageA, 10)),
			node: fitNode(pod(rs(0, 0, hugePageA, 0))), code: kou, reasons: insufficient(hugePageA)},
		{name: "hugepages resource capacity enforced for init container", pod: initPod(r(0, 0), rs(1, 1, hugePageA, 10)),
			node: fitNode(pod(rs(0, 0, hugePageA, 0))), code: kou, reasons: insufficient(hugePageA)},
		{name: "hugepages resource allocatable enforced for multiple containers", pod: pod(rs(1, 1, hugePageA, 3), rs(1, 1, hugePageA, 3)),
			node: fitNode(pod(rs(0, 0, hugePageA, 2))), code: kou, reasons: insufficient(hugePageA)},
		{name: "resources + pod overhead fits", pod: kSpec{containers: []kRes{r(1, 1)}, overhead: &kRes{cpu: 3, mem: 13}},
			node: fitNode(pod(r(5, 5)))},
		{name: "requests + overhead does not fit for memory", pod: kSpec{containers: []kRes{r(1, 1)}, overhead: &kRes{cpu: 1, mem: 15}},
			node: fitNode(pod(r(5, 5))), code: ko, reasons: memR},
		{name: "skip checking extended resource request with quantity zero via resource groups", pod: pod(rs(1, 1, extendedA, 0)),
			node: fitNode(pod(rs(0, 0, extendedA, 6)))},
		{name: "skip checking resource request with quantity zero", pod: pod(kRes{scalar: ext(extendedA, 1)}),
			node: fitNode(pod(rs(20, 30, extendedA, 1)))},
		{name: "both pod-level and container-level resources fit", pod: kSpec{containers: []kRes{r(1, 1)}, podLevel: &kRes{cpu: 1, mem: 2}},
			node: fitNode(pod(r(5, 5)))},
		{name: "pod-level cpu resource not fit", pod: kSpec{containers: []kRes{r(1, 1)}, podLevel: &kRes{cpu: 7, mem: 2}},
			node: fitNode(pod(r(5, 5))), code: ko, reasons: cpuR},
		{name: "pod-level memory resource not fit", pod: kSpec{containers: []kRes{r(1, 1)}, podLevel: &kRes{cpu: 3, mem: 2}},
			node: fitNode(pod(r(5, 19))), code: ko, reasons: memR},
		{name: "one pod-level cpu resource fits and all init and non-init containers resources fit",
			pod:  kSpec{containers: []kRes{r(1, 1)}, init: []kRes{r(1, 1)}, podLevel: &kRes{cpu: 3, mem: 2}},
			node: fitNode(pod(r(5, 19))), code: ko, reasons: memR},
		// The DRA rows whose resource no DeviceClass maps (the model has
		// none): a device plugin's extended resource, as above.
		{name: "extended resource backed by device plugin", pod: pod(kRes{scalar: ext(extendedA, 1)}), node: fitNode(pod(r(0, 0)))},
		{name: "extended resource backed by DRA, nil draManager", pod: pod(rs(1, 1, extendedA, 1)), node: fitNode(pod(r(0, 0)))},
		{name: "extended resource backed by DRA not enabled", pod: pod(rs(1, 1, extendedDRA, 1)),
			node: fitNode(pod(r(0, 0))), code: kou, reasons: insufficient(extendedDRA)},
		{name: "extended resource NOT backed by DRA", pod: pod(rs(1, 1, extendedB, 1)),
			node: fitNode(pod(r(0, 0))), code: kou, reasons: insufficient(extendedB)},
		{name: "extended resource was backed by Device Plugin (Allocatable: 0), global cache", pod: pod(kRes{scalar: ext(extendedA, 1)}),
			node: fitNode(pod(kRes{scalar: ext(extendedA, 0)}))},
	} {
		t.Run(row.name, row.run)
	}
}

// TestNotEnoughRequests transcribes TestNotEnoughRequests
// (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/fit_test.go): a node of
// one pod slot, taken.
func TestNotEnoughRequests(t *testing.T) {
	r := func(cpu, mem int64) kRes { return kRes{cpu: cpu, mem: mem} }
	full := func(existing kRes) kResNode {
		return kResNode{cpu: 10, mem: 20, pods: 1, existing: []kSpec{pod(existing)}}
	}
	for _, row := range []fitRow{
		{name: "even without specified resources, predicate fails when there's no space for additional pod", pod: kSpec{},
			node: full(r(10, 20)), code: ko, reasons: k8sReasonTooManyPods},
		{name: "even if both resources fit, predicate fails when there's no space for additional pod", pod: pod(r(1, 1)),
			node: full(r(5, 5)), code: ko, reasons: k8sReasonTooManyPods},
		{name: "even for equal edge case, predicate fails when there's no space for additional pod", pod: pod(r(5, 1)),
			node: full(r(5, 19)), code: ko, reasons: k8sReasonTooManyPods},
		{name: "even for equal edge case, predicate fails when there's no space for additional pod due to init container",
			pod: initPod(r(5, 1), r(5, 1)), node: full(r(5, 19)), code: ko, reasons: k8sReasonTooManyPods},
	} {
		t.Run(row.name, row.run)
	}
}

// TestStorageRequests transcribes TestStorageRequests
// (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/fit_test.go).
func TestStorageRequests(t *testing.T) {
	r := func(cpu, mem, storage int64) kRes {
		k := kRes{cpu: cpu, mem: mem}
		if storage > 0 {
			k.scalar = ext(ephStorage, storage)
		}
		return k
	}
	for _, row := range []fitRow{
		{name: "empty storage requested, and pod fits", pod: pod(r(1, 1, 0)), node: fitNode(pod(r(2, 10, 0)))},
		{name: "storage ephemeral local storage request exceeds allocatable", pod: pod(r(0, 0, 25)),
			node: fitNode(pod(r(2, 2, 0))), code: kou, reasons: insufficient(ephStorage)},
		// Upstream's newResourceInitPod without init containers: the
		// container's 5 alone.
		{name: "ephemeral local storage is sufficient", pod: pod(r(0, 0, 5)), node: fitNode(pod(r(2, 2, 10)))},
		{name: "pod fits", pod: pod(r(0, 0, 10)), node: fitNode(pod(r(2, 2, 0)))},
	} {
		t.Run(row.name, row.run)
	}
}

// TestRestartableInitContainers transcribes the rows of
// TestRestartableInitContainers (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/fit_test.go) with the
// SidecarContainers gate on, as it is in v1.36 (the model has no gate;
// the rows "... if sidecar containers is disabled" are left out): a node
// of 2 milli-cpu and one pod slot (upstream's has no memory; the
// model wants some, which no row's pod requests).
func TestRestartableInitContainers(t *testing.T) {
	node := kResNode{cpu: 2, mem: 1, pods: 1}
	cpu := func(m int64) kRes { return kRes{cpu: m, unset: false} }
	none := kRes{unset: true}
	for _, row := range []fitRow{
		{name: "allow pod without restartable init containers if sidecar containers is enabled", pod: pod(none), node: node},
		{name: "allow pod with restartable init containers if sidecar containers is enabled",
			pod: kSpec{containers: []kRes{none}, sidecars: []kRes{none}}, node: node},
		{name: "allow pod if the total requested resources do not exceed the node's allocatable resources",
			pod: kSpec{containers: []kRes{cpu(1)}, sidecars: []kRes{cpu(1)}}, node: node},
		{name: "not allow pod if the total requested resources do exceed the node's allocatable resources",
			pod: kSpec{containers: []kRes{cpu(1)}, sidecars: []kRes{cpu(2)}}, node: node, code: kou, reasons: insufficient("cpu")},
	} {
		t.Run(row.name, row.run)
	}
}

// TestFitScore transcribes TestFitScore (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/noderesources/fit_test.go), in the
// units of TestLeastAllocatedScoringStrategy. The model has no Score
// without PreScore, so each "if PreScore is not called" row asks the
// same as its twin. Left out: the two rows on "LeastAllocated with
// Extended resources" backed by DRA (DRA-backed extended resources are
// not modelled; docs/divergences.md, the NodeResourcesFit row).
func TestFitScore(t *testing.T) {
	r := func(cpu, mem int64) kRes { return kRes{cpu: cpu, mem: mem} }
	falling := strategy(model.RequestedToCapacityRatio, defaultResources(),
		model.ShapePoint{Utilization: 0, Score: 10}, model.ShapePoint{Utilization: 100, Score: 0})
	rising := strategy(model.RequestedToCapacityRatio, defaultResources(),
		model.ShapePoint{Utilization: 0, Score: 0}, model.ShapePoint{Utilization: 100, Score: 10})
	most, least := strategy(model.MostAllocated, defaultResources()), strategy(model.LeastAllocated, defaultResources())
	nodes := []kResNode{scoreNode("node1", 4000, 10000, pod(r(2000, 4000))), scoreNode("node2", 6000, 10000, pod(r(1000, 2000)))}
	// An existing pod on node1 with a sidecar of its own size.
	sidecar := []kResNode{
		scoreNode("node1", 4000, 10000, kSpec{containers: []kRes{r(1000, 2000)}, sidecars: []kRes{r(1000, 2000)}}),
		scoreNode("node2", 4000, 10000, pod(r(1000, 2000))),
	}
	for _, row := range []scoreRow{
		{name: "test case for ScoringStrategy RequestedToCapacityRatio case1", pod: pod(r(3000, 5000)), nodes: nodes, want: []int64{10, 32}, profile: falling},
		{name: "test case for ScoringStrategy RequestedToCapacityRatio case2", pod: pod(r(3000, 5000)), nodes: nodes, want: []int64{95, 68}, profile: rising},
		{name: "test case for ScoringStrategy MostAllocated", pod: pod(r(1000, 2000)), nodes: nodes, want: []int64{67, 36}, profile: most},
		{name: "test case for ScoringStrategy LeastAllocated", pod: pod(r(1000, 2000)), nodes: nodes, want: []int64{32, 63}, profile: least},
		{name: "test case for ScoringStrategy RequestedToCapacityRatio case1 if PreScore is not called", pod: pod(r(3000, 5000)), nodes: nodes, want: []int64{10, 32}, profile: falling},
		{name: "test case for ScoringStrategy MostAllocated if PreScore is not called", pod: pod(r(1000, 2000)), nodes: nodes, want: []int64{67, 36}, profile: most},
		{name: "test case for ScoringStrategy LeastAllocated if PreScore is not called", pod: pod(r(1000, 2000)), nodes: nodes, want: []int64{32, 63}, profile: least},
		{name: "test case for ScoringStrategy MostAllocated with sidecar container", pod: pod(r(1000, 2000)), nodes: sidecar, want: []int64{67, 45}, profile: most},
		{name: "test case for ScoringStrategy LeastAllocated with sidecar container", pod: pod(r(1000, 2000)), nodes: sidecar, want: []int64{32, 55}, profile: least},
	} {
		t.Run(row.name, func(t *testing.T) { row.run(t, leastAllocatedScore{}) })
	}
}
