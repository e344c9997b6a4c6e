package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/compose"
	build "github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestAntiAffinityBudgetPicksCommuteWithPodSwaps:
// RemovePodsViolatingInterPodAntiAffinity picks a node's conflicting pods
// one at a time and branches over each pick where a disruption budget or
// an eviction limit can cut them (controllers/descheduler/podantiaffinity.go),
// so on every reachable state of clusters where a budget runs out among
// pods that differ or lets them all go (hostname and zone keys, a budget
// of 1, 2 or 3, with and without a per-node limit of 1) swapping any two
// pod slots is an automorphism of the steps: the plugin needs no pod-slot
// fact.
func TestAntiAffinityBudgetPicksCommuteWithPodSwaps(t *testing.T) {
	for _, key := range []string{model.HostnameKey, "zone"} {
		for _, budget := range []int{1, 2, 3} {
			for _, limit := range []int{0, 1} {
				t.Run(fmt.Sprintf("%s/budget=%d/limit=%d", key, budget, limit), func(t *testing.T) {
					u, s := antiAffinityBudgetCluster(key, budget, limit)
					sys := &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{})}
					forStates(sys, 3000, func(st *model.State) {
						for a := range st.Pods {
							for b := a + 1; b < len(st.Pods); b++ {
								perm := identity(len(st.Pods))
								perm[a], perm[b] = b, a
								if !automorphic(sys, st, nil, perm) {
									t.Fatalf("swapping pod slots %d and %d is not an automorphism on\n%s", a, b, model.Describe(u, st))
								}
							}
						}
					})
				})
			}
		}
	}
}

// antiAffinityBudgetCluster: web's four pods, of usages 0, 3 and 5 on
// the first node and 2 on the second, with a required anti-affinity term
// of the key (zone: two nodes per zone), a budget of maxUnavailable
// budget, and the descheduler's anti-affinity plugin due with a per-node
// limit (0: none).
func antiAffinityBudgetCluster(key string, budget, limit int) (*model.Universe, *model.State) {
	b := build.New()
	if key == "zone" {
		b.AddNodes(2, build.Node().CPU(20).Mem(64).Zone("a"))
		b.AddNodes(2, build.Node().CPU(20).Mem(64).Zone("b"))
	} else {
		b.AddNodes(3, build.Node().CPU(20).Mem(64))
	}
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web").PodAntiAffinity(key, "app", "web")), 4)
	b.RunPod(web, 0).RunPodCPU(web, 0, 3).RunPodCPU(web, 0, 5).RunPodCPU(web, 1, 2)
	prof := model.DeschedulerProfile{Name: "anti",
		Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}}}
	b.U.Descheduler = &model.Descheduler{MaxPerNode: limit, Profiles: []model.DeschedulerProfile{prof}}
	b.U.PDBs = []model.PodDisruptionBudget{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
		MaxUnavailable: &model.IntOrPercent{Value: budget}}}
	b.Slots = 6
	u, s := b.MustBuild()
	s.DeschedulerPending = true
	s.Init = model.InitMain
	return u, s
}
