package descheduler

import (
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// stacked is (5,3,1) pods of one ReplicaSet on three nodes
// (TestRemoveDuplicatesUniformly "Evict pods uniformly"), with limits.
func stacked(limits model.Descheduler) (*model.Universe, *model.State) {
	tc := dupCase{nodes: nodesNamed("n1", "n2", "n3"),
		pods:    [][]int{concat(repeat(0, 5), repeat(1, 3), repeat(2, 1))},
		profile: dupProfile(false)}
	u, s := tc.build()
	limits.Profiles = u.Descheduler.Profiles
	*u.Descheduler = limits
	return u, s
}

// TestEnabled is the guard of docs/model.md: policy ∧ pending ∧ ControllerQueuesEmpty.
func TestEnabled(t *testing.T) {
	u, s := stacked(model.Descheduler{})
	c := New()
	if c.Name() != "Descheduler" || !c.Enabled(u, s) {
		t.Fatalf("want enabled Descheduler")
	}
	busy := s.Clone()
	busy.Enqueue(model.KubeletQueue, 0)
	idle := s.Clone()
	idle.DeschedulerPending = false
	hpaOnly := s.Clone()
	hpaOnly.Enqueue(model.HPAQueue, 0) // the HPA queue is not part of ControllerQueuesEmpty
	noPolicy := *u
	noPolicy.Descheduler = nil
	for name, tc := range map[string]struct {
		u    *model.Universe
		s    *model.State
		want bool
	}{"kubelet busy": {u, busy, false}, "no request": {u, idle, false}, "hpa queue": {u, hpaOnly, true}, "no policy": {&noPolicy, s, false}} {
		if got := c.Enabled(tc.u, tc.s); got != tc.want {
			t.Errorf("%s: Enabled = %v, want %v", name, got, tc.want)
		}
	}
}

// TestSkipWithOneReadyNode: descheduler.go skips a cycle with ≤ 1 Ready
// node; the request is consumed all the same.
func TestSkipWithOneReadyNode(t *testing.T) {
	u, s := stacked(model.Descheduler{})
	s.Nodes[1].Status = model.NotReady
	s.Nodes[2].Status = model.Unhealthy
	next, lines, _ := runCycle(t, u, s)
	if len(evictedBy(s, next)) != 0 || len(lines) != 0 || next.DeschedulerPending {
		t.Errorf("evicted %v lines %q pending %v; want a skipped cycle", evictedBy(s, next), lines, next.DeschedulerPending)
	}
	if ex := Explain(u, s); !strings.Contains(ex, "skipped: 1 Ready node") {
		t.Errorf("Explain = %q", ex)
	}
}

// TestLimits: evictions.go checks total, then node, then namespace before
// each eviction; a node limit moves on to the next node, the total limit
// stops the plugin.
func TestLimits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limits model.Descheduler
		want   []int
	}{
		{"unlimited", model.Descheduler{}, []int{1, 2}},
		{"per node 1", model.Descheduler{MaxPerNode: 1}, []int{1}},
		{"total 1", model.Descheduler{MaxTotal: 1}, []int{1}},
		{"namespace 1", model.Descheduler{MaxPerNamespace: 1}, []int{1}},
		{"total 5", model.Descheduler{MaxTotal: 5}, []int{1, 2}},
	} {
		u, s := stacked(tc.limits)
		next, _, marks := runCycle(t, u, s)
		if got := evictedBy(s, next); !equalInts(got, tc.want) {
			t.Errorf("%s: evicted %v, want %v", tc.name, got, tc.want)
		}
		if !slices.Equal(marks, []model.Mark{model.MarkEvicted(0)}) {
			t.Errorf("%s: marks %v", tc.name, marks)
		}
	}
}

// TestCountersResetEveryCycle: with maxNoOfPodsToEvictTotal 1 a second
// cycle evicts again (podEvictor.ResetCounters); Kivi's counters are never
// reset, so its second cycle would evict nothing.
func TestCountersResetEveryCycle(t *testing.T) {
	u, s := stacked(model.Descheduler{MaxTotal: 1})
	next, _, _ := runCycle(t, u, s)
	// The kubelet removes pod 1 and the kubelet queue drains; a new
	// request arrives.
	next.Pods[0] = model.PodState{}
	next.Queues[model.KubeletQueue] = nil
	next.DeschedulerPending = true
	again, _, _ := runCycle(t, u, next)
	if got := evictedBy(next, again); !equalInts(got, []int{2}) {
		t.Errorf("second cycle evicted %v, want [2]", got)
	}
}

// TestPendingBoundPodIsEvictable: Kivi and upstream both evict a Pending
// pod bound to a node; the trace prints Kivi's status 2 and the pod does
// not become WasRunning.
func TestPendingBoundPodIsEvictable(t *testing.T) {
	b := build.New()
	b.AddNodes(2, upstreamNode(""))
	d := b.AddDeployment("web", b.AddTemplate(upstreamPod()), 2)
	b.RunPod(d, 0).PendingPod(d, 0)
	b.U.Descheduler = policy(dupProfile(false))
	u, s := b.MustBuild()
	s.DeschedulerPending = true
	// The Running pod 1 and the Pending pod 2 differ, so the cycle
	// branches over which goes; the second branch evicts pod 2.
	next, lines, _ := runBranch(t, u, s, []int{1})
	want := "[descheduler] RemoveDuplicates: pod pod#2 (Pending) duplicates another pod of its ReplicaSet on node 1\n[descheduler] Evicting pod pod#2 from node 1"
	if strings.Join(lines, "\n") != want {
		t.Errorf("trace %q, want %q", lines, want)
	}
	if p := next.Pods[1]; p.Phase != model.Terminating || p.WasRunning {
		t.Errorf("pod 2 = %+v, want Terminating without WasRunning", p)
	}
}

// TestUnboundAndNotReadyPodsAreInvisible: only pods on the cycle's nodes
// are listed (upstream lists pods per Ready node).
func TestUnboundAndNotReadyPodsAreInvisible(t *testing.T) {
	b := build.New()
	b.AddNodes(3, upstreamNode(""))
	d := b.AddDeployment("web", b.AddTemplate(upstreamPod()), 4)
	b.RunPod(d, 2).RunPod(d, 2).PendingPod(d, -1).PendingPod(d, -1)
	b.U.Descheduler = policy(dupProfile(false))
	u, s := b.MustBuild()
	s.Nodes[2].Status = model.NotReady
	s.DeschedulerPending = true
	if next, _, _ := runCycle(t, u, s); len(evictedBy(s, next)) != 0 {
		t.Errorf("evicted %v, want nothing", evictedBy(s, next))
	}
}

// TestProfilesShareOneCycle: a later plugin sees the earlier evictions
// (the pod is Terminating, so no longer evictable or counted), and the
// limits span all profiles of the cycle.
func TestProfilesShareOneCycle(t *testing.T) {
	u, s := stacked(model.Descheduler{})
	u.Descheduler.Profiles = append(u.Descheduler.Profiles, dupProfile(false))
	next, lines, _ := runCycle(t, u, s)
	if got := evictedBy(s, next); !equalInts(got, []int{1, 2}) || len(lines) != 4 {
		t.Errorf("evicted %v with %d lines, want [1 2] once", got, len(lines))
	}
}
