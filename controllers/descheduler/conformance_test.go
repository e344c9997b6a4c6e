package descheduler

import (
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// c8AfterSixPods is shipped case c8 (scale 3) after its six pods ran, as
// Kivi's controller models give it: node 1 lifecycle=on-demand, nodes 2
// and 3 lifecycle=spot; pods 1..6 placed on nodes 1,2,3,1,2,1.
func c8AfterSixPods(profile model.DeschedulerProfile) (*model.Universe, *model.State) {
	b := build.New()
	b.AddNodes(1, build.Node().Name("1").Label("lifecycle", "on-demand"))
	b.AddNodes(1, build.Node().Name("2").Label("lifecycle", "spot"))
	b.AddNodes(1, build.Node().Name("3").Label("lifecycle", "spot"))
	app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app").
		Spread(1, "hostname", model.ScheduleAnyway).Spread(1, "lifecycle", model.ScheduleAnyway).
		Preferred(4, "lifecycle", "spot").Preferred(5, "lifecycle", "on-demand"))
	d := b.AddDeployment("app", app, 6)
	for _, n := range []int{0, 1, 2, 0, 1, 0} {
		b.RunPod(d, n)
	}
	b.U.Descheduler = policy(profile)
	u, s := b.MustBuild()
	s.DeschedulerPending = true
	return u, s
}

// TestConformanceC8 is Kivi's controller models: the hostname constraint is
// unbalanced (node1 {1,4,6}, node2 {2,5}, node3 {3}), one pod moves from
// node 1 to node 3 and it is pod 1; lifecycle (3/3) is balanced.
func TestConformanceC8(t *testing.T) {
	profile := model.DeschedulerProfile{Name: "c8",
		Balance:     []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint},
		Constraints: model.AllConstraints, TopologyBalanceNodeFit: true}
	u, s := c8AfterSixPods(profile)
	next, lines, marks := runCycle(t, u, s)
	want := []string{
		"[descheduler] RemovePodsViolatingTopologySpreadConstraint: pod pod#1 violates its topology spread constraint (topologyKey hostname)",
		"[descheduler] Evicting pod pod#1 from node 1",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if got := evictedBy(s, next); !equalInts(got, []int{1}) {
		t.Errorf("evicted %v, want [1]", got)
	}
	p := next.Pods[0]
	if p.Phase != model.Terminating || !p.WasRunning || next.Queues[model.KubeletQueue][0] != 0 {
		t.Errorf("pod 1 = %+v, kubelet queue %v; want Terminating, WasRunning, queued", p, next.Queues[model.KubeletQueue])
	}
	if !slices.Equal(marks, []model.Mark{model.MarkEvicted(0)}) || next.DeschedulerPending {
		t.Errorf("marks %v pending %v; want MarkEvicted(0), request consumed", marks, next.DeschedulerPending)
	}
	ex := Explain(u, s)
	for _, frag := range []string{"constraint hostname maxSkew 1 ScheduleAnyway", "3=1[3] 2=2[2 5] 1=3[1 4 6], 6 pods: unbalanced",
		"move 1 from 1 to 3: pods [1]", "constraint lifecycle", "on-demand=3[1 4 6] spot=3[2 3 5], 6 pods: balanced"} {
		if !strings.Contains(ex, frag) {
			t.Errorf("Explain lacks %q:\n%s", frag, ex)
		}
	}
	// With the upstream default (DoNotSchedule only) the soft constraints
	// of c8 are not balanced at all.
	profile.Constraints = model.HardConstraints
	u, s = c8AfterSixPods(profile)
	if next, _, _ := runCycle(t, u, s); len(evictedBy(s, next)) != 0 {
		t.Errorf("HardConstraints evicted %v, want nothing", evictedBy(s, next))
	}
}
