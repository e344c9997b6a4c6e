package events

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// drainCluster builds two nodes, web's two replicas on the first, the
// budgets given, and a drain of the first node with opts.
func drainCluster(t *testing.T, opts model.DrainOptions, pdbs ...model.PodDisruptionBudget) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node())
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(8, 8).Label("app", "web")), 2)
	b.RunPod(web, 0).RunPod(web, 0)
	b.U.PDBs = pdbs
	b.AddEvent(model.Event{Kind: model.Drain, Nodes: []int{0}, Drain: opts})
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = InitialPhase(u)
	return u, s
}

func budget(name string, min *model.IntOrPercent) model.PodDisruptionBudget {
	return model.PodDisruptionBudget{Name: name, Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}}, MinAvailable: min}
}

// step runs the drain's only successor from s and returns it with its
// trace.
func drainStep(t *testing.T, u *model.Universe, s *model.State) (*model.State, string) {
	t.Helper()
	d := ForEvent(u, 0)
	if !d.Enabled(u, s) {
		t.Fatalf("drain not enabled:\n%s", model.Describe(u, s))
	}
	out := successors(u, s, d)
	if len(out) != 1 {
		t.Fatalf("%d successors, want 1", len(out))
	}
	var lines []string
	for _, l := range out[0].lines {
		lines = append(lines, l.String())
	}
	return out[0].state, strings.Join(lines, "\n")
}

// TestDrainUnreplicatedPod: kubectl's unreplicated filter. Without
// --force a pod that no controller owns fails the drain before any
// eviction (the node stays cordoned, the drain is not a valid end); with
// it the pod is evicted with the others.
func TestDrainUnreplicatedPod(t *testing.T) {
	for _, force := range []bool{false, true} {
		u, s := drainCluster(t, model.DrainOptions{Force: force})
		s.Pods[1].Owner = 0
		next, trace := drainStep(t, u, s)
		d := ForEvent(u, 0).(Drain)
		if !next.Nodes[0].Cordoned {
			t.Errorf("force=%v: node not cordoned", force)
		}
		if force {
			if next.Pods[0].Phase != model.Terminating || next.Pods[1].Phase != model.Terminating {
				t.Errorf("--force: want both pods evicted:\n%s", trace)
			}
			continue
		}
		if !strings.Contains(trace, "cannot delete Pods that declare no controller (use --force to override): pod#2") ||
			next.Pods[0].Phase != model.Running {
			t.Errorf("want the drain to fail before evicting:\n%s", trace)
		}
		if d.Enabled(u, next) || d.ValidEnd(u, next) || !strings.Contains(d.StuckReason(u, next), "failed") {
			t.Errorf("a failed drain: enabled %v, valid end %v, reason %q", d.Enabled(u, next), d.ValidEnd(u, next), d.StuckReason(u, next))
		}
	}
}

// TestDrainTwoBudgets: an eviction answered 500 (two budgets select the
// pod) is not retried: the drain fails.
func TestDrainTwoBudgets(t *testing.T) {
	u, s := drainCluster(t, model.DrainOptions{}, budget("a", nil), budget("b", nil))
	next, trace := drainStep(t, u, s)
	if !strings.Contains(trace, `error when evicting pods/"pod#1": This pod has more than one PodDisruptionBudget`) ||
		strings.Contains(trace, "will retry") {
		t.Errorf("want a 500 without retry:\n%s", trace)
	}
	if d := ForEvent(u, 0).(Drain); d.Enabled(u, next) || d.ValidEnd(u, next) {
		t.Errorf("the drain should have failed")
	}
}

// TestDrainWaitsForEver: a budget that allows no disruption refuses
// every eviction; without a timeout the drain is disabled and not a valid
// end, and says why; a budget change in the state (a third replica
// running elsewhere) enables it again.
func TestDrainWaitsForEver(t *testing.T) {
	u, s := drainCluster(t, model.DrainOptions{}, budget("web", &model.IntOrPercent{Value: 2}))
	next, trace := drainStep(t, u, s)
	if !strings.Contains(trace, "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently") {
		t.Errorf("want the refusal in the trace:\n%s", trace)
	}
	d := ForEvent(u, 0).(Drain)
	if d.Enabled(u, next) || d.ValidEnd(u, next) {
		t.Fatalf("want a drain waiting: enabled %v, valid end %v", d.Enabled(u, next), d.ValidEnd(u, next))
	}
	if why := d.StuckReason(u, next); !strings.Contains(why, "waits for ever: the eviction of a pod of deployment web is refused") {
		t.Errorf("reason %q", why)
	}
	// A third healthy replica on the other node: one disruption allowed.
	next.Pods[2] = next.Pods[0]
	next.Pods[2].Node = 2
	if !d.Enabled(u, next) {
		t.Errorf("a budget that allows an eviction should enable the drain")
	}
}

// TestDrainFinishesAndUncordons: evicted pods must be gone before the
// node counts as drained; with Uncordon a last step makes it schedulable.
func TestDrainFinishesAndUncordons(t *testing.T) {
	u, s := drainCluster(t, model.DrainOptions{Uncordon: true})
	next, _ := drainStep(t, u, s)
	d := ForEvent(u, 0).(Drain)
	if d.Enabled(u, next) {
		t.Fatalf("enabled while the evicted pods are terminating")
	}
	next.Pods[0], next.Pods[1] = model.PodState{}, model.PodState{}
	next, trace := drainStep(t, u, next)
	if !strings.Contains(trace, "node/1 drained") || d.ValidEnd(u, next) {
		t.Errorf("want drained, and the uncordon still to come:\n%s", trace)
	}
	next, trace = drainStep(t, u, next)
	if next.Nodes[0].Cordoned || !d.ValidEnd(u, next) || d.Enabled(u, next) || !strings.Contains(trace, "uncordoned") {
		t.Errorf("want uncordoned and finished:\n%s", trace)
	}
}

// TestFirstSlotDrainThatFails: a drain in the First slot that gives up
// has ended, which opens the Main phase, and stays an invalid end.
func TestFirstSlotDrainThatFails(t *testing.T) {
	b := build.New()
	b.AddNodes(2, build.Node())
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(8, 8)), 1)
	b.RunPod(web, 0)
	b.AddEvent(model.Event{Kind: model.Drain, Slot: model.First, Nodes: []int{0}})
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Init = InitialPhase(u)
	s.Pods[0].Owner = 0
	next, _ := drainStep(t, u, s)
	if next.Init != model.InitMain {
		t.Errorf("init phase %d, want main", next.Init)
	}
	if ForEvent(u, 0).(Drain).ValidEnd(u, next) {
		t.Errorf("a failed drain is not a valid end")
	}
}
