package kivitest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/kivitest"
	"github.com/kivi-go/kivi/model"
)

// fakeT records failures instead of failing, to test Verify itself.
type fakeT struct {
	testing.TB
	errors []string
}

func (f *fakeT) Errorf(format string, args ...any) { f.errors = append(f.errors, format) }
func (f *fakeT) Helper()                           {}
func (f *fakeT) Name() string                      { return "fake" }

func TestVerifyFailsOnViolation(t *testing.T) {
	ft := &fakeT{TB: t}
	res := kivitest.Verify(ft, kivitest.Case("c3", 3, false), kivitest.Original(), kivitest.Workers(1))
	if len(ft.errors) != 1 || len(res.Violated) == 0 || !strings.Contains(res.Text, "cannot be scheduled: 0/3 nodes are available") {
		t.Fatalf("errors %v, result %+v", ft.errors, res)
	}
}

func TestVerifyPassesWhenIntentsHold(t *testing.T) {
	kivitest.Verify(t, kivitest.Case("c3", 3, true), kivitest.Original())
}

func TestScalingSearchReportsTheSetup(t *testing.T) {
	res := kivitest.Check(t, kivitest.Case("c5", 3, false), kivitest.Workers(1))
	if res.Setup != "{node type 0: 1, node type 1: 1, deployment type 0: 2}" || res.Violated[0] != "no_oscillation_eviction" {
		t.Fatalf("%+v", res)
	}
}

