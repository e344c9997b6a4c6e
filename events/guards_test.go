package events

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// oneNode builds a single-node cluster of capacity cpu with one Running
// pod of usage used, and the given events.
func oneNode(t *testing.T, cpu, used int64, evs ...model.Event) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node().CPU(cpu))
	app := b.AddTemplate(build.Template("app").Requests(1, 1))
	web := b.AddDeployment("web", app, 1)
	b.RunPodCPU(web, 0, used)
	for _, e := range evs {
		b.AddEvent(e)
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = InitialPhase(u)
	return u, s
}

// Source: Kivi's process scheduling (First before the controllers,
// Main with them, after-stable once quiescent) and Kivi's event models.
func TestSlotGate(t *testing.T) {
	tests := []struct {
		slot model.EventSlot
		init uint8
		want bool
	}{
		{model.First, model.InitFirst, true},
		{model.First, model.InitMain, false},
		{model.First, model.InitStable, false},
		{model.Main, model.InitFirst, false},
		{model.Main, model.InitMain, true},
		{model.Main, model.InitStable, true},
		{model.AfterStable, model.InitFirst, false},
		{model.AfterStable, model.InitMain, false},
		{model.AfterStable, model.InitStable, true},
	}
	for _, tc := range tests {
		s := &model.State{Init: tc.init}
		if got := mayMove(tc.slot, s); got != tc.want {
			t.Errorf("slot %d, init %d: mayMove = %t, want %t", tc.slot, tc.init, got, tc.want)
		}
	}
}

// Source: Kivi's event models — kernelPanic ignores `first`; the init process
// waits for the First slot only when it has entries.
func TestInitialPhase(t *testing.T) {
	tests := []struct {
		name string
		evs  []model.Event
		want uint8
	}{
		{"no events", nil, model.InitMain},
		{"main only", []model.Event{{Kind: model.NodeFailure}}, model.InitMain},
		{"first command", []model.Event{{Kind: model.NodeFailure}, {Kind: model.CreateTargetDeployment, Slot: model.First}}, model.InitFirst},
		{"first kernel panic is main", []model.Event{{Kind: model.KernelPanic, Slot: model.First}}, model.InitMain},
		{"after-stable only", []model.Event{{Kind: model.NodeFailure, Slot: model.AfterStable}}, model.InitMain},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, _ := oneNode(t, 64, 1, tc.evs...)
			if got := InitialPhase(u); got != tc.want {
				t.Errorf("InitialPhase = %d, want %d", got, tc.want)
			}
		})
	}
}

// Source: Kivi's event models — panic: Ready ∧ cpuLeft·100/cpu ≤ 2 (integer
// division truncating toward zero, negative cpuLeft qualifies); recover:
// Unhealthy ∧ > 2; a NotReady node does neither.
func TestKernelPanicGuard(t *testing.T) {
	tests := []struct {
		name      string
		cpu, used int64
		status    model.NodeStatus
		want      bool
	}{
		{"3 % free, ready", 64, 62, model.Ready, false},     // 2·100/64 = 3
		{"1 % free, ready", 64, 63, model.Ready, true},      // 100/64 = 1
		{"exactly 2 %, ready", 100, 98, model.Ready, true},  // boundary ≤ 2
		{"exactly 3 %, ready", 100, 97, model.Ready, false}, // 3 > 2
		{"overloaded, ready", 64, 65, model.Ready, true},    // -100/64 = -1
		{"1 % free, not ready", 64, 63, model.NotReady, false},
		{"1 % free, unhealthy", 64, 63, model.Unhealthy, false},
		{"3 % free, unhealthy", 64, 62, model.Unhealthy, true},
		{"3 % free, not ready", 64, 62, model.NotReady, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, s := oneNode(t, tc.cpu, tc.used, model.Event{Kind: model.KernelPanic})
			s.Nodes[0].Status = tc.status
			if got := ForEvent(u, 0).Enabled(u, s); got != tc.want {
				t.Errorf("Enabled = %t, want %t (%d CPU left)", got, tc.want, cpuLeft(u, s, 0))
			}
		})
	}
}

