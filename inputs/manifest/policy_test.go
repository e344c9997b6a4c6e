package manifest

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// decodePolicy reads one DeschedulerPolicy document (data, or the file
// when data is nil) into the model's descheduler, with its warnings.
func decodePolicy(t *testing.T, file string, data []byte) (*model.Descheduler, []Warning) {
	t.Helper()
	if data == nil {
		var err error
		if data, err = os.ReadFile(file); err != nil {
			t.Fatal(err)
		}
	}
	objs, _, err := Decode(file, data)
	if err != nil || len(objs) != 1 {
		t.Fatal(objs, err)
	}
	var warns []Warning
	ds, err := deschedulerDecl(objs[0], nil, &warns)
	if err != nil {
		t.Fatal(err)
	}
	return ds, warns
}

// warningText is every warning's line, one per line.
func warningText(warns []Warning) string {
	var text []string
	for _, w := range warns {
		text = append(text, w.String())
	}
	return strings.Join(text, "\n")
}

// TestDeschedulerPolicy: profiles, plugin args and limits of
// descheduler/v1alpha2 (pkg/api/v1alpha2/types.go); unmodelled plugins and
// args are warnings.
func TestDeschedulerPolicy(t *testing.T) {
	ds, warns := decodePolicy(t, "testdata/fuzz/manifests/policy.yaml", nil)
	want := model.DeschedulerProfile{Name: "p", Balance: []model.BalancePlugin{model.RemoveDuplicates, model.RemovePodsViolatingTopologySpreadConstraint, model.LowNodeUtilization},
		Constraints: model.AllConstraints, TopologyBalanceNodeFit: false, EvictSystemCriticalPods: true, NodeFit: true}
	got := ds.Profiles[0]
	if ds.MaxPerNode != 5 || got.Name != want.Name || len(got.Balance) != 3 || got.Balance[2] != want.Balance[2] || got.Constraints != want.Constraints ||
		got.TopologyBalanceNodeFit || !got.EvictSystemCriticalPods || !got.NodeFit {
		t.Errorf("got %+v, %+v", ds, got)
	}
	lnu := got.LowNodeUtilization
	if lnu == nil {
		t.Fatal("no LowNodeUtilization args")
	}
	if m, _ := lnu.Thresholds.Get(model.ResourceMemory); m != 20.5 || lnu.NumberOfNodes != 1 || lnu.EvictionLimitNode == nil || *lnu.EvictionLimitNode != 2 {
		t.Errorf("LowNodeUtilization args %+v", lnu)
	}
	if c, _ := lnu.TargetThresholds.Get(model.ResourceCPU); c != 50 {
		t.Errorf("targetThresholds %+v", lnu.TargetThresholds)
	}
	all := warningText(warns)
	if !strings.Contains(all, "MyBalancer is not modelled") || strings.Contains(all, "LowNodeUtilization is not modelled") ||
		!strings.Contains(all, "args.priorityThreshold") || !strings.Contains(all, "args.metricsUtilization: ignored: actual usage") ||
		strings.Contains(all, "evictableNamespaces") {
		t.Errorf("warnings:\n%s", all)
	}
	if len(lnu.ExcludedNamespaces) == 0 {
		t.Errorf("evictableNamespaces.exclude not read: %+v", lnu)
	}
}

// TestHighNodeUtilizationPolicy: HighNodeUtilization's thresholds and
// evictionModes; with useDeviationThresholds a threshold above its target
// is valid (validateLowNodeUtilizationThresholds).
func TestHighNodeUtilizationPolicy(t *testing.T) {
	ds, warns := decodePolicy(t, "testdata/fuzz/manifests/highnodeutilization.yaml", nil)
	p := ds.Profiles[0]
	h := p.HighNodeUtilization
	if h == nil || !h.OnlyThresholdingResources || h.Thresholds.Len() != 2 || p.LowNodeUtilization == nil || !p.LowNodeUtilization.UseDeviationThresholds {
		t.Errorf("got %+v %+v", h, p.LowNodeUtilization)
	}
	if len(warns) != 0 {
		t.Errorf("warnings %v", warns)
	}
}

// TestDeschedulerPolicyZeroLimit: upstream's limits are optional counts
// (*uint), and a limit given as 0 admits no eviction at all
// (pkg/descheduler/evictions/evictions_test.go, TestNewPodEvictor), where
// an absent one is no limit.
func TestDeschedulerPolicyZeroLimit(t *testing.T) {
	for _, tc := range []struct {
		limits string
		zero   bool
	}{
		{"", false},
		{"maxNoOfPodsToEvictPerNode: 1\n", false},
		{"maxNoOfPodsToEvictPerNode: 0\n", true},
		{"maxNoOfPodsToEvictPerNamespace: 0\n", true},
		{"maxNoOfPodsToEvictTotal: 0\nmaxNoOfPodsToEvictPerNode: 2\n", true},
	} {
		doc := "apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\n" + tc.limits +
			"profiles:\n- name: p\n  plugins:\n    balance:\n      enabled: [RemoveDuplicates]\n"
		ds, _ := decodePolicy(t, "policy.yaml", []byte(doc))
		if ds.EvictionLimitZero != tc.zero {
			t.Errorf("%q: EvictionLimitZero %v, want %v", tc.limits, ds.EvictionLimitZero, tc.zero)
		}
	}
}

// TestPolicyMetricsFields: the policy's top-level metrics fields of
// descheduler v0.36 (metricsCollector, metricsProviders) are known fields
// the model does not read, not typos.
func TestPolicyMetricsFields(t *testing.T) {
	for _, field := range []string{"metricsCollector: {enabled: true}", "metricsProviders: [{source: KubernetesMetrics}]"} {
		objs, _, err := Decode("p.yaml", []byte("apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\n"+field+"\nprofiles: [{name: p, plugins: {deschedule: {enabled: [RemovePodsViolatingNodeTaints]}}}]\n"))
		if err != nil || len(objs) != 1 {
			t.Fatal(objs, err)
		}
		warns := classify(objs[0])
		name, _, _ := strings.Cut(field, ":")
		if all := warningText(warns); !strings.Contains(all, name+": ignored: metrics-based descheduling is not modelled") || strings.Contains(all, "unknown field") {
			t.Errorf("%s: warnings %q", name, all)
		}
	}
}
