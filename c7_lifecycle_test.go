package kivi_test

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// TestC7UnderKubernetesLifecycle: the case file of C7 runs with
// Kubernetes' lifecycle (a case file does not keep Kivi's): node 1's
// kubelet rejects every pod pinned to it at admission, so no pod is
// started or evicted and no_oscillation_eviction holds, while the
// create/reject loop violates no_oscillation_rejection; without the
// taint (the no-violation variant) both hold.
func TestC7UnderKubernetesLifecycle(t *testing.T) {
	for _, tc := range []struct {
		file     string
		rejected bool
	}{
		{"examples/cases/c7.yaml", true},
		{"examples/cases/c7-no-violation.yaml", false},
	} {
		c, err := kivi.LoadCaseFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if c.KiviLifecycle {
			t.Fatalf("%s: a case file kept Kivi's lifecycle", tc.file)
		}
		c.Intents = append(c.Intents, model.IntentDecl{Name: "no_oscillation_rejection", Params: map[string]any{"did": 1}})
		rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{CollectAll: true}})
		if err != nil {
			t.Fatal(err)
		}
		if r := rep.Result("no_oscillation_eviction"); r == nil || r.Verdict != checker.Holds {
			t.Errorf("%s: no_oscillation_eviction %+v, want holds", tc.file, r)
		}
		want := checker.Holds
		if tc.rejected {
			want = checker.Violated
		}
		r := rep.Result("no_oscillation_rejection")
		if r == nil || r.Verdict != want {
			t.Fatalf("%s: no_oscillation_rejection %+v, want %v", tc.file, r, want)
		}
		if tc.rejected && r.Trace.LoopStart < 0 {
			t.Errorf("%s: the counterexample is not a loop", tc.file)
		}
	}
}
