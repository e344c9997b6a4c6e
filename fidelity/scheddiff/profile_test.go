package scheddiff

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"k8s.io/klog/v2"
	"pgregory.net/rapid"
)

var profiles = flag.Int("profiles", 300, "random snapshots with a drawn scheduler profile TestDifferentialProfiles compares (rapid checks)")

// TestDifferentialProfiles compares the model with kube-scheduler on
// -profiles random snapshots, each with a drawn KubeSchedulerConfiguration
// (GenerateConfig) that the model reads with its manifest reader and the
// real framework is built from: every disagreement must belong to a known
// class. The counts are logged (go test -v).
func TestDifferentialProfiles(t *testing.T) {
	withChecks(t, *profiles)
	// Decoding logs every re-configured default plugin at level 0.
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	counts, covered := map[string]int{}, map[string]int{}
	total := 0
	rapid.Check(t, func(rt *rapid.T) {
		s := Generate(rt)
		gpus := false
		for _, n := range s.Nodes {
			gpus = gpus || n.Scalar != nil
		}
		s.Config = GenerateConfig(rt, gpus)
		r, err := NewRealConfig([]byte(s.Config), pendingReplicaSet())
		if err != nil {
			rt.Fatalf("kube-scheduler refuses the configuration: %v\n%s", err, s.Config)
		}
		defer r.Close()
		v, err := Classify(r, s)
		if err != nil {
			rt.Fatal(err)
		}
		if v.Class == Unexplained {
			rt.Fatalf("a disagreement no known class explains:\n%s", report(s, v))
		}
		total++
		counts[v.Class]++
		if len(v.Real.Feasible) > 1 {
			for _, f := range []string{"MostAllocated", "RequestedToCapacityRatio", "LeastAllocated", "defaultingType: List", "hardPodAffinityWeight", `"*"`, "disabled", "weight", gpu + ", weight"} {
				if strings.Contains(s.Config, f) {
					covered[f+", scores compared"]++
				}
			}
		}
		if strings.Contains(v.Real.Detail, "PodTopologySpread: ") && strings.Contains(s.Config, "DoNotSchedule") {
			covered["a node rejected by a DoNotSchedule default constraint"]++
		}
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d comparisons: %d agree, %d disagree\n", total, counts[""], total-counts[""])
	delete(counts, "")
	for _, c := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&b, "  %-60s %6d\n", c, counts[c])
	}
	b.WriteString("coverage:\n")
	for _, c := range slices.Sorted(maps.Keys(covered)) {
		fmt.Fprintf(&b, "  %-60s %6d\n", c, covered[c])
	}
	t.Log(b.String())
}
