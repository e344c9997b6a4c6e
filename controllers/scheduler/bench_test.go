package scheduler

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// benchCluster is a cluster of the given size in three zones with two
// deployments: one hard-spread by zone, one soft-spread by hostname with
// preferred affinity; half the pods run, the last slot waits in the
// scheduling queue.
func benchCluster(nodes, pods int) (*model.Universe, *model.State) {
	b := build.New()
	for n := range nodes {
		b.AddNodes(1, build.Node().CPU(256).Mem(256).Zone(fmt.Sprint(n%3)).Label("tier", fmt.Sprint(n%2)))
	}
	hard := b.AddTemplate(build.Template("hard").Requests(2, 2).Label("app", "hard").
		Spread(2, "zone", model.DoNotSchedule))
	soft := b.AddTemplate(build.Template("soft").Requests(1, 1).Label("app", "soft").
		Spread(1, model.HostnameKey, model.ScheduleAnyway).Preferred(5, "tier", "1"))
	dh := b.AddDeployment("hard", hard, pods/2)
	ds := b.AddDeployment("soft", soft, pods-pods/2)
	for i := range pods - 1 {
		if i%2 == 0 {
			b.RunPod(dh, i%nodes)
		} else {
			b.RunPod(ds, (i*7)%nodes)
		}
	}
	b.PendingPod(dh, -1)
	b.Slots = pods
	u, s := b.MustBuild()
	return u, s
}

// BenchmarkScheduleCycle measures one scheduling cycle (constraints,
// counts, filters, scores, top nodes) of a waiting pod of either
// deployment:
//
//	go test -run - -bench ScheduleCycle -benchmem ./controllers/scheduler
func BenchmarkScheduleCycle(b *testing.B) {
	for _, sz := range []struct{ nodes, pods int }{{6, 12}, {20, 60}} {
		u, s := benchCluster(sz.nodes, sz.pods)
		// The last slot waits (deployment hard); unbind the one before it
		// (deployment soft).
		s.Pods[sz.pods-2].Phase, s.Pods[sz.pods-2].Node = model.Pending, 0
		for _, waiting := range []struct {
			deployment string
			pod        int
		}{{"hard", sz.pods - 1}, {"soft", sz.pods - 2}} {
			b.Run(fmt.Sprintf("nodes=%d/pods=%d/pod=%s", sz.nodes, sz.pods, waiting.deployment), func(b *testing.B) {
				pr := defaultProfile()
				var c cycle
				b.ReportAllocs()
				for b.Loop() {
					if len(c.hosts(&pr, u, s, waiting.pod)) == 0 {
						b.Fatal("no feasible node")
					}
				}
			})
		}
	}
}

// BenchmarkStep measures one scheduler step placing one pod, including the
// state copy the checker makes per successor: run=first is a step's first
// run (a scheduling cycle), run=again a re-run of the same step, as the
// System makes once per tied node, which recalls the cycle's top nodes.
func BenchmarkStep(b *testing.B) {
	for _, sz := range []struct{ nodes, pods int }{{6, 12}, {20, 60}} {
		for _, again := range []bool{false, true} {
			run := map[bool]string{false: "first", true: "again"}[again]
			b.Run(fmt.Sprintf("nodes=%d/pods=%d/run=%s", sz.nodes, sz.pods, run), func(b *testing.B) {
				u, s0 := benchCluster(sz.nodes, sz.pods)
				s0.Enqueue(model.SchedulerQueue, sz.pods-1)
				tx := model.NewTx(u)
				tx.Begin(nil, false)
				s := s0.Clone()
				sch := New()
				b.ReportAllocs()
				for b.Loop() {
					s0.CopyTo(s)
					if again {
						tx.Restart(false)
					} else {
						tx.Begin(nil, false)
					}
					sch.Step(tx, s)
				}
				if s.Pods[sz.pods-1].Node == 0 {
					b.Fatal("pod not placed")
				}
			})
		}
	}
}
