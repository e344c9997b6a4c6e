package manifest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestLifetimePlugins: RemoveFailedPods' and PodLifeTime's args, the
// DefaultEvictor's evictFailedBarePods, RemoveFailedPods' default
// minPodLifetimeSeconds, and the warnings for what no pod of the model
// can match (exit codes, container states it never shows) or the model
// does not know (pod conditions).
func TestLifetimePlugins(t *testing.T) {
	ds, warns := decodePolicy(t, "testdata/fuzz/manifests/deschedulelifetime.yaml", nil)
	day := uint(86400)
	want := []model.DescheduleConfig{{
		Enabled: []model.DeschedulePlugin{model.RemoveFailedPods, model.PodLifeTime},
		FailedPods: model.FailedPodsArgs{Reasons: []string{"NodeAffinity", "OutOfcpu"}, IncludingInitContainers: true,
			ExcludeOwnerKinds: []string{"Job", "CronJob"}},
		PodLifeTime: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: &day, States: []string{"Running", "ContainerCreating", "CrashLoopBackOff", "Evicted"},
			Conditions: 1, ExcludeOwnerKinds: []string{"StatefulSet", "DaemonSet"}},
		FailedPodsFilter:  model.PodFilter{ExcludeNamespaces: []string{"kube-system"}},
		PodLifeTimeFilter: model.PodFilter{LabelSelector: &model.Selector{MatchLabels: map[string]string{"app": "web"}}},
	}, {
		Enabled:     []model.DeschedulePlugin{model.PodLifeTime, model.RemoveFailedPods},
		FailedPods:  model.FailedPodsArgs{ExitCodes: []int32{1}, MinPodLifetimeSeconds: 3600},
		PodLifeTime: model.PodLifeTimeArgs{States: []string{"Pending"}, ExitCodes: []int32{137}},
	}, {
		Enabled:    []model.DeschedulePlugin{model.RemoveFailedPods},
		FailedPods: model.FailedPodsArgs{MinPodLifetimeSeconds: 3600},
	}}
	for i, w := range want {
		if got := ds.Profiles[i].Deschedule; !reflect.DeepEqual(got, w) {
			t.Errorf("profile %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	if !ds.Profiles[0].EvictFailedBarePods || ds.Profiles[1].EvictFailedBarePods {
		t.Errorf("evictFailedBarePods: %v, %v", ds.Profiles[0].EvictFailedBarePods, ds.Profiles[1].EvictFailedBarePods)
	}
	all := warningText(warns)
	for _, frag := range []string{
		`profiles[0].pluginConfig[1].args.excludeOwnerKinds[1]: "CronJob" owns no pod of the model`,
		`profiles[0].pluginConfig[2].args.ownerKinds.exclude[1]: "DaemonSet" owns no pod of the model`,
		"profiles[0].pluginConfig[2].args.states: CrashLoopBackOff: a pod of the model shows these states only after its container was OOM-killed",
		"profiles[0].pluginConfig[2].args.conditions: not modelled",
		"profiles[0].pluginConfig[2].args.states[3]: Evicted: only a pod the kubelet's eviction manager evicted",
		"profiles[1].pluginConfig[0].args.exitCodes: only 137 matches a pod of the model",
		"profiles[1].pluginConfig[1].args.exitCodes: no pod of the model matches",
	} {
		if !strings.Contains(all, frag) {
			t.Errorf("warnings lack %q:\n%s", frag, all)
		}
	}
	if strings.Contains(all, "includingInitContainers") || strings.Contains(all, "includingEphemeralContainers") || strings.Contains(all, "evictFailedBarePods") {
		t.Errorf("a read argument is warned about:\n%s", all)
	}
}
