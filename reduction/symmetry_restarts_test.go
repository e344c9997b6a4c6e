package reduction_test

import (
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// restartsProblem: three alike nodes, a Deployment of two pods limited to
// 300Mi whose memory grows past the limit (eventMemoryChange: an OOM kill
// restarts the container in place, one restart more), and a descheduler
// profile with RemovePodsHavingTooManyRestarts at threshold 1 (with
// crashLoop, only for pods that may wait in CrashLoopBackOff). Pods that
// differ only in their restarts must stay apart.
func restartsProblem(t testing.TB, crashLoop bool) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(3, build.Node().CPU(4).Mem(1024))
	d := b.AddDeployment("cache", b.AddTemplate(build.Template("cache").Requests(1, 256).LimitMemory(300).Label("app", "cache")), 2)
	b.AddEvent(model.Event{Kind: model.MemoryChange, Deployment: d, MaxDelta: 2, DeltaUnit: 40})
	args := model.TooManyRestartsArgs{PodRestartThreshold: 1}
	name := "restarts"
	if crashLoop {
		args.States = []string{"CrashLoopBackOff"}
		name = "restarts-crashloop"
	}
	b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "restarts",
		Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsHavingTooManyRestarts}, TooManyRestarts: args}}}}
	return twoPendingProblem(t, b, d, name, "replica_num_always_meet_min")
}

// restartsClusters are restartsProblem's variants for the symmetry
// property tests (symmetricClusters).
func restartsClusters(t testing.TB) []symCluster {
	return []symCluster{{"restarts", restartsProblem(t, false)}, {"restarts-crashloop", restartsProblem(t, true)}}
}

// TestSymmetryRestartsSameVerdicts: the OOM-killed pod's eviction breaks
// replica_num_always_meet_min with and without symmetry, and symmetry
// still merges states.
func TestSymmetryRestartsSameVerdicts(t *testing.T) {
	for _, crashLoop := range []bool{false, true} {
		violatedAlike(t, restartsProblem(t, crashLoop), "replica_num_always_meet_min")
	}
}
