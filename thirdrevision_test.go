package kivi_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestThirdRevision: two kubectl applies of new pod templates, which may
// come while the first rollout still has old pods, need a third
// ReplicaSet; the model keeps two per Deployment, so by default such a
// run ends Unknown with the bound as its reason, and with
// MergeOldRevisions it rolls out of the two older revisions as one set
// and says so. The first template applied before the controllers start
// and the second once the cluster has settled find at most one older
// set: no bound.
func TestThirdRevision(t *testing.T) {
	// The CLI's golden input of two releases (cmd/kivi/testdata).
	workload := func(version string) string {
		data, err := os.ReadFile(filepath.Join("cmd", "kivi", "testdata", "thirdrevision", version+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	intents := func(when2, when3 string) string {
		return `intents:
- name: rollout_completes
  params: {deployment: app}
events:
- {kind: applyDeployment, manifest: v2.yaml, when: ` + when2 + `}
- {kind: applyDeployment, manifest: v3.yaml, when: ` + when3 + `}
`
	}
	files := map[string]string{"v2.yaml": workload("v2"), "v3.yaml": workload("v3")}
	run := func(when2, when3 string, merge bool) *kivi.Report {
		return verifyInput(t, input{manifests: workload("v1"), nodes: twoNodes("4"), intents: intents(when2, when3), files: files,
			opts: kivi.Options{MergeOldRevisions: merge, Checker: checker.Options{CollectAll: true}}})
	}
	const assumption = "--merge-old-revisions"
	hasAssumption := func(rep *kivi.Report) bool {
		return slices.ContainsFunc(rep.Assumptions, func(a string) bool { return strings.Contains(a, assumption) })
	}

	rep := run("main", "main", false)
	r := rep.Result("rollout_completes")
	if r == nil || r.Verdict != checker.Unknown || !strings.Contains(r.Bound, "the model keeps two per Deployment") || !strings.Contains(r.Bound, assumption) {
		t.Fatalf("default: %+v, want Unknown at the bound of ReplicaSet revisions", r)
	}
	if len(rep.BoundTrace.Steps) == 0 || hasAssumption(rep) {
		t.Errorf("default: bound trace of %d steps, assumptions %q", len(rep.BoundTrace.Steps), rep.Assumptions)
	}

	rep = run("main", "main", true)
	if r := rep.Result("rollout_completes"); r == nil || r.Verdict != checker.Holds || rep.Bound != "" || !hasAssumption(rep) {
		t.Fatalf("merged: %+v, bound %q, assumptions %q; want Holds under the stated approximation", r, rep.Bound, rep.Assumptions)
	}

	rep = run("first", "afterStable", false)
	if r := rep.Result("rollout_completes"); r == nil || r.Verdict != checker.Holds || rep.Bound != "" {
		t.Fatalf("after stable: %+v, bound %q, want Holds", r, rep.Bound)
	}
}
