package manifest

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestKubeletConfiguration: a KubeletConfiguration's memory.available
// thresholds reach the model as the kubelet parses them (an evictionHard
// without memory.available has none, unless mergeDefaultEvictionSettings
// merges the defaults back; 0% is no threshold), its other signals are
// warned about, and maxPods applies to the nodes whose status gives no
// pod capacity.
func TestKubeletConfiguration(t *testing.T) {
	const web = "      containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n"
	mib := func(v int64) model.EvictionQuantity { return model.EvictionQuantity{Bytes: v << 20} }
	for _, c := range []struct {
		name, config        string
		configured          bool
		hard, soft, reclaim model.EvictionQuantity
		grace               string
		maxPods             int
		warns               []string
	}{
		{name: "none", maxPods: 0},
		{name: "defaults", config: "evictionPressureTransitionPeriod: 1m\n", configured: true, hard: mib(100)},
		{name: "hard quantity", config: "evictionHard: {memory.available: 500Mi}\n", configured: true, hard: mib(500)},
		{name: "hard percentage", config: "evictionHard: {memory.available: 5%}\n", configured: true,
			hard: model.EvictionQuantity{Percentage: 0.05}},
		{name: "other signals only", config: "evictionHard: {nodefs.available: 5%}\n", configured: true,
			warns: []string{"evictionHard.nodefs.available: ignored: disk and PID pressure are not modelled"}},
		{name: "other signals merged", config: "mergeDefaultEvictionSettings: true\nevictionHard: {nodefs.available: 5%}\n", configured: true,
			hard: mib(100), warns: []string{"evictionHard.nodefs.available: ignored"}},
		{name: "no threshold", config: "evictionHard: {memory.available: 0%}\n", configured: true},
		{name: "soft", config: "evictionSoft: {memory.available: 1Gi}\nevictionSoftGracePeriod: {memory.available: 1m30s}\nevictionMinimumReclaim: {memory.available: 2%}\n",
			configured: true, hard: mib(100), soft: mib(1024), grace: "1m30s", reclaim: model.EvictionQuantity{Percentage: 0.02}},
		{name: "maxPods", config: "maxPods: 30\npodsPerCore: 4\n", configured: true, hard: mib(100), maxPods: 30,
			warns: []string{"podsPerCore: ignored"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := webDeployment(web)
			if c.config != "" {
				in += "---\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n" + c.config
			}
			in += "---\napiVersion: v1\nkind: Node\nmetadata: {name: stated}\nstatus: {allocatable: {cpu: \"4\", memory: 4Gi, pods: \"50\"}}\n" +
				"---\napiVersion: v1\nkind: Node\nmetadata: {name: unstated}\nstatus: {capacity: {cpu: \"4\", memory: 8Gi}, allocatable: {cpu: \"4\", memory: 6Gi}}\n"
			r := load(t, in)
			k := r.Cluster.Kubelet
			strip := func(q model.EvictionQuantity) model.EvictionQuantity { q.Text = ""; return q }
			if k.Configured != c.configured || strip(k.EvictionHard) != c.hard || strip(k.EvictionSoft) != c.soft ||
				strip(k.MinimumReclaim) != c.reclaim || k.SoftGracePeriod != c.grace {
				t.Errorf("kubelet %+v, want configured %v hard %+v soft %+v for %q reclaim %+v", k, c.configured, c.hard, c.soft, c.grace, c.reclaim)
			}
			pods := map[string]int{}
			for _, nt := range r.Cluster.NodeTypes {
				pods[nt.Name] = nt.MaxPods
			}
			if pods["stated"] != 50 || pods["unstated"] != c.maxPods {
				t.Errorf("maxPods %v, want stated 50 and unstated %d", pods, c.maxPods)
			}
			wantWarnings(t, r.Warnings, "document 3:", c.warns)
		})
	}
}