// Source: Kivi's event models' notation — Q5-empty is the node-controller, HPA,
// scheduler, kubelet and deployment queues; the descheduler and
// taint-manager triggers do not count.
func TestQuiescenceGuard(t *testing.T) {
	tests := []struct {
		name string
		set  func(s *model.State)
		want bool
	}{
		{"all empty", func(s *model.State) {}, true},
		{"scheduler", func(s *model.State) { s.Enqueue(model.SchedulerQueue, 0) }, false},
		{"kubelet", func(s *model.State) { s.Enqueue(model.KubeletQueue, 0) }, false},
		{"deployment", func(s *model.State) { s.Enqueue(model.DeploymentQueue, 0) }, false},
		{"hpa", func(s *model.State) { s.Enqueue(model.HPAQueue, 0) }, false},
		{"node controller", func(s *model.State) { s.Enqueue(model.NodeControllerQueue, 0) }, false},
		{"taint manager", func(s *model.State) { s.Enqueue(model.TaintManagerQueue, 0) }, true},
		{"descheduler", func(s *model.State) { s.DeschedulerPending = true }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, s := oneNode(t, 64, 1, model.Event{Kind: model.CPUChange})
			tc.set(s)
			if got := ForEvent(u, 0).Enabled(u, s); got != tc.want {
				t.Errorf("eventCpuChange guard step enabled = %t, want %t", got, tc.want)
			}
		})
	}
}

// Source: Kivi's event models — the driver waits until the next node is Ready,
// not maintained, and fewer than p nodes are in maintenance.
func TestMaintenanceDriverGuard(t *testing.T) {
	tests := []struct {
		name     string
		parallel int
		mem      []uint8 // next, node PCs
		status   model.NodeStatus
		want     bool
	}{
		{"start", 1, []uint8{0, 0, 0}, model.Ready, true},
		{"next not ready", 1, []uint8{0, 0, 0}, model.NotReady, false},
		{"next unhealthy", 1, []uint8{0, 0, 0}, model.Unhealthy, false},
		{"one started, p=1", 1, []uint8{1, maintStarted, 0}, model.Ready, false},
		{"one down, p=1", 1, []uint8{1, maintDown, 0}, model.Ready, false},
		{"one down, p=2", 2, []uint8{1, maintDown, 0}, model.Ready, true},
		{"one done, p=1", 1, []uint8{1, maintDone, 0}, model.Ready, true},
		{"all started", 2, []uint8{2, maintDown, maintDown}, model.Ready, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(2, build.Node())
			b.AddEvent(model.Event{Kind: model.Maintenance, Parallel: tc.parallel})
			u, s := b.MustBuild()
			copy(vars(u, s, 0), tc.mem)
			if next := int(tc.mem[0]); next < len(s.Nodes) {
				s.Nodes[next].Status = tc.status
			}
			m := Maintenance{event: 0}
			if got := m.driverEnabled(u, s); got != tc.want {
				t.Errorf("driverEnabled = %t, want %t", got, tc.want)
			}
		})
	}
}

// Source: Kivi's process scheduling item 5 — the non-end waits are
// init waiting for first_proc, eventCpuChange waiting for a non-empty
// replica set, maintenance waiting for a node, maintenanceNode waiting
// for its end condition.
func TestValidEnd(t *testing.T) {
	t.Run("init", func(t *testing.T) {
		for init, want := range map[uint8]bool{model.InitFirst: false, model.InitMain: true, model.InitStable: true} {
			if got := (Init{}).ValidEnd(nil, &model.State{Init: init}); got != want {
				t.Errorf("init phase %d: ValidEnd = %t, want %t", init, got, want)
			}
		}
	})
	t.Run("eventCpuChange", func(t *testing.T) {
		tests := []struct {
			name  string
			slot  model.EventSlot
			pc    uint8
			phase model.Phase
			want  bool
		}{
			{"before the guard step", model.Main, riseWaiting, model.Pending, true},
			{"body, no started member", model.Main, riseBody, model.Pending, false},
			{"body, member", model.Main, riseBody, model.Running, true},
			{"done", model.Main, riseDone, model.Pending, true},
			{"after-stable, not started", model.AfterStable, riseBody, model.Pending, true},
		}
		for _, tc := range tests {
			u, s := oneNode(t, 64, 1, model.Event{Kind: model.CPUChange, Slot: tc.slot})
			s.Pods[0].Phase = tc.phase
			vars(u, s, 0)[0] = tc.pc
			if got := ForEvent(u, 0).(model.EndChecker).ValidEnd(u, s); got != tc.want {
				t.Errorf("%s: ValidEnd = %t, want %t", tc.name, got, tc.want)
			}
		}
	})
	t.Run("maintenance", func(t *testing.T) {
		tests := []struct {
			name string
			mem  []uint8
			init uint8
			want bool
		}{
			{"driver waiting", []uint8{0, 0, 0}, model.InitMain, false},
			{"node started", []uint8{2, maintStarted, maintDone}, model.InitMain, false},
			{"node down", []uint8{2, maintDone, maintDown}, model.InitMain, false},
			{"all done", []uint8{2, maintDone, maintDone}, model.InitMain, true},
			{"not started yet (First phase)", []uint8{0, 0, 0}, model.InitFirst, true},
		}
		for _, tc := range tests {
			b := build.New()
			b.AddNodes(2, build.Node())
			b.AddEvent(model.Event{Kind: model.Maintenance, Parallel: 1})
			u, s := b.MustBuild()
			s.Init = tc.init
			copy(vars(u, s, 0), tc.mem)
			if got := ForEvent(u, 0).(model.EndChecker).ValidEnd(u, s); got != tc.want {
				t.Errorf("%s: ValidEnd = %t, want %t", tc.name, got, tc.want)
			}
		}
	})
}