func TestCustomPredicateAndJSON(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KIVI_JSON", dir)
	// Never more than 3 Running pods on one node: C3's nodes hold 2.
	atMostThree := intents.NewPredicate("at_most_three_per_node", "no node runs more than 3 pods", func(v model.View) bool {
		for _, n := range v.Nodes() {
			if v.PodsOnNode(n, "") > 3 {
				return false
			}
		}
		return true
	})
	kivitest.Verify(t, kivitest.Case("c3", 3, true), kivitest.Original(), kivitest.Intents(atMostThree))
	// At most one fails at once (two pods run on node 1 from the start).
	atMostOne := intents.NewPredicate("at_most_one_per_node", "no node runs more than 1 pod", func(v model.View) bool {
		return v.PodsOnNode("1", "") <= 1
	})
	res := kivitest.Check(t, kivitest.Case("c3", 3, true), kivitest.Original(), kivitest.Intents(atMostOne))
	if len(res.Violated) != 1 || res.Violated[0] != "at_most_one_per_node" {
		t.Fatalf("%+v", res)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 { // one file per test, the last check wins
		t.Fatalf("KIVI_JSON wrote %v", files)
	}
	if data, _ := os.ReadFile(files[0]); !strings.Contains(string(data), `"verdict"`) {
		t.Fatalf("not a report: %s", data)
	}
}

// TestReductionsOption: with both reductions off the scaling search finds
// the same minimum setup and intent, and the failing setup's report says
// which reductions ran.
func TestReductionsOption(t *testing.T) {
	on := kivitest.Check(t, kivitest.Case("c3", 3, false), kivitest.Workers(1))
	off := kivitest.Check(t, kivitest.Case("c3", 3, false), kivitest.Workers(1), kivitest.Reductions(false, false))
	if on.Setup != off.Setup || len(off.Violated) == 0 || on.Violated[0] != off.Violated[0] {
		t.Fatalf("with reductions %s %v, without %s %v", on.Setup, on.Violated, off.Setup, off.Violated)
	}
	if on.Report == nil || off.Report == nil {
		t.Fatal("no report")
	}
	if st := off.Report.Stats; st.Symmetry || st.POR {
		t.Fatalf("reductions off, but the report says symmetry %v, partial-order %v", st.Symmetry, st.POR)
	}
	if st := on.Report.Stats; !st.Symmetry || !st.POR {
		t.Fatalf("reductions on by default, but the report says symmetry %v, partial-order %v", st.Symmetry, st.POR)
	}
}

// firstNodeEvictor evicts a Running pod from the node of lowest index
// that runs two, when the cluster is quiet, and declares that it never
// reads nodes by index (model.SymmetryBreaker with no fact): wrong.
type firstNodeEvictor struct{}

func (firstNodeEvictor) Name() string { return "first-node-evictor" }

func (firstNodeEvictor) crowded(s *model.State) []int {
	on := make([][]int, len(s.Nodes))
	for p := range s.Pods {
		if ps := &s.Pods[p]; ps.Phase == model.Running && ps.Node != 0 {
			on[ps.Node-1] = append(on[ps.Node-1], p)
		}
	}
	for _, pods := range on {
		if len(pods) >= 2 {
			return pods
		}
	}
	return nil
}

func (e firstNodeEvictor) Enabled(_ *model.Universe, s *model.State) bool {
	return s.ControllerQueuesEmpty() && e.crowded(s) != nil
}

func (e firstNodeEvictor) Step(tx *model.Tx, s *model.State) {
	s.RequestDeletion(tx.ChoosePods(s, e.crowded(s), 1)[0])
}

func (firstNodeEvictor) SymmetryFacts(*model.Universe) []model.SymmetryFact { return nil }

// TestControllersDeclarationsChecked: a custom controller whose symmetry
// declaration hides an index read fails the test before the verification
// (kivi.CheckDeclarations); DeclarationCheck with negative States skips
// the check.
func TestControllersDeclarationsChecked(t *testing.T) {
	ft := &fakeT{TB: t}
	kivitest.Check(ft, kivitest.Case("c3", 3, true), kivitest.Original(), kivitest.Workers(1), kivitest.Controllers(firstNodeEvictor{}))
	if len(ft.errors) != 1 || !strings.HasPrefix(ft.errors[0], "kivitest: ") {
		t.Fatalf("errors %v, want the wrong declaration", ft.errors)
	}
	ft = &fakeT{TB: t}
	kivitest.Check(ft, kivitest.Case("c3", 3, true), kivitest.Original(), kivitest.Workers(1),
		kivitest.DeclarationCheck(kivi.DeclarationCheck{States: -1}), kivitest.Controllers(firstNodeEvictor{}))
	if len(ft.errors) != 0 {
		t.Fatalf("errors %v with the check skipped", ft.errors)
	}
}

// TestAssumptionOptions: two releases applied while the first may still
// be rolling out reach the model's bound of two ReplicaSets per
// Deployment (Unknown); MergeOldRevisions lifts it and the report states
// the approximation, as ReadyAtStart states its own (ApplyInOrder and
// CronJobRuns state theirs only for several Deployments and for an Allow
// CronJob).
func TestAssumptionOptions(t *testing.T) {
	// The CLI's golden input of two releases (readiness probes included).
	dir := filepath.Join("..", "cmd", "kivi", "testdata", "thirdrevision")
	src := kivitest.Manifests(t, filepath.Join(dir, "v1.yaml"), filepath.Join(dir, "nodes.yaml"), filepath.Join(dir, "intents.yaml"))

	if res := kivitest.Check(t, src, kivitest.Original(), kivitest.Workers(1)); !res.Unknown || len(res.Violated) > 0 {
		t.Fatalf("default: %+v, want Unknown at the bound of ReplicaSet revisions", res)
	}
	res := kivitest.Verify(t, src, kivitest.Original(), kivitest.Workers(1),
		kivitest.MergeOldRevisions(), kivitest.ReadyAtStart(), kivitest.ApplyInOrder(), kivitest.CronJobRuns(1))
	assumed := strings.Join(res.Report.Assumptions, "\n")
	for _, flag := range []string{"--merge-old-revisions", "--ready-at-start"} {
		if !strings.Contains(assumed, flag) {
			t.Errorf("assumptions %q do not state %s", res.Report.Assumptions, flag)
		}
	}
}
