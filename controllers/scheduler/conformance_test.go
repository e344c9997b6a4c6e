package scheduler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// c8 builds Kivi's shipped case c8 at scale 3 (Kivi's case C8,
// Kivi's controller models): one on-demand and two spot nodes of 64/64; one
// template (requests 8/8, labels name=app) with ScheduleAnyway spreading
// by Kivi's hostname key and by lifecycle, maxSkew 1, and preferred
// affinity spot 4 / on-demand 5; six Pending unbound pods queued in slot
// order.
func c8(t testing.TB) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node().Label("lifecycle", "on-demand"))
	b.AddNodes(2, build.Node().Label("lifecycle", "spot"))
	app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app").
		Spread(1, model.KiviHostnameKey, model.ScheduleAnyway).Spread(1, "lifecycle", model.ScheduleAnyway).
		Preferred(4, "lifecycle", "spot").Preferred(5, "lifecycle", "on-demand"))
	d := b.AddDeployment("app", app, 6)
	for range 6 {
		b.PendingPod(d, -1)
	}
	b.U.Options.TieBreak = model.LowestIndex
	u, s := b.MustBuild()
	for p := range 6 {
		s.Enqueue(model.SchedulerQueue, p)
	}
	return u, s
}

// TestConformanceC8Order reproduces the placement order of Kivi's controller models
// §9.1 (Kivi, LowestIndex): pods 1..6 land on nodes 1, 2, 3, 1, 2, 1.
//
// The totals differ from Kivi's because the formulas are Kubernetes':
//   - TaintToleration always scores (Kivi only with TAINT): +100×3 on
//     every node, which changes no order;
//   - LeastAllocated divides by capacity, not by the free amount: pod 2 on
//     node 1 is (64−16)·100/64 = 75, Kivi 48·100/56 = 85;
//   - PodTopologySpread weights are ln(size+2) as floats, rounded once per
//     node: pod 4 on node 2 is round(1·ln5 + 2·ln4) = round(4.38) = 4, Kivi
//     1·2 + 2·1 = 4; pod 6 on node 3 is round(ln5 + 3·ln4) = 6, Kivi 5;
//   - BalancedAllocation (Kivi has none) gives 75×1 everywhere: the pod
//     asks the same fraction of cpu and memory of equal nodes, so it never
//     changes a node's balance.
//
// Kivi's totals (affinity + LeastAllocated + spread) are listed next to
// ours; in every row the same node wins, with the same ties.
func TestConformanceC8Order(t *testing.T) {
	rows := []struct {
		totals [3]int64
		kivi   [3]int64
		chosen int // node index
	}{
		{[3]int64{862, 822, 822}, [3]int64{487, 447, 447}, 0},
		{[3]int64{650, 822, 822}, [3]int64{285, 447, 447}, 1}, // tie → lowest index
		{[3]int64{716, 676, 822}, [3]int64{351, 311, 447}, 2},
		{[3]int64{850, 760, 760}, [3]int64{485, 395, 395}, 0},
		{[3]int64{769, 810, 810}, [3]int64{415, 445, 445}, 1}, // tie → lowest index
		{[3]int64{837, 767, 810}, [3]int64{453, 385, 445}, 0},
	}
	// Cycle by cycle: the totals of each pod's cycle on the state the
	// previous placements left.
	u, s := c8(t)
	pr := defaultProfile()
	var c cycle
	for p, row := range rows {
		c.reset(u, s, p)
		c.filter(&pr)
		c.score(&pr)
		if len(c.total) != 3 {
			t.Fatalf("pod %d: %d feasible nodes, want 3", p+1, len(c.total))
		}
		got := [3]int64{c.total[0], c.total[1], c.total[2]}
		if got != row.totals {
			t.Errorf("pod %d: totals %v, want %v (Kivi %v)\n%s", p+1, got, row.totals, row.kivi, Explain(u, s, p))
		}
		if kiviBest := argmaxLowest(row.kivi); kiviBest != row.chosen || argmaxLowest(got) != row.chosen {
			t.Errorf("pod %d: chosen node %d (Kivi %d), want %d", p+1, argmaxLowest(got)+1, kiviBest+1, row.chosen+1)
		}
		s.Pods[p].Node = uint16(argmaxLowest(got) + 1)
	}

	// The whole drain in one step, as Kivi runs it.
	u, s = c8(t)
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	New().Step(tx, s)
	var lines []string
	for _, l := range tx.Lines {
		lines = append(lines, l.String())
	}
	want := []string{
		"[kube-scheduler] Scheduled pod pod#1 on node 1",
		"[kube-scheduler] Scheduled pod pod#2 on node 2",
		"[kube-scheduler] Scheduled pod pod#3 on node 3",
		"[kube-scheduler] Scheduled pod pod#4 on node 1",
		"[kube-scheduler] Scheduled pod pod#5 on node 2",
		"[kube-scheduler] Scheduled pod pod#6 on node 1",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if len(tx.Choices()) != 0 {
		t.Errorf("LowestIndex branched: choices %v", tx.Choices())
	}
}

func argmaxLowest(xs [3]int64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// TestConformanceC8Pod1Breakdown checks pod 1's per-plugin scores against
// Kivi's controller models' breakdown: affinity 200/160/160 (raw 5/4/4),
// spread 200 each (all raw 0); LeastAllocated is 87 as in Kivi because
// all nodes are empty (56·100/64 either way); BalancedAllocation, which
// Kivi lacks, 75 each.
func TestConformanceC8Pod1Breakdown(t *testing.T) {
	u, s := c8(t)
	pr := defaultProfile()
	var c cycle
	c.reset(u, s, 0)
	c.filter(&pr)
	c.score(&pr)
	want := map[string][3]int64{
		"TaintToleration":   {300, 300, 300},
		"NodeAffinity":      {200, 160, 160},
		"NodeResourcesFit":  {87, 87, 87},
		"PodTopologySpread": {200, 200, 200},
		// Empty 64/64 nodes, pod 8/8: balance 100 before and after.
		"NodeResourcesBalancedAllocation": {75, 75, 75},
	}
	for k, pl := range pr.scores {
		var got [3]int64
		for j := range got {
			got[j] = c.norm[k][j] * pl.Weight()
		}
		if got != want[pl.Name()] {
			t.Errorf("%s: %v, want %v", pl.Name(), got, want[pl.Name()])
		}
	}
}

// c3 builds Kivi's shipped case c3 at scale 3 after the HPA asked for a
// sixth replica: nodes 1, 2 in zone 1, node 3 in
// zone 2; two Running pods on node 1, one on node 2, two on node 3; hard
// spreading by hostname and by zone, maxSkew 1; the new pod is queued.
func c3(t testing.TB) (*model.Universe, *model.State, int) {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().Zone("1"))
	b.AddNodes(1, build.Node().Zone("2"))
	app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app").
		Spread(1, model.KiviHostnameKey, model.DoNotSchedule).Spread(1, "zone", model.DoNotSchedule))
	d := b.AddDeployment("app", app, 6)
	b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 1).RunPod(d, 2).RunPod(d, 2).PendingPod(d, -1)
	b.AddHPA(5, 6, 91)
	b.WithHPA(d, 1)
	u, s := b.MustBuild()
	s.Enqueue(model.SchedulerQueue, 5)
	return u, s, 5
}

