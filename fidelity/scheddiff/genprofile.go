package scheddiff

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// GenerateConfig draws a KubeSchedulerConfiguration document with one
// profile that changes what the model reads of it: NodeResourcesFit's
// scoring strategy (type, resource weights, a shape), the weights of the
// score plugins or their disabling (in the score set or the MultiPoint
// set, "*" included), the PodTopologySpread, InterPodAffinity and
// NodeUnschedulable filters disabled (in the filter set or the MultiPoint
// set), PodTopologySpread's List defaulting with default
// constraints, NodeResourcesBalancedAllocation's resources, and
// InterPodAffinity's hardPodAffinityWeight, and NodeAffinity's
// addedAffinity (genAddedAffinity). gpus says
// the snapshot has nvidia.com/gpu, which a strategy may then score.
func GenerateConfig(t *rapid.T, gpus bool) string {
	var b strings.Builder
	b.WriteString("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n")
	scores := []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"}
	var scoreOn, scoreOff, mpOn, mpOff, filterOff []string
	if oneIn(t, 6, "disableAllScores") {
		scoreOff = append(scoreOff, `"*"`)
	}
	for _, p := range scores {
		switch rapid.IntRange(0, 5).Draw(t, "scorePlugin"+p) {
		case 1:
			scoreOn = append(scoreOn, fmt.Sprintf("{name: %s, weight: %d}", p, rapid.IntRange(0, 5).Draw(t, "weight")))
		case 2:
			mpOn = append(mpOn, fmt.Sprintf("{name: %s, weight: %d}", p, rapid.IntRange(0, 5).Draw(t, "weight")))
		case 3:
			scoreOff = append(scoreOff, "{name: "+p+"}")
		}
	}
	// The filters the model turns off (NodeUnschedulable's changes
	// nothing it decides), in the filter set or in the MultiPoint set,
	// which turns off every extension point of the plugin but those that
	// enable it again.
	for _, p := range []string{"PodTopologySpread", "InterPodAffinity", "NodeUnschedulable"} {
		switch rapid.IntRange(0, 5).Draw(t, "filterPlugin"+p) {
		case 1:
			filterOff = append(filterOff, "{name: "+p+"}")
		case 2:
			mpOff = append(mpOff, "{name: "+p+"}")
		}
	}
	if len(scoreOn)+len(scoreOff)+len(mpOn)+len(mpOff)+len(filterOff) > 0 {
		b.WriteString("  plugins:\n")
		set := func(point string, on, off []string) {
			if len(on)+len(off) == 0 {
				return
			}
			fmt.Fprintf(&b, "    %s:\n", point)
			if len(on) > 0 {
				fmt.Fprintf(&b, "      enabled: [%s]\n", strings.Join(on, ", "))
			}
			if len(off) > 0 {
				fmt.Fprintf(&b, "      disabled: [%s]\n", strings.Join(off, ", "))
			}
		}
		for i, s := range scoreOff {
			if s == `"*"` {
				scoreOff[i] = `{name: "*"}`
			}
		}
		set("multiPoint", mpOn, mpOff)
		set("filter", nil, filterOff)
		set("score", scoreOn, scoreOff)
	}
	var args []string
	switch rapid.IntRange(0, 3).Draw(t, "strategy") {
	case 1:
		args = append(args, "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: LeastAllocated\n"+genResources(t, gpus))
	case 2:
		args = append(args, "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n"+genResources(t, gpus))
	case 3:
		var pts []string
		u := -1
		for range rapid.IntRange(1, 3).Draw(t, "points") {
			u = rapid.IntRange(u+1, 100-0).Draw(t, "utilization")
			pts = append(pts, fmt.Sprintf("{utilization: %d, score: %d}", u, rapid.IntRange(0, 10).Draw(t, "score")))
			if u == 100 {
				break
			}
		}
		args = append(args, "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: RequestedToCapacityRatio\n"+genResources(t, gpus)+
			"        requestedToCapacityRatio:\n          shape: ["+strings.Join(pts, ", ")+"]\n")
	}
	if oneIn(t, 3, "listDefaulting") {
		var cs []string
		seen := map[string]bool{}
		for range rapid.IntRange(0, 2).Draw(t, "defaultConstraints") {
			key := rapid.SampledFrom([]string{ZoneKey, DiskKey, "kubernetes.io/hostname"}).Draw(t, "defaultKey")
			when := rapid.SampledFrom([]string{"ScheduleAnyway", "DoNotSchedule"}).Draw(t, "defaultWhen")
			if seen[key+when] {
				continue
			}
			seen[key+when] = true
			cs = append(cs, fmt.Sprintf("{maxSkew: %d, topologyKey: %s, whenUnsatisfiable: %s}", rapid.IntRange(1, 3).Draw(t, "defaultSkew"), key, when))
		}
		args = append(args, "  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints: ["+strings.Join(cs, ", ")+"]\n")
	}
	if oneIn(t, 4, "balancedResources") {
		names := []string{"cpu", "memory", "pods", "ephemeral-storage"}
		if gpus {
			names = append(names, gpu)
		}
		var rs []string
		for _, i := range rapid.Permutation(names).Draw(t, "balancedOrder")[:rapid.IntRange(1, len(names)).Draw(t, "balancedCount")] {
			rs = append(rs, fmt.Sprintf("{name: %s, weight: %d}", i, rapid.IntRange(0, 1).Draw(t, "balancedWeight")))
		}
		args = append(args, "  - name: NodeResourcesBalancedAllocation\n    args: {resources: ["+strings.Join(rs, ", ")+"]}\n")
	}
	if oneIn(t, 4, "hardPodAffinityWeight") {
		args = append(args, fmt.Sprintf("  - name: InterPodAffinity\n    args: {hardPodAffinityWeight: %d}\n", rapid.SampledFrom([]int{0, 1, 5, 100}).Draw(t, "hardWeight")))
	}
	if oneIn(t, 3, "addedAffinity") {
		args = append(args, genAddedAffinity(t))
	}
	if len(args) > 0 {
		b.WriteString("  pluginConfig:\n" + strings.Join(args, ""))
	}
	return b.String()
}

