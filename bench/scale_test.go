package bench

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
)

// kiviScaleVerdicts are Kivi's verdicts for the built-in cases at 20, 50
// and 100 nodes (`-o -s S`): every case finds its violation except C3
// from 50 nodes on, where both constraints stay satisfiable.
func kiviScaleVerdict(c string, scale int) checker.Verdict {
	if c == "c3" && scale >= 50 {
		return checker.Holds
	}
	return checker.Violated
}

// verifyAt verifies built-in case c at a scale, written topology, with
// one worker and a generous timeout (a test must not depend on speed:
// the timeout only keeps a regression from hanging the suite).
func verifyAt(tb testing.TB, c string, scale int, nv bool) *kivi.Report {
	tb.Helper()
	cl, err := cases.Get(c, scale, nv)
	if err != nil {
		tb.Fatal(err)
	}
	rep, err := kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Workers: 1, Timeout: 5 * time.Minute}})
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

// TestScaleVerdicts: the built-in cases give Kivi's verdicts at the sizes
// users run (20, 50, 100, 200 and 500 nodes: at 200 most cases have more
// than 250 pod slots, at 500 every case has more than 250 nodes), their
// no-violation variants hold at 200 nodes, and a topology of 4 001 nodes,
// more than the model holds, ends at a model bound, never a panic or an
// input error.
func TestScaleVerdicts(t *testing.T) {
	for _, scale := range []int{20, 50, 100, 200, 500} {
		for n := 1; n <= 8; n++ {
			c := fmt.Sprintf("c%d", n)
			rep := verifyAt(t, c, scale, false)
			if want := kiviScaleVerdict(c, scale); rep.Verdict() != want {
				t.Errorf("%s at %d nodes: %v, Kivi says %v", c, scale, rep.Verdict(), want)
			}
		}
	}
	for n := 1; n <= 8; n++ {
		c := fmt.Sprintf("c%d", n)
		if rep := verifyAt(t, c, 200, true); rep.Verdict() != checker.Holds {
			t.Errorf("%s's no-violation variant at 200 nodes: %v", c, rep.Verdict())
		}
	}
	for n := 1; n <= 8; n++ {
		c := fmt.Sprintf("c%d", n)
		cl, err := cases.Get(c, kivi.MaxNodes+1, false)
		if err != nil {
			t.Fatal(err)
		}
		_, err = kivi.NewProblem(cl, kivi.Options{})
		if !errorsIsBound(err) {
			t.Fatalf("%s at %d nodes: %v, want a model bound", c, kivi.MaxNodes+1, err)
		}
		if r := kivi.BoundReport(cl, err); r.Verdict() != checker.Unknown || r.Bound == "" {
			t.Errorf("%s at %d nodes: bound report %v %q", c, kivi.MaxNodes+1, r.Verdict(), r.Bound)
		}
	}
}

// TestShapes: every realistic shape gives its verdict on the intent it
// breaks.
func TestShapes(t *testing.T) {
	for _, sh := range Shapes() {
		cl, err := sh.Cluster()
		if err != nil {
			t.Fatalf("%s: %v", sh.Name, err)
		}
		rep, err := kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Timeout: 5 * time.Minute}})
		if err != nil {
			t.Fatalf("%s: %v", sh.Name, err)
		}
		if got := rep.Verdict().String(); got != sh.Expect {
			t.Errorf("%s: %s, want %s", sh.Name, got, sh.Expect)
			continue
		}
		if r := rep.Result(sh.ExpectIntent); sh.ExpectIntent != "" && (r == nil || r.Verdict != checker.Violated) {
			t.Errorf("%s: %s not violated", sh.Name, sh.ExpectIntent)
		}
	}
}

// BenchmarkScale verifies every built-in case at 20, 50, 100, 200 and 500
// nodes, written topology, violation and no-violation variants, one
// worker: time (ns/op), states, states/s and the peak heap. Kivi's own
// figures for the same runs are in docs/performance.md.
//
//	go test -run XXX -bench Scale -benchtime 1x ./bench/
func BenchmarkScale(b *testing.B) {
	for _, scale := range []int{20, 50, 100, 200, 500} {
		for n := 1; n <= 8; n++ {
			for _, nv := range []bool{false, true} {
				c := fmt.Sprintf("c%d", n)
				b.Run(fmt.Sprintf("case=%s/nodes=%d/no-violation=%v", c, scale, nv), func(b *testing.B) {
					cl, err := cases.Get(c, scale, nv)
					if err != nil {
						b.Fatal(err)
					}
					var rep *kivi.Report
					var peak uint64
					for b.Loop() {
						runtime.GC()
						p, err := kivi.NewProblem(cl, kivi.Options{})
						if err != nil {
							if errorsIsBound(err) {
								b.Skipf("model bound: %v", err)
							}
							b.Fatal(err)
						}
						rep, err = p.Check(context.Background(), checker.Options{Workers: 1, Timeout: 60 * time.Second})
						if err != nil {
							b.Fatal(err)
						}
						var ms runtime.MemStats
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapSys)
					}
					report(b, rep.Stats)
					b.ReportMetric(float64(peak)/(1<<20), "MiB-heap")
					b.Logf("%s: %v", b.Name(), rep.Verdict())
				})
			}
		}
	}
}

// BenchmarkShapes verifies each realistic shape as `kivi verify -f` does
// (default workers, quick pass then exhaustive search).
func BenchmarkShapes(b *testing.B) {
	for _, sh := range Shapes() {
		b.Run("shape="+sh.Name, func(b *testing.B) {
			cl, err := sh.Cluster()
			if err != nil {
				b.Fatal(err)
			}
			var rep *kivi.Report
			for b.Loop() {
				rep, err = kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Timeout: 60 * time.Second}})
				if err != nil {
					b.Fatal(err)
				}
			}
			report(b, rep.Stats)
			b.Logf("%s: %v", sh.Name, rep.Verdict())
		})
	}
}
