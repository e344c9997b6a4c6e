package kivi_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
)

// TestC1WithStabilizationWindow checks case C1 (HPA oscillation,
// Kivi's case definitions) with the HPA's downscale stabilisation window on, which
// upstream Kubernetes asks for: "with the real 5-min window, scale-down
// flapping is damped". C1's load falls once and for good, so the window
// only delays each step down: every step waits W+1 sync periods (the
// model lets time pass whenever the cluster is quiescent), and the
// replica count still goes 6 → 5 → 4 → 3 = max − 3, which the intent
// flags. The verdict is the one without the window; the counterexample
// gains the syncs (docs/divergences.md, HPA).
func TestC1WithStabilizationWindow(t *testing.T) {
	wantRescales := []string{"1 to 2", "2 to 4", "4 to 6", "6 to 5", "5 to 4", "4 to 3"}
	for _, syncs := range []int{0, 1, 2, 4} {
		c, err := cases.Get("c1", 3, false)
		if err != nil {
			t.Fatal(err)
		}
		c.Deployments[0].HPA.ScaleDownStabilizationSyncs = syncs
		// One worker: the shortest counterexample is then always the same.
		rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1}})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Result("no_oscillation_replica_num")
		if r == nil || r.Verdict != checker.Violated {
			t.Fatalf("window %d: no_oscillation_replica_num = %+v, want violated", syncs, r)
		}
		var rescales []string
		syncLines, held := 0, 0
		for _, l := range r.Trace.Lines() {
			if _, rest, ok := strings.Cut(l, "[horizontal-pod-autoscaler] Scaling deployment "); ok {
				_, rest, _ = strings.Cut(rest, " from ")
				rescales = append(rescales, strings.TrimSuffix(rest, " replicas"))
			}
			if strings.Contains(l, "[horizontal-pod-autoscaler] Sync period passed") {
				syncLines++
			}
			if strings.Contains(l, "[horizontal-pod-autoscaler] Deployment ") && strings.Contains(l, ": scale-down stabilization") {
				held++
			}
		}
		if !slices.Equal(rescales, wantRescales) {
			t.Errorf("window %d: rescales %q, want %q", syncs, rescales, wantRescales)
		}
		// Three steps down, each released at the (W+1)-th sync after the
		// evaluation that first proposed it, and held at that evaluation
		// and the W syncs before: W+1 syncs and W+1 held evaluations.
		want := 0
		if syncs > 0 {
			want = 3 * (syncs + 1)
		}
		if syncLines != want || held != want {
			t.Errorf("window %d: %d syncs and %d held evaluations in the counterexample, want %d of each:\n%s",
				syncs, syncLines, held, want, strings.Join(r.Trace.Lines(), "\n"))
		}
		t.Logf("window %d: %d states", syncs, rep.Stats.States)

		// The non-violation variant stays clean with the window.
		cn, err := cases.Get("c1", 3, true)
		if err != nil {
			t.Fatal(err)
		}
		cn.Deployments[0].HPA.ScaleDownStabilizationSyncs = syncs
		repn, err := kivi.Verify(context.Background(), cn, kivi.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v := repn.Violated(); len(v) != 0 {
			t.Errorf("window %d, no-violation variant: %d violated intents (%s)", syncs, len(v), v[0].Name)
		}
	}
}
