package reduction_test

import (
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// addedAffinityProblem: four identical nodes, two in pool a and two in
// pool b, under a scheduler profile whose addedAffinity admits pool a
// only and prefers pool b (a preference the selector makes moot); web's
// two pending pods fill pool a and a scale-up leaves the third Pending.
// Only the label tells the pools apart.
func addedAffinityProblem(t testing.TB) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().CPU(10).Mem(64).Label("pool", "a"))
	b.AddNodes(2, build.Node().CPU(10).Mem(64).Label("pool", "b"))
	in := func(v string) model.Selector {
		return model.Selector{MatchExpressions: []model.Requirement{{Key: "pool", Operator: model.OpIn, Values: []string{v}}}}
	}
	b.U.Scheduler.Profile.AddedAffinity = &model.AddedAffinity{Required: true, Terms: []model.Selector{in("a")},
		Preferred: []model.PreferredTerm{{Weight: 10, Term: in("b")}}}
	return scaleUpProblem(t, "addedaffinity", b, build.Template("web").Requests(8, 4).Label("app", "web"))
}

// scaleUpProblem: on b's nodes, Deployment web of template tmpl has two
// pending pods in the scheduler's queue, and a kubectl scale adds a third
// once the cluster is quiet; the intent is pod_always_schedulable.
func scaleUpProblem(t testing.TB, name string, b *build.Builder, tmpl *build.TemplateBuilder) *compose.Problem {
	t.Helper()
	dw := b.AddDeployment("web", b.AddTemplate(tmpl), 2)
	for range 2 {
		b.PendingPod(dw, -1)
	}
	b.AddEvent(model.Event{Kind: model.ScaleDeployment, Slot: model.AfterStable, Deployment: dw, MaxDeployment: dw + 1, MaxDelta: 1})
	b.Slots = 4
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		s.Enqueue(model.SchedulerQueue, i)
	}
	s.Init = model.InitMain
	p, err := compose.NewProblemFrom(name, u, s, []model.IntentDecl{{Name: "pod_always_schedulable"}}, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// schedulableViolated returns p's pod_always_schedulable result with
// symmetry on, failing t unless it is violated with a trace.
func schedulableViolated(t *testing.T, p *compose.Problem, why string) checker.PropertyResult[*model.State] {
	t.Helper()
	for _, prop := range checkResult(t, p, false).Properties {
		if prop.Name == "pod_always_schedulable" {
			if prop.Verdict != checker.Violated || prop.Trace == nil || len(prop.Trace.Steps) == 0 {
				t.Fatalf("pod_always_schedulable %v, want violated with a trace (%s)", prop.Verdict, why)
			}
			return prop
		}
	}
	t.Fatal("no pod_always_schedulable verdict")
	return checker.PropertyResult[*model.State]{}
}

// TestSymmetrySameVerdictsWithAddedAffinity: the pools, told apart only by
// the label the profile's addedAffinity reads, are separate node classes,
// so the verdicts are the same with and without symmetry and the reduced
// counterexample (the scaled-up pod finds no node in pool a) replays
// unreduced; the two nodes of each pool still merge.
func TestSymmetrySameVerdictsWithAddedAffinity(t *testing.T) {
	p := addedAffinityProblem(t)
	on, off := compareVerdicts(t, p)
	if on >= off {
		t.Errorf("symmetry merged nothing (%d states, %d without)", on, off)
	}
	t.Logf("%d states reduced, %d full", on, off)
	schedulableViolated(t, p, "pool b is off limits")
}