// genResources draws a strategy's resources: none (the defaults), or cpu
// and memory with weights, possibly with nvidia.com/gpu.
func genResources(t *rapid.T, gpus bool) string {
	if oneIn(t, 3, "defaultResources") {
		return ""
	}
	rs := []string{}
	for _, r := range []string{"cpu", "memory"} {
		if !oneIn(t, 5, "leaveOut"+r) {
			rs = append(rs, fmt.Sprintf("{name: %s, weight: %d}", r, rapid.IntRange(0, 5).Draw(t, "resourceWeight")))
		}
	}
	if gpus && oneIn(t, 2, "scoreGPU") {
		rs = append(rs, fmt.Sprintf("{name: %s, weight: %d}", gpu, rapid.IntRange(1, 5).Draw(t, "gpuWeight")))
	}
	if len(rs) == 0 {
		return ""
	}
	return "        resources: [" + strings.Join(rs, ", ") + "]\n"
}

// genAddedAffinity draws NodeAffinity's addedAffinity: a required node
// selector (possibly without terms, or with an empty one, which matches
// no node) and preferred terms (weight 0 skips a term; weights above 100
// are accepted), over the nodes' zone, disk and hostname labels and their
// names (matchFields), with Gt and Lt, which no node's label passes.
func genAddedAffinity(t *rapid.T) string {
	term := func() string {
		var exprs, fields []string
		n := rapid.IntRange(1, 2).Draw(t, "addedExpressions")
		if oneIn(t, 8, "addedEmptyTerm") {
			n = 0
		}
		for range n {
			key := rapid.SampledFrom([]string{ZoneKey, DiskKey, model.HostnameKey}).Draw(t, "addedKey")
			values := valuesOf(key)
			if key == DiskKey {
				values = []string{"ssd", "hdd"}
			}
			v := func() string { return rapid.SampledFrom(values).Draw(t, "addedValue") }
			switch op := rapid.SampledFrom([]string{"In", "NotIn", "Exists", "DoesNotExist", "Gt"}).Draw(t, "addedOperator"); op {
			case "In", "NotIn":
				exprs = append(exprs, fmt.Sprintf("{key: %s, operator: %s, values: [%s, %s]}", key, op, v(), v()))
			case "Gt":
				exprs = append(exprs, fmt.Sprintf("{key: %s, operator: Gt, values: [\"2\"]}", key))
			default:
				exprs = append(exprs, fmt.Sprintf("{key: %s, operator: %s}", key, op))
			}
		}
		if oneIn(t, 4, "addedMatchFields") {
			op := rapid.SampledFrom([]string{"In", "NotIn"}).Draw(t, "addedFieldOperator")
			fields = append(fields, fmt.Sprintf("{key: metadata.name, operator: %s, values: [%s]}", op, NodeName(rapid.IntRange(0, maxNodes-1).Draw(t, "addedFieldNode"))))
		}
		var parts []string
		if len(exprs) > 0 {
			parts = append(parts, "matchExpressions: ["+strings.Join(exprs, ", ")+"]")
		}
		if len(fields) > 0 {
			parts = append(parts, "matchFields: ["+strings.Join(fields, ", ")+"]")
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	var parts []string
	if oneIn(t, 2, "addedRequired") {
		var terms []string
		n := rapid.IntRange(1, 2).Draw(t, "addedTerms")
		if oneIn(t, 8, "addedNoTerm") {
			n = 0
		}
		for range n {
			terms = append(terms, term())
		}
		parts = append(parts, "requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: ["+strings.Join(terms, ", ")+"]}")
	}
	if len(parts) == 0 || oneIn(t, 2, "addedPreferred") {
		var terms []string
		for range rapid.IntRange(1, 2).Draw(t, "addedPreferredTerms") {
			w := rapid.SampledFrom([]int{0, 1, 7, 100, 250}).Draw(t, "addedWeight")
			terms = append(terms, fmt.Sprintf("{weight: %d, preference: %s}", w, term()))
		}
		parts = append(parts, "preferredDuringSchedulingIgnoredDuringExecution: ["+strings.Join(terms, ", ")+"]")
	}
	return "  - name: NodeAffinity\n    args:\n      addedAffinity: {" + strings.Join(parts, ", ") + "}\n"
}
