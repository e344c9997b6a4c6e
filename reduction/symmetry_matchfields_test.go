package reduction_test

import (
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// matchFieldsProblem: four identical nodes named 1 to 4 whose hostname
// labels are not their names; web's pods require node 1 or node 2 by
// name (two matchFields terms), and a scale-up leaves the third pod
// Pending. Only the names tell the nodes apart.
func matchFieldsProblem(t testing.TB) *compose.Problem {
	t.Helper()
	b := build.New()
	for i := range 4 {
		b.AddNodes(1, build.Node().CPU(10).Mem(64).Label(model.HostnameKey, []string{"h-a", "h-b", "h-c", "h-d"}[i]))
	}
	name := func(op model.Operator, n string) model.Selector {
		return model.Selector{MatchExpressions: []model.Requirement{{Key: model.NodeNameField, Operator: op, Values: []string{n}}}}
	}
	return scaleUpProblem(t, "matchfields", b,
		build.Template("web").Requests(8, 4).Label("app", "web").RequiredTerm(name(model.OpIn, "1")).RequiredTerm(name(model.OpIn, "2")))
}

// TestSymmetrySameVerdictsWithMatchFields: nodes a pod's matchFields name
// are classes of their own (their NodeFit differs), so the verdicts are
// the same with and without symmetry and the reduced counterexample (the
// scaled-up pod finds no room on nodes 1 and 2) replays unreduced; nodes
// 1 and 2 still merge, and so do nodes 3 and 4, which no term admits.
func TestSymmetrySameVerdictsWithMatchFields(t *testing.T) {
	p := matchFieldsProblem(t)
	on, off := compareVerdicts(t, p)
	if on >= off {
		t.Errorf("symmetry merged nothing (%d states, %d without)", on, off)
	}
	t.Logf("%d states reduced, %d full", on, off)
	prop := schedulableViolated(t, p, "only nodes 1 and 2 are admitted")
	// The two first pods run on the nodes their names admit.
	last := prop.Trace.Steps[len(prop.Trace.Steps)-1].State
	bound := 0
	for i := range last.Pods {
		if n := last.Pods[i].NodeOf(); n >= 0 {
			bound++
			if n > 1 {
				t.Errorf("pod %d on node %d, which no matchFields term admits", i, n+1)
			}
		}
	}
	if bound != 2 {
		t.Errorf("%d pods bound when the third is refused, want 2", bound)
	}
}
