package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// cpuChangeProblem: three nodes, web (3 replicas) and db, and an
// eventCpuChange of web once the cluster is first quiet, with a second
// event or controller per variant: 0, a node failure; 1, a drain of node
// 1 and a RemoveDuplicates descheduler; 2, an HPA on web with a memory
// metric only; 3, a kernelPanic event (which reads the nodes' load).
// forceRead makes the CPU usage read whatever the universe says.
func cpuChangeProblem(t *testing.T, variant int, forceRead bool) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(3, build.Node().CPU(20).Mem(64))
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web")), 3)
	db := b.AddDeployment("db", b.AddTemplate(build.Template("db").Requests(4, 4).Label("app", "db")), 1)
	b.RunPod(web, 0).RunPod(web, 0).RunPod(web, 1).RunPod(db, 2)
	b.AddEvent(model.Event{Kind: model.CPUChange, Deployment: web, Slot: model.AfterStable, MaxDelta: 3, DeltaUnit: 4})
	switch variant {
	case 0:
		b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 1})
	case 1:
		b.AddEvent(model.Event{Kind: model.Drain, Slot: model.AfterStable, Nodes: []int{0}})
		b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "dup", Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
	case 2:
		b.U.HPAs = append(b.U.HPAs, model.HPA{Min: 3, Max: 6, Metrics: []model.Metric{{Resource: model.Memory, Target: model.Utilization, Value: 100}}})
		b.WithHPA(web, len(b.U.HPAs))
	case 3:
		b.AddEvent(model.Event{Kind: model.KernelPanic, Slot: model.AfterStable})
	}
	b.Slots = 8
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	if want := variant == 3; u.ReadsCPUUsage != want {
		t.Fatalf("variant %d: ReadsCPUUsage %v, want %v", variant, u.ReadsCPUUsage, want)
	}
	u.ReadsCPUUsage = u.ReadsCPUUsage || forceRead
	s.Init = model.InitMain
	decls := []model.IntentDecl{
		{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-1"}},
		{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}},
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("cpuchange%d", variant), u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUnreadCPUUsageSameVerdicts: where nothing reads the pods' CPU usage,
// eventCpuChange does not follow which pod rises by how much
// (events.CPUChange.unreadRise); every intent then gets the verdict it
// gets when the rise is followed, in fewer states.
func TestUnreadCPUUsageSameVerdicts(t *testing.T) {
	for variant := range 4 {
		t.Run(fmt.Sprint(variant), func(t *testing.T) {
			opts := checker.Options{CollectAll: true, Workers: 1}
			reduced, err := cpuChangeProblem(t, variant, false).Check(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			followed, err := cpuChangeProblem(t, variant, true).Check(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range followed.Results {
				got := reduced.Result(r.Name)
				if got == nil || got.Verdict != r.Verdict {
					t.Errorf("%s: %v with the rise not followed, %v followed", r.Name, got, r.Verdict)
				}
			}
			if variant == 3 {
				if reduced.Stats.States != followed.Stats.States {
					t.Errorf("kernelPanic reads the load: %d states, want %d", reduced.Stats.States, followed.Stats.States)
				}
				return
			}
			if reduced.Stats.States >= followed.Stats.States {
				t.Errorf("%d states with the rise not followed, not fewer than %d", reduced.Stats.States, followed.Stats.States)
			}
			t.Logf("%d states, %d with the rise followed", reduced.Stats.States, followed.Stats.States)
			for _, r := range reduced.Results {
				t.Logf("%s %v %s", r.Name, r.Verdict, r.Reason)
			}
		})
	}
}
