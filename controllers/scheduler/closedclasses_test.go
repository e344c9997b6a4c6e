package scheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// twoNodes builds nodes n1 and n2 (cpu, mem each) and one pending pod of
// template tb; n2 is not Ready when notReady.
func twoNodes(t *testing.T, tb *build.TemplateBuilder, cpu1, mem1, cpu2, mem2 int64, notReady bool) (feasible, top []int) {
	t.Helper()
	return twoNodesIn(t, build.New(), tb, cpu1, mem1, cpu2, mem2, notReady)
}

func twoNodesIn(t *testing.T, b *build.Builder, tb *build.TemplateBuilder, cpu1, mem1, cpu2, mem2 int64, notReady bool) (feasible, top []int) {
	t.Helper()
	b.AddNodes(1, build.Node().Name("n1").CPU(cpu1).Mem(mem1))
	b.AddNodes(1, build.Node().Name("n2").CPU(cpu2).Mem(mem2))
	b.PendingPod(b.AddDeployment("app", b.AddTemplate(tb.Label("app", "x")), 1), -1)
	u, s := b.MustBuild()
	if notReady {
		s.Nodes[1].Status = model.NotReady
	}
	return Decide(u, s, 0)
}

// TestNotReadyTaintsTolerated: a not-Ready node carries the not-ready
// taints; a pod tolerating them may go there, others may not.
func TestNotReadyTaintsTolerated(t *testing.T) {
	if f, _ := twoNodes(t, build.Template("a").Requests(1, 1), 8, 8, 8, 8, true); !slices.Equal(f, []int{0}) {
		t.Errorf("feasible %v, want only n1", f)
	}
	if f, _ := twoNodes(t, build.Template("a").Requests(1, 1).TolerateAll(), 8, 8, 8, 8, true); !slices.Equal(f, []int{0, 1}) {
		t.Errorf("tolerating everything: feasible %v, want n1 and n2", f)
	}
	// Tolerating the NoSchedule taint is enough: the API server's
	// DefaultTolerationSeconds plugin gave every pod the not-ready
	// NoExecute toleration (for 300 s).
	noSchedule := func() *build.TemplateBuilder {
		return build.Template("a").Requests(1, 1).Toleration(model.NotReadyTaintKey, "", model.NoSchedule)
	}
	if f, _ := twoNodes(t, noSchedule(), 8, 8, 8, 8, true); !slices.Equal(f, []int{0, 1}) {
		t.Errorf("tolerating NoSchedule: feasible %v, want n1 and n2", f)
	}
	// Under Kivi's lifecycle there are no default tolerations: NoExecute
	// stays untolerated.
	kivi := build.New()
	kivi.U.Options.KiviLifecycle = true
	if f, _ := twoNodesIn(t, kivi, noSchedule(), 8, 8, 8, 8, true); !slices.Equal(f, []int{0}) {
		t.Errorf("tolerating NoSchedule under Kivi's lifecycle: feasible %v, want only n1", f)
	}
}

// TestNonZeroRequestsScored: LeastAllocated scores a missing request as
// its default (docs/divergences.md's example: n2 has more memory, so 200Mi
// weigh less there), BalancedAllocation skips the pod, and the filter
// reads the requests as written.
func TestNonZeroRequestsScored(t *testing.T) {
	if _, top := twoNodes(t, build.Template("a"), 1000, 1024, 1000, 1280, false); !slices.Equal(top, []int{0, 1}) {
		t.Errorf("requests as written: top %v, want a tie", top)
	}
	if _, top := twoNodes(t, build.Template("a").NonZero(100, 200), 1000, 1024, 1000, 1280, false); !slices.Equal(top, []int{1}) {
		t.Errorf("non-zero requests: top %v, want n2", top)
	}
}

// TestInvalidValueInPreferredTerm: NodeAffinity's PreScore fails on a
// preferred term with an invalid value, so a cycle that scores places the
// pod nowhere; with one feasible node there is no scoring.
func TestInvalidValueInPreferredTerm(t *testing.T) {
	tb := func() *build.TemplateBuilder {
		return build.Template("a").Requests(1, 1).Preferred(1, "disk", "ssd!")
	}
	if f, top := twoNodes(t, tb(), 8, 8, 8, 8, false); len(f) != 0 || len(top) != 0 {
		t.Errorf("two feasible nodes: feasible %v top %v, want the pod placed nowhere", f, top)
	}
	if f, top := twoNodes(t, tb(), 8, 8, 8, 8, true); !slices.Equal(f, []int{0}) || !slices.Equal(top, []int{0}) {
		t.Errorf("one feasible node: feasible %v top %v, want n1", f, top)
	}
}
