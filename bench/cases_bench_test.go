package bench

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// processCPU is the CPU time the process has used (user and system, all
// threads): "per core" rates divide by it, which the VM's stolen time and
// other tenants do not inflate the way they inflate wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func report(b *testing.B, st checker.Stats) {
	b.ReportMetric(float64(st.States), "states")
	b.ReportMetric(st.BytesPerState, "bytes/state")
	if st.Elapsed > 0 {
		b.ReportMetric(float64(st.States)/st.Elapsed.Seconds(), "states/s")
	}
}

// BenchmarkOriginal verifies each built-in case at scale 3, original
// topology (Kivi's `-o`), violation and non-violation variants, all
// intents settled (CollectAll). Target: under a second each.
func BenchmarkOriginal(b *testing.B) {
	for n := 1; n <= 8; n++ {
		for _, nv := range []bool{false, true} {
			name := fmt.Sprintf("case=c%d/no-violation=%v", n, nv)
			b.Run(name, func(b *testing.B) {
				c, err := cases.Get(fmt.Sprintf("c%d", n), 3, nv)
				if err != nil {
					b.Fatal(err)
				}
				var st checker.Stats
				for b.Loop() {
					rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{CollectAll: true}})
					if err != nil {
						b.Fatal(err)
					}
					st = rep.Stats
				}
				report(b, st)
			})
		}
	}
}

// BenchmarkScaling runs the scaling search of each case (Kivi's default
// mode): the violating variant to its minimum failing setup, the
// non-violation variant through every setup up to the confident size.
// It reports the setups verified, the states in all, and the median and
// largest engine time of one setup.
func BenchmarkScaling(b *testing.B) {
	for n := 1; n <= 8; n++ {
		for _, nv := range []bool{false, true} {
			b.Run(fmt.Sprintf("case=c%d/no-violation=%v", n, nv), func(b *testing.B) {
				c, setups := caseSetups(b, fmt.Sprintf("c%d", n), nv)
				for b.Loop() {
					res, err := scaling.Search(context.Background(), setups, verifier(c), scaling.Options{})
					if err != nil {
						b.Fatal(err)
					}
					if (res.Failed == 0) != nv || res.Unknown > 0 {
						b.Fatalf("%d failed, %d unknown", res.Failed, res.Unknown)
					}
					var times []time.Duration
					for _, sr := range res.Setups {
						if sr.Status != scaling.NotRun {
							times = append(times, sr.Outcome.Stats.Elapsed)
						}
					}
					slices.Sort(times)
					b.ReportMetric(float64(res.Verified()), "setups")
					b.ReportMetric(float64(res.States), "states")
					b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median/setup")
					b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "ms-max/setup")
				}
			})
		}
	}
}

// caseSetups returns a built-in case at scale 3 and its scaling setups
// up to the confident size, in Kivi's order.
func caseSetups(b *testing.B, name string, nv bool) (*model.Cluster, []scaling.Setup) {
	b.Helper()
	c, err := cases.Get(name, 3, nv)
	if err != nil {
		b.Fatal(err)
	}
	setups, err := scaling.Setups(c, scaling.EnumerateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return c, setups
}

// verifier checks one setup with one engine worker, as the CLI does when
// setups run in parallel.
func verifier(c *model.Cluster) scaling.VerifyFunc {
	return kivi.SetupVerifier(c, kivi.Options{Checker: checker.Options{Workers: 1}})
}

// BenchmarkModel measures states/s and bytes/state of the cluster model at
// growing size: C3 and C8 scaling setups with n nodes, with and without
// symmetry reduction, bounded to 200 000 states so that large sizes stay
// affordable (the figure is a rate, not a verdict).
func BenchmarkModel(b *testing.B) {
	type shape struct {
		name        string
		nodes       []int
		replicas    int
		noViolation bool
	}
	var shapes []shape
	for _, n := range []int{3, 6, 10, 20} {
		shapes = append(shapes,
			shape{"c3", []int{(n + 1) / 2, n / 2}, 2 * n, true},
			shape{"c8", []int{max(1, n/3), n - max(1, n/3)}, 2 * n, false})
	}
	for _, sh := range shapes {
		for _, sym := range []bool{false, true} {
			name := fmt.Sprintf("case=%s/nodes=%d/pods=%d/symmetry=%v", sh.name, sh.nodes[0]+sh.nodes[1], sh.replicas, sym)
			b.Run(name, func(b *testing.B) {
				c, err := cases.Get(sh.name, 3, sh.noViolation)
				if err != nil {
					b.Fatal(err)
				}
				u, s, err := scaling.Build(c, scaling.Setup{Nodes: sh.nodes, Replicas: []int{sh.replicas}})
				if err != nil {
					b.Fatal(err)
				}
				p, err := compose.NewProblemFrom(c.Name, u, s, c.Intents, kivi.Options{})
				if err != nil {
					b.Fatal(err)
				}
				var st checker.Stats
				var cpu time.Duration
				for b.Loop() {
					before := processCPU()
					rep, err := p.Check(context.Background(), checker.Options{Workers: 1, MaxStates: 200_000, NoSymmetry: !sym, CollectAll: true})
					if err != nil {
						b.Fatal(err)
					}
					cpu = processCPU() - before
					st = rep.Stats
				}
				report(b, st)
				if cpu > 0 {
					b.ReportMetric(float64(st.States)/cpu.Seconds(), "states/cpu-s")
				}
			})
		}
	}
}

// BenchmarkScalingWorkers is the scaling search's parallel speed-up: C3
// and C8 to their first failing setup with 1 and 2 setup workers (target
// ≥ 1.8× on 2 cores). Compare the workers=1 and workers=2 rows of one run.
func BenchmarkScalingWorkers(b *testing.B) {
	for _, name := range []string{"c3", "c8"} {
		for _, nv := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("case=%s/no-violation=%v/workers=%d", name, nv, workers), func(b *testing.B) {
					c, setups := caseSetups(b, name, nv)
					for b.Loop() {
						res, err := scaling.Search(context.Background(), setups, verifier(c), scaling.Options{Workers: workers})
						if err != nil || (res.Failed == 0) != nv {
							b.Fatalf("search: %v, %d failed", err, res.Failed)
						}
					}
				})
			}
		}
	}
}
