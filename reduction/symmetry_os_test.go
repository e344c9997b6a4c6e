package reduction_test

import (
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// osProblem is a mixed cluster: two Linux nodes and one Windows node (by
// their kubernetes.io/os labels), and pods that name an OS with no
// nodeSelector for it, which the scheduler may bind to a node of the
// other OS and the kubelet then rejects (a pod labelled kubernetes.io/os:
// linux; with field, one whose spec.os.name is windows). The Linux nodes
// are interchangeable, the Windows node is not one of them.
func osProblem(t testing.TB, field bool) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().CPU(4).Mem(8).Label(model.OSLabel, "linux"))
	b.AddNodes(1, build.Node().CPU(4).Mem(8).Label(model.OSLabel, "windows"))
	tb := build.Template("app").Requests(1, 1).Label("app", "app")
	name := "os-label"
	if field {
		tb.OS("windows")
		name = "os-field"
	} else {
		tb.Label(model.OSLabel, "linux")
	}
	d := b.AddDeployment("app", b.AddTemplate(tb), 2)
	return twoPendingProblem(t, b, d, name, "no_oscillation_rejection")
}

// twoPendingProblem builds b with deployment d's two pods Pending in the
// scheduler's queue, the initial sync done, and the intents
// pod_always_schedulable and intent about d.
func twoPendingProblem(t testing.TB, b *build.Builder, d int, name, intent string) *compose.Problem {
	t.Helper()
	b.PendingPod(d, -1).PendingPod(d, -1)
	b.Slots = 5
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Enqueue(model.SchedulerQueue, 0)
	s.Enqueue(model.SchedulerQueue, 1)
	s.Init = model.InitMain
	decls := []model.IntentDecl{{Name: "pod_always_schedulable"}, {Name: intent, Params: map[string]any{"did": d + 1}}}
	p, err := compose.NewProblemFrom(name, u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// violatedAlike checks that p violates intent with symmetry, that the
// verdicts agree with the full search's, and that symmetry still merges
// states.
func violatedAlike(t *testing.T, p *compose.Problem, intent string) {
	t.Helper()
	res := checkResult(t, p, false)
	if r, ok := res.Property(intent); !ok || r.Verdict != checker.Violated {
		t.Fatalf("%s: %s %v (found %v), want violated", p.Name, intent, r.Verdict, ok)
	}
	on, off := compareVerdicts(t, p)
	t.Logf("%s: %d states reduced, %d full", p.Name, on, off)
	if on >= off {
		t.Errorf("%s: symmetry merged nothing (%d states, %d without)", p.Name, on, off)
	}
}

// osClusters are osProblem's variants for the symmetry property tests
// (symmetricClusters).
func osClusters(t testing.TB) []symCluster {
	return []symCluster{{"os-label", osProblem(t, false)}, {"os-field", osProblem(t, true)}}
}

// TestSymmetryOSSameVerdicts (d): the rejection loop is found with and
// without symmetry, and the Linux nodes still merge states.
func TestSymmetryOSSameVerdicts(t *testing.T) {
	for _, field := range []bool{false, true} {
		violatedAlike(t, osProblem(t, field), "no_oscillation_rejection")
	}
}
