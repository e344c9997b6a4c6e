package scheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestBalancedAllocationScores pins the raw score on values worked out by
// hand from upstream's definition (balance = trunc((1 − |f_cpu − f_mem|/2)
// · 100), score = 50 + (50 + after − before)/2).
func TestBalancedAllocationScores(t *testing.T) {
	for _, tc := range []struct {
		name                                                 string
		usedCPU, usedMem, podCPU, podMem, allocCPU, allocMem int64
		want                                                 int64
	}{
		// Empty node, fractions 0.7 and 0.4: balance 100 → 85.
		{"fidelity example n2", 0, 0, 700, 1024, 1000, 2560, 67},
		// Fractions 0.56 and 0.571: balance 100 → 99.
		{"fidelity example n5", 0, 0, 700, 1024, 1250, 1792, 74},
		// The pod evens out a node busy on cpu: 0.5/0 (75) → 0.5/0.5 (100).
		{"improves", 50, 0, 0, 50, 100, 100, 87},
		// A pod adding the same fraction of each keeps σ (0.1): 75.
		{"unchanged", 40, 20, 10, 10, 100, 100, 75},
		// A pod in the node's own ratio still widens the gap: 0.2/0.4 (90)
		// → 0.4/0.8 (80).
		{"same ratio", 20, 40, 20, 40, 100, 100, 70},
		// Fractions are capped at 1: 1/0.2 before (60), 1/0.4 after (70).
		{"capped", 150, 20, 50, 20, 100, 100, 80},
		// A resource the node has none of is left out: σ = 0 either way.
		{"no memory", 0, 0, 50, 50, 100, 0, 75},
		// Worst case, the pod takes all cpu and no memory: 100 → 50.
		{"worst", 0, 0, 100, 0, 100, 100, 50},
	} {
		got := balancedChange(tc.usedCPU, tc.usedMem, tc.podCPU, tc.podMem, tc.allocCPU, tc.allocMem)
		if got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// balancedPair builds docs/divergences.md's BalancedAllocation example:
// nodes n2 (1000m, 2560Mi) and n5 (1250m, 1792Mi), a bare pending pod of
// the given requests.
func balancedPair(t *testing.T, cpu, mem int64) (*model.Universe, *model.State, int) {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node().Name("n2").CPU(1000).Mem(2560))
	b.AddNodes(1, build.Node().Name("n5").CPU(1250).Mem(1792))
	d := b.AddDeployment("app", b.AddTemplate(build.Template("app").Requests(cpu, mem)), 1)
	b.PendingPod(d, -1)
	u, s := b.MustBuild()
	s.Pods[0].Owner = 0
	return u, s, 0
}

// TestBalancedAllocationDecides: LeastAllocated prefers n2 (45 to 43) and
// BalancedAllocation n5 (74 to 67), which wins the total, as kube-scheduler
// v1.36 decides on this snapshot (fidelity/scheddiff measured it).
func TestBalancedAllocationDecides(t *testing.T) {
	u, s, pod := balancedPair(t, 700, 1024)
	feasible, top := Decide(u, s, pod)
	if !slices.Equal(feasible, []int{0, 1}) || !slices.Equal(top, []int{1}) {
		t.Fatalf("feasible %v top %v, want [0 1] and [1]\n%s", feasible, top, Explain(u, s, pod))
	}
	if got := referenceHosts(u, s, pod); !slices.Equal(got, []int{1}) {
		t.Errorf("reference top %v, want [1]", got)
	}
}

// TestBalancedAllocationSkipsBestEffort: a pod without requests is not
// scored by BalancedAllocation, so the two nodes tie (LeastAllocated gives
// both 100).
func TestBalancedAllocationSkipsBestEffort(t *testing.T) {
	u, s, pod := balancedPair(t, 0, 0)
	pr := defaultProfile()
	var c cycle
	c.reset(u, s, pod)
	top := c.run(&pr)
	if !c.skipped[len(pr.scores)-1] || pr.scores[len(pr.scores)-1].Name() != "NodeResourcesBalancedAllocation" {
		t.Errorf("BalancedAllocation did not skip a best-effort pod")
	}
	if !slices.Equal(top, []int{0, 1}) {
		t.Errorf("top %v, want the tie [0 1]\n%s", top, Explain(u, s, pod))
	}
}

// TestBalancedResources: NodeResourcesBalancedAllocationArgs' resources.
// LeastAllocated ties n1 (2000m, 2Gi) and n2 (1250m, 5Gi) for a pod of
// 500m and 512Mi, and BalancedAllocation over cpu and memory prefers n1;
// the same two resources in the other order score the same through the
// general path; cpu alone deviates from nothing, so the nodes tie.
func TestBalancedResources(t *testing.T) {
	for _, c := range []struct {
		resources []string
		want      []int
	}{
		{nil, []int{0}},
		{[]string{"memory", "cpu"}, []int{0}},
		{[]string{"cpu"}, []int{0, 1}},
		{[]string{"cpu", "memory", "nvidia.com/gpu"}, []int{0}},
	} {
		b := build.New()
		b.AddNodes(1, build.Node().CPU(2000).Mem(2048))
		b.AddNodes(1, build.Node().CPU(1250).Mem(5120))
		b.PendingPod(b.AddDeployment("app", b.AddTemplate(build.Template("app").Requests(500, 512)), 1), -1)
		b.U.Scheduler.Profile = model.SchedulerProfile{BalancedResources: c.resources}
		u, s := b.MustBuild()
		if _, top := Decide(u, s, 0); !slices.Equal(top, c.want) {
			t.Errorf("resources %v: top %v, want %v\n%s", c.resources, top, c.want, Explain(u, s, 0))
		}
	}
}

// TestBalanceOfThree: three fractions, the root of the mean square
// deviation: 0.25, 0.5, 0.75 deviate by √(0.125/3) ≈ 0.204, so 79.
func TestBalanceOfThree(t *testing.T) {
	if got := balanceOf([]float64{0.25, 0.5, 0.75}); got != 79 {
		t.Errorf("balanceOf = %d, want 79", got)
	}
	if got := balanceOf([]float64{0.25}); got != 100 {
		t.Errorf("one fraction: %d, want 100", got)
	}
}
