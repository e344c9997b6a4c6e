package checker_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/checker/internal/toys"
)

// benchCounters is 4 counters modulo 32: 2^20 = 1,048,576 states with
// 64-byte encodings and 4 successors each.
var benchCounters = toys.Counters{N: 4, Mod: 32}

// BenchmarkCheck explores the benchmark toy completely for each storage
// mode, sequentially and with 2 workers, reporting new states per second
// and the memory per state of the visited set and parent records.
func BenchmarkCheck(b *testing.B) {
	want := toys.CountersCount(benchCounters.N, benchCounters.Mod)
	for _, storage := range []checker.Storage{checker.Exact, checker.HashCompaction, checker.Bitstate} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%v/workers=%d", storage, workers), func(b *testing.B) {
				var st checker.Stats
				for b.Loop() {
					res, err := checker.Check(context.Background(), checker.System[toys.CounterState](benchCounters),
						checker.Properties[toys.CounterState]{},
						checker.Options{Storage: storage, Workers: workers, BitstateBits: 1 << 27})
					if err != nil {
						b.Fatal(err)
					}
					st = res.Stats
				}
				if storage != checker.Bitstate && st.States != want {
					b.Fatalf("%d states, want %d", st.States, want)
				}
				b.ReportMetric(float64(st.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
				b.ReportMetric(float64(st.VisitedBytes)/float64(st.States), "visited-B/state")
				b.ReportMetric(float64(st.ParentBytes)/float64(st.States), "parent-B/state")
				b.ReportMetric(float64(st.States), "states")
			})
		}
	}
}

// BenchmarkBitstateOneBytePerState sizes the bit array at 8 bits per state
// (2^23 bits for 2^20 states, 3 bits each) and reports the coverage.
func BenchmarkBitstateOneBytePerState(b *testing.B) {
	want := toys.CountersCount(benchCounters.N, benchCounters.Mod)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var st checker.Stats
			for b.Loop() {
				res, err := checker.Check(context.Background(), checker.System[toys.CounterState](benchCounters),
					checker.Properties[toys.CounterState]{},
					checker.Options{Storage: checker.Bitstate, Workers: workers, BitstateBits: 1 << 23})
				if err != nil {
					b.Fatal(err)
				}
				st = res.Stats
			}
			b.ReportMetric(float64(st.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(st.VisitedBytes)/float64(want), "visited-B/state")
			b.ReportMetric(100*float64(st.States)/float64(want), "coverage-%")
			b.ReportMetric(st.ExpectedOmissions, "est-omitted")
		})
	}
}

// BenchmarkFingerprint64 is hash compaction with 64-bit fingerprints on
// the benchmark toy, reporting its collision bound.
func BenchmarkFingerprint64(b *testing.B) {
	want := toys.CountersCount(benchCounters.N, benchCounters.Mod)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var st checker.Stats
			for b.Loop() {
				res, err := checker.Check(context.Background(), checker.System[toys.CounterState](benchCounters),
					checker.Properties[toys.CounterState]{},
					checker.Options{Storage: checker.HashCompaction, Fingerprint64: true, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				st = res.Stats
			}
			if st.States != want {
				b.Fatalf("%d states, want %d", st.States, want)
			}
			b.ReportMetric(float64(st.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(st.VisitedBytes)/float64(st.States), "visited-B/state")
			b.ReportMetric(float64(st.ParentBytes)/float64(st.States), "parent-B/state")
			b.ReportMetric(st.OmissionProbability, "collision-p")
		})
	}
}

// BenchmarkCounters16M is the scaling benchmark of issue #21: 8 counters
// modulo 8, 8^8 = 16,777,216 states (64-byte encodings, 8 successors
// each), exact storage, 1 and 2 workers. It needs about 1.7 GB; run it
// alone (-bench Counters16M -benchtime 1x), interleaving the worker
// counts with -count.
func BenchmarkCounters16M(b *testing.B) {
	sys := toys.Counters{N: 8, Mod: 8}
	want := toys.CountersCount(sys.N, sys.Mod)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var st checker.Stats
			for b.Loop() {
				res, err := checker.Check(context.Background(), checker.System[toys.CounterState](sys),
					checker.Properties[toys.CounterState]{}, checker.Options{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				st = res.Stats
			}
			if st.States != want {
				b.Fatalf("%d states, want %d", st.States, want)
			}
			b.ReportMetric(float64(st.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(st.VisitedBytes+st.ParentBytes)/float64(st.States), "B/state")
		})
	}
}