// TestConformanceC3NoFeasibleNode reproduces Kivi's controller models exactly:
// hostname counts {2, 1, 2} (min 1), zone counts {3, 2} (min 2); node 1
// and node 3 fail hostname (2+1−1 = 2 > 1), node 2 fails zone (3+1−2 = 2 >
// 1): "No feasible node!", and the state fails on pod 6.
func TestConformanceC3NoFeasibleNode(t *testing.T) {
	u, s, pod := c3(t)
	pr := defaultProfile()
	var c cycle
	c.reset(u, s, pod)
	c.filter(&pr)
	if len(c.feasible) != 0 {
		t.Fatalf("feasible nodes %v, want none", c.feasible)
	}
	if c.hardMin[0] != 1 || c.hardMin[1] != 2 {
		t.Errorf("global minimums hostname %d zone %d, want 1 and 2", c.hardMin[0], c.hardMin[1])
	}
	for n := range u.Nodes {
		if pr.filters[c.rejectedBy[n]].Name() != "PodTopologySpread" || c.status[n].Code != Unschedulable {
			t.Errorf("node %d: rejected by filter %d with %v, want PodTopologySpread Unschedulable", n+1, c.rejectedBy[n], c.status[n].Code)
		}
	}
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	New().Step(tx, s)
	if got := fmt.Sprint(tx.Lines); got != "[[kube-scheduler] Pod pod#6 cannot be scheduled: 0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints]" {
		t.Errorf("trace %s", got)
	}
	if s.Failed != model.FailNoFeasibleNode || int(s.FailedArg) != pod {
		t.Errorf("failure %d (%d), want FailNoFeasibleNode (%d)", s.Failed, s.FailedArg, pod)
	}
	if !s.Empty(model.HPAQueue) || !s.Empty(model.KubeletQueue) {
		t.Errorf("a failed cycle enqueued work: %v", s.Queues)
	}
}
