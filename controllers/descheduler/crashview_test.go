package descheduler

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// crashCluster draws a small cluster whose pods restarted, under
// budgets, with RemovePodsHavingTooManyRestarts or PodLifeTime reading
// crash states.
func crashCluster(t *rapid.T) (*model.Universe, *model.State) {
	b := build.New()
	b.AddNodes(1, build.Node().Name("n1").CPU(4000).Mem(4096))
	b.AddNodes(1, build.Node().Name("n2").CPU(4000).Mem(4096))
	deps := rapid.IntRange(1, 2).Draw(t, "deployments")
	var slots []int
	for d := range deps {
		name := fmt.Sprintf("app%d", d)
		replicas := rapid.IntRange(1, 3).Draw(t, "replicas")
		dep := b.AddDeployment(name, b.AddTemplate(build.Template(name).Requests(100, 64).Label("app", name).Label("tier", "web")), replicas)
		for range replicas {
			b.RunPod(dep, rapid.IntRange(0, 1).Draw(t, "node"))
			slots = append(slots, len(slots))
		}
	}
	for i := range rapid.IntRange(1, 2).Draw(t, "budgets") {
		pdb := model.PodDisruptionBudget{Name: fmt.Sprintf("pdb%d", i),
			UnhealthyPodEvictionPolicy: model.UnhealthyPodEvictionPolicy(rapid.IntRange(0, 1).Draw(t, "policy"))}
		key, value := "app", fmt.Sprintf("app%d", rapid.IntRange(0, deps-1).Draw(t, "selects"))
		if rapid.IntRange(0, 3).Draw(t, "wide") == 0 {
			key, value = "tier", "web"
		}
		pdb.Selector = &model.Selector{MatchLabels: map[string]string{key: value}}
		v := &model.IntOrPercent{Value: rapid.IntRange(0, 3).Draw(t, "value")}
		if rapid.Bool().Draw(t, "maxUnavailable") {
			pdb.MaxUnavailable = v
		} else {
			pdb.MinAvailable = v
		}
		b.U.PDBs = append(b.U.PDBs, pdb)
	}
	prof := model.DeschedulerProfile{Name: "crash"}
	if rapid.Bool().Draw(t, "lifetime") {
		prof.Deschedule.Enabled = []model.DeschedulePlugin{model.PodLifeTime}
		prof.Deschedule.PodLifeTime.States = rapid.SampledFrom([][]string{{"CrashLoopBackOff"}, {"OOMKilled"}, {"CrashLoopBackOff", "OOMKilled"}}).Draw(t, "states")
	} else {
		prof.Deschedule.Enabled = []model.DeschedulePlugin{model.RemovePodsHavingTooManyRestarts}
		a := &prof.Deschedule.TooManyRestarts
		a.PodRestartThreshold = int32(rapid.IntRange(1, 3).Draw(t, "threshold"))
		if rapid.Bool().Draw(t, "withStates") {
			a.States = []string{"CrashLoopBackOff"}
		}
	}
	pol := policy(prof)
	pol.MaxPerNode = rapid.IntRange(0, 2).Draw(t, "maxPerNode")
	b.U.Descheduler = pol
	u, s := b.MustBuild()
	for _, i := range slots {
		s.Pods[i].Restarts = uint8(rapid.IntRange(0, 3).Draw(t, "restarts"))
	}
	return u, s
}

// TestCrashPoolsAreOneByOne: deciding a budget's crashing pods by their
// count, and which ones only as they are asked about, reaches the same
// evictions as deciding every pod on its own.
func TestCrashPoolsAreOneByOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u, s := crashCluster(t)
		got := descheduleOutcomeSets(u, s)
		want := outcomeSetsWith(u, s, func(c *cycle) { c.crash.oneByOne = true })
		slices.SortFunc(got, slices.Compare)
		slices.SortFunc(want, slices.Compare)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("pools: %v\none by one: %v\n%s", got, want, Explain(u, s))
		}
	})
}
