package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestKubeletConfigurationThresholds: the Guaranteed pods of node a use
// 960Mi of its 1Gi allocatable, within it, so under the kubelet's default
// hard threshold the node is never under memory pressure and the report
// assumes that default. A KubeletConfiguration with a soft threshold of
// 300Mi (above the hard 100Mi: met 200Mi below the allocatable) takes the
// node under pressure at once: once the grace period passes the kubelet
// evicts a pod, whose replacement finds node a tainted. With the
// configuration the assumption is gone.
func TestKubeletConfigurationThresholds(t *testing.T) {
	m := strings.NewReplacer("CACHE_LIMITS", ", limits: {memory: 256Mi}", "API_MEMORY", "576Mi",
		"BATCH_RESOURCES", ", resources: {requests: {memory: 128Mi}, limits: {memory: 128Mi}}").Replace(memoryPressureManifests)
	const soft = "---\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n" +
		"evictionSoft: {memory.available: 300Mi}\nevictionSoftGracePeriod: {memory.available: 1m}\n"
	for _, c := range []struct {
		name, config string
		want         checker.Verdict
		assumed      bool
	}{
		{"default thresholds", "", checker.Holds, true},
		{"the default, configured", "---\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 110\n", checker.Holds, false},
		{"soft threshold", soft, checker.Violated, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, m+c.config, memoryPressureNodes, memoryPressureIntents, false)
			r := rep.Result("pod_always_schedulable")
			if r == nil {
				t.Fatal("no result for pod_always_schedulable")
			}
			if r.Verdict != c.want {
				t.Fatalf("pod_always_schedulable %v, want %v (%s)", r.Verdict, c.want, r.Explanation)
			}
			assumed := strings.Contains(strings.Join(rep.Assumptions, "\n"), "default hard eviction threshold")
			if assumed != c.assumed {
				t.Errorf("assumptions %q: the default threshold assumed %v, want %v", rep.Assumptions, assumed, c.assumed)
			}
			if c.want != checker.Violated {
				return
			}
			var text strings.Builder
			for _, st := range r.Trace.Steps {
				for _, l := range st.Lines {
					text.WriteString(l.String() + "\n")
				}
			}
			if !strings.Contains(text.String(), "Threshold quantity: 300Mi (soft, its grace period passed)") {
				t.Errorf("the counterexample does not evict for the soft threshold:\n%s", text.String())
			}
		})
	}
}
