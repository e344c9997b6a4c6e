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

	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/model"
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
		if _, _, err := manifest.ReadSchedulerProfile("config.yaml", []byte(s.Config), s.nodeLabelSets()); err != nil {
			// The model refuses a profile whose score plugin runs
			// without its PreScore: kube-scheduler accepts it and fails
			// every scheduling cycle that scores (a framework error),
			// which needs two or more feasible nodes.
			if !strings.Contains(err.Error(), "runs at score but not at preScore") {
				rt.Fatalf("the model refuses a configuration kube-scheduler accepts: %v\n%s", err, s.Config)
			}
			a, err := realAnswer(r, s, Variation{})
			if err != nil {
				rt.Fatal(err)
			}
			switch {
			case strings.HasPrefix(a.Detail, "framework error: "):
				covered["refused: a score plugin without its PreScore, kube-scheduler fails the cycle"]++
			case len(a.Feasible) < 2:
				covered["refused: a score plugin without its PreScore, fewer than two feasible nodes"]++
			default:
				rt.Fatalf("the model refuses the configuration, kube-scheduler scores: %s\n%s", a, s.Config)
			}
			return
		}
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
			if strings.Contains(s.Config, "name: NodeResourcesBalancedAllocation\n") {
				covered["NodeResourcesBalancedAllocation resources, scores compared"]++
			}
		}
		if strings.Contains(v.Real.Detail, "scheduler-enforced node affinity") {
			covered["a node rejected by the profile's addedAffinity"]++
		}
		if len(v.Real.Feasible) > 1 && strings.Contains(s.Config, "preferredDuringSchedulingIgnoredDuringExecution") {
			covered["addedAffinity's preferred terms, scores compared"]++
		}
		if len(v.Real.Feasible) == 0 && strings.Contains(s.Config, "addedAffinity") {
			covered["addedAffinity, no feasible node"]++
		}
		if strings.Contains(v.Real.Detail, "PodTopologySpread: ") && strings.Contains(s.Config, "DoNotSchedule") {
			covered["a node rejected by a DoNotSchedule default constraint"]++
		}
		for _, f := range s.filtersOff() {
			covered[f+" filter disabled"]++
			if s.filterWouldReject(f) {
				covered[f+" filter disabled, a pod constraint it would check"]++
			}
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

// filtersOff lists the filters s's configuration disables, as drawn by
// GenerateConfig: in the filter set, or in the MultiPoint set.
func (s *Snapshot) filtersOff() []string {
	var out []string
	for _, p := range []string{"PodTopologySpread", "InterPodAffinity", "NodeUnschedulable"} {
		for _, line := range strings.Split(s.Config, "\n") {
			if strings.Contains(line, "disabled:") && strings.Contains(line, "{name: "+p+"}") {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// filterWouldReject reports whether the pending pod has what filter f
// checks: a DoNotSchedule constraint of its own or from the profile, or a
// required inter-pod term (its own, or an existing pod's anti-affinity).
func (s *Snapshot) filterWouldReject(f string) bool {
	switch f {
	case "PodTopologySpread":
		return strings.Contains(s.Config, "DoNotSchedule") ||
			slices.ContainsFunc(s.Pending.Spread, func(c Spread) bool { return c.When == model.DoNotSchedule })
	case "InterPodAffinity":
		req := func(d *model.PodAffinityDecl) bool { return d != nil && len(d.Required) > 0 }
		return req(s.Pending.PodAffinity) || req(s.Pending.PodAntiAffinity) ||
			slices.ContainsFunc(s.Existing, func(p Pod) bool { return req(p.PodAntiAffinity) })
	}
	return false
}