// Source: Kivi's event models (r × Δ branches) and §7.4 (k × δ branches, with
// k limited to real deployments).
func TestBranching(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node())
	app := b.AddTemplate(build.Template("app").Requests(1, 1))
	web := b.AddDeployment("web", app, 3)
	b.AddDeployment("db", app, 1)
	b.RunPod(web, 0).RunPod(web, 0).RunPod(web, 0)
	// web's HPA reads the pods' CPU usage: without a reader the rise is
	// not branched over (TestCPUChangeUnreadUsage).
	b.WithHPA(web, b.AddHPA(1, 6, 50))
	b.AddEvent(model.Event{Kind: model.CPUChange, Deployment: web})
	b.AddEvent(model.Event{Kind: model.ScaleDeployment, MaxDeployment: 2})
	u, s := b.MustBuild()
	vars(u, s, 0)[0] = riseBody
	// Under Kivi's tie-breaks every pod is a branch, as in Kivi; else
	// identical pods are one (Tx.ChoosePods), until their usage differs.
	u.Options.TieBreak = model.LowestIndex
	if got, want := len(successors(u, s, ForEvent(u, 0))), 3*6; got != want {
		t.Errorf("eventCpuChange under Kivi's tie-breaks: %d successors, want %d (3 pods × default Δ 1..6)", got, want)
	}
	u.Options.TieBreak = model.BranchOnTies
	if got, want := len(successors(u, s, ForEvent(u, 0))), 1*6; got != want {
		t.Errorf("eventCpuChange: %d successors, want %d (3 identical pods × default Δ 1..6)", got, want)
	}
	s.Pods[1].CPU++
	if got, want := len(successors(u, s, ForEvent(u, 0))), 2*6; got != want {
		t.Errorf("eventCpuChange: %d successors, want %d (2 groups of identical pods × default Δ 1..6)", got, want)
	}
	if got, want := len(successors(u, s, ForEvent(u, 1))), 2*7; got != want {
		t.Errorf("scaleDeployment: %d successors, want %d (2 deployments × default δ −3..3)", got, want)
	}
}

func TestAllOrder(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node())
	b.AddTemplate(build.Template("app").Requests(1, 1).Pattern(model.UsagePoint{CPU: 1}, model.UsagePoint{CPU: 2}))
	b.AddDeployment("web", 0, 1)
	b.AddEvent(model.Event{Kind: model.NodeFailure})
	b.AddEvent(model.Event{Kind: model.KernelPanic})
	u, _ := b.MustBuild()
	var names []string
	for _, p := range All(u, WithKernelPanicAssert(true)) {
		names = append(names, p.Name())
	}
	want := []string{"init", "podCpuChangeWithPattern", "nodeFailure", "kernelPanic"}
	if len(names) != len(want) {
		t.Fatalf("All = %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("All = %v, want %v", names, want)
		}
	}
	if kp := All(u, WithKernelPanicAssert(true))[3].(KernelPanic); !kp.assert {
		t.Error("WithKernelPanicAssert(true) did not reach the kernelPanic process")
	}
	if kp := All(u)[3].(KernelPanic); kp.assert {
		t.Error("the kernel-panic assertion is on by default")
	}
}

// TestFirstInOrder: with model.Options.FirstInOrder (the quick pass) a
// First event waits for every First event written before it; without,
// all of them may go in any order. Main events are not held.
func TestFirstInOrder(t *testing.T) {
	first := model.Event{Kind: model.CreateTargetDeployment, Slot: model.First}
	for _, inOrder := range []bool{false, true} {
		u, s := oneNode(t, 64, 1, first, model.Event{Kind: model.NodeFailure}, first, first)
		u.Options.FirstInOrder = inOrder
		enabled := func() (out []int) {
			for i := range u.Events {
				if ForEvent(u, i).Enabled(u, s) {
					out = append(out, i)
				}
			}
			return out
		}
		want := []int{0, 2, 3}
		if inOrder {
			want = []int{0}
		}
		if got := enabled(); !slices.Equal(got, want) {
			t.Errorf("FirstInOrder %t, nothing run: enabled %v, want %v", inOrder, got, want)
		}
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		ForEvent(u, 0).Step(tx, s)
		want = []int{2, 3}
		if inOrder {
			want = []int{2}
		}
		if got := enabled(); !slices.Equal(got, want) {
			t.Errorf("FirstInOrder %t, the first command run: enabled %v, want %v", inOrder, got, want)
		}
	}
}
