package manifest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestDeschedulePlugins: the deschedule extension point of a
// descheduler/v1alpha2 policy: the plugins with their args (RemoveFailedPods
// with upstream's defaults when it has no pluginConfig entry), a disabled
// plugin left out, the plugins' own pod filters (namespaces,
// labelSelector) read.
func TestDeschedulePlugins(t *testing.T) {
	ds, warns := decodePolicy(t, "testdata/fuzz/manifests/deschedule.yaml", nil)
	day := uint(86400)
	want := []model.DescheduleConfig{{
		Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints, model.RemovePodsViolatingNodeAffinity,
			model.RemovePodsViolatingInterPodAntiAffinity, model.PodLifeTime, model.RemoveFailedPods},
		FailedPods:  model.FailedPodsArgs{MinPodLifetimeSeconds: 3600},
		PodLifeTime: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: &day},
		NodeTaints:  model.NodeTaintsArgs{IncludePreferNoSchedule: true, ExcludedTaints: []string{"dedicated", "team=infra"}},
		NodeAffinityType: []model.NodeAffinityType{model.RequiredDuringSchedulingIgnoredDuringExecution,
			model.PreferredDuringSchedulingIgnoredDuringExecution},
		NodeTaintsFilter:           model.PodFilter{ExcludeNamespaces: []string{"kube-system"}},
		InterPodAntiAffinityFilter: model.PodFilter{LabelSelector: &model.Selector{MatchLabels: map[string]string{"app": "web"}}},
	}, {
		Enabled:    []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints},
		NodeTaints: model.NodeTaintsArgs{IncludedTaints: []string{"node.kubernetes.io/unschedulable"}},
	}}
	for i, w := range want {
		if got := ds.Profiles[i].Deschedule; !reflect.DeepEqual(got, w) {
			t.Errorf("profile %d: got %+v, want %+v", i, got, w)
		}
	}
	if !ds.Profiles[0].NodeFit || ds.MaxTotal != 3 || len(ds.Profiles[0].Balance) != 1 {
		t.Errorf("profile 0: %+v, limits %+v", ds.Profiles[0], ds)
	}
	all := warningText(warns)
	if strings.Contains(all, "not modelled") || strings.Contains(all, "RemovePodsViolatingNodeAffinity is not modelled") ||
		strings.Contains(all, "args.namespaces") || strings.Contains(all, "args.labelSelector") {
		t.Errorf("a modelled plugin is warned about:\n%s", all)
	}
}

// TestEmptyIncludedTaints: upstream includes no taint for an explicit
// empty includedTaints (it tells the empty list from a missing one), so
// the plugin never evicts: it is left out with a warning.
func TestEmptyIncludedTaints(t *testing.T) {
	data := []byte(`apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: p
  pluginConfig:
  - {name: RemovePodsViolatingNodeTaints, args: {includedTaints: []}}
  plugins:
    deschedule: {enabled: [RemovePodsViolatingNodeTaints, RemovePodsViolatingInterPodAntiAffinity]}
`)
	ds, warns := decodePolicy(t, "p.yaml", data)
	if got := ds.Profiles[0].Deschedule.Enabled; !reflect.DeepEqual(got, []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}) {
		t.Errorf("enabled %v", got)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].String(), "includedTaints: ignored") {
		t.Errorf("warnings %v", warns)
	}
}
