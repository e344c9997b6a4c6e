package lifecyclediff

import (
	"context"
	"flag"
	"maps"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
	"pgregory.net/rapid"

	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
)

var cases = flag.Int("cases", 1000, "random cases TestDifferential compares (rapid checks)")

var (
	taintKeys      = []string{"a", "b", "c"}
	taintValues    = []string{"", "x", "y"}
	tolSeconds     = []int64{0, 1, 60, 300, 600}
	tolEffects     = []string{"", "NoExecute", "NoExecute", "NoSchedule", "PreferNoSchedule"}
	nodeEffects    = []string{"NoExecute", "NoExecute", "NoSchedule", "PreferNoSchedule"}
	controllerKeyz = []string{notReadyKey, unreachableKey}
	// tolKeyz: the keys of the NoExecute taints Kubernetes puts on a
	// node, for tolerations.
	tolKeyz = []string{notReadyKey, unreachableKey, outOfServiceKey}
	// outOfServiceValues: the out-of-service taint's value, and others.
	outOfServiceValues = []string{outOfServiceValue, "", "x"}
)

// drawKey draws a key of one of the node lifecycle controller's taints
// one time in odds, else a, b or c.
func drawKey(t *rapid.T, label string, odds int) string {
	if rapid.IntRange(1, odds).Draw(t, label+"Controller") == 1 {
		return rapid.SampledFrom(controllerKeyz).Draw(t, label+"ControllerKey")
	}
	return rapid.SampledFrom(taintKeys).Draw(t, label)
}

// genToleration draws a toleration the API server's validation accepts:
// an empty key (one in eight) with Exists, else a key (one of the node
// lifecycle controller's one time in four) with Exists,
// Equal or no operator; a value only without Exists; any effect or
// none; tolerationSeconds (0, 1, 60, 300 or 600 s, or none one time in
// two) only with NoExecute.
func genToleration(t *rapid.T) Toleration {
	var tol Toleration
	if rapid.IntRange(0, 7).Draw(t, "emptyKey") > 0 {
		tol.Key = rapid.SampledFrom(taintKeys).Draw(t, "tolKey")
		if rapid.IntRange(1, 4).Draw(t, "tolKeyController") == 1 {
			tol.Key = rapid.SampledFrom(tolKeyz).Draw(t, "tolKeyKubernetes")
		}
		tol.Operator = rapid.SampledFrom([]string{"Exists", "Equal", ""}).Draw(t, "operator")
	} else {
		tol.Operator = "Exists"
	}
	if tol.Operator != "Exists" {
		values := taintValues
		if tol.Key == outOfServiceKey {
			values = outOfServiceValues
		}
		tol.Value = rapid.SampledFrom(values).Draw(t, "tolValue")
	}
	tol.Effect = rapid.SampledFrom(tolEffects).Draw(t, "tolEffect")
	if tol.Effect == "NoExecute" && rapid.Bool().Draw(t, "hasSeconds") {
		s := rapid.SampledFrom(tolSeconds).Draw(t, "seconds")
		tol.Seconds = &s
	}
	return tol
}

// genCase draws a case: 1–5 nodes in one or two zones, one in eight
// excluded from the zone states, Ready True four
// times in seven, False two, Unknown one, each with 0–3 taints (a key a,
// b or c, or one time in ten a node lifecycle controller's key; a value
// empty, x or y; NoExecute one time in two, else NoSchedule or
// PreferNoSchedule); 0–8 pods bound to them, Running six times in ten,
// Pending two, Terminating or Failed one each, with 0–3 tolerations
// (genToleration).
func genCase(t *rapid.T) *Case {
	c := &Case{}
	zones := rapid.IntRange(1, 2).Draw(t, "zones")
	for range rapid.IntRange(1, 5).Draw(t, "nodes") {
		n := Node{Zone: rapid.IntRange(0, zones-1).Draw(t, "zone"), ExcludeDisruption: rapid.IntRange(1, 8).Draw(t, "excluded") == 1}
		switch rapid.IntRange(0, 6).Draw(t, "ready") {
		case 4, 5:
			n.Ready = ConditionFalse
		case 6:
			n.Ready = ConditionUnknown
		}
		n.OutOfService = n.Ready != ConditionTrue && rapid.IntRange(1, 3).Draw(t, "outOfService") == 1
		for range rapid.IntRange(0, 3).Draw(t, "taints") {
			n.Taints = append(n.Taints, Taint{Key: drawKey(t, "taintKey", 10), Value: rapid.SampledFrom(taintValues).Draw(t, "taintValue"),
				Effect: rapid.SampledFrom(nodeEffects).Draw(t, "taintEffect")})
		}
		c.Nodes = append(c.Nodes, n)
	}
	for range rapid.IntRange(0, 8).Draw(t, "pods") {
		p := Pod{Node: rapid.IntRange(0, len(c.Nodes)-1).Draw(t, "podNode")}
		switch rapid.IntRange(0, 9).Draw(t, "phase") {
		case 6, 7:
			p.Phase = Pending
		case 8:
			p.Phase = Terminating
		case 9:
			p.Phase = Failed
		default:
			p.Phase = Running
		}
		for range rapid.IntRange(0, 3).Draw(t, "tolerations") {
			p.Tolerations = append(p.Tolerations, genToleration(t))
		}
		c.Pods = append(c.Pods, p)
	}
	return c
}

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, 1) }

func newUpstream(t *testing.T) *Upstream {
	up, err := NewUpstream(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return up
}

// TestDifferential compares the model with the node lifecycle and taint
// eviction controllers on -cases random cases: every disagreement must
// belong to a known class; rapid shrinks an unexplained one. The counts
// are logged.
func TestDifferential(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	withChecks(t, *cases)
	counts := map[string]int{}
	evictions := map[Eviction]int{}
	zones := map[nodelifecycle.ZoneState]int{}
	n, pods, agreePods, tainted, outOfService, forced := 0, 0, 0, 0, 0, 0
	oosPods, oosAgree := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		c := genCase(t)
		v, err := up.Check(ctx, c, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, c)
		}
		if v.Class == Unexplained {
			t.Fatalf("unexplained disagreement\n%smodel:\n%supstream:\n%s", c, v.Model, v.Upstream)
		}
		n++
		counts[v.Class]++
		for i, a := range v.Upstream.Pods {
			pods++
			evictions[a.Eviction]++
			if a.ForceDeleted {
				forced++
			}
			if c.Nodes[c.Pods[i].Node].OutOfService {
				oosPods++
				if a == v.Model.Pods[i] {
					oosAgree++
				}
			}
			if a == v.Model.Pods[i] {
				agreePods++
			}
		}
		for _, a := range v.Upstream.Nodes {
			if len(a.NoExecute) > 0 {
				tainted++
			}
		}
		for _, nd := range c.Nodes {
			if nd.OutOfService {
				outOfService++
			}
		}
		for _, s := range up.ZoneStates(c) {
			zones[s]++
		}
	})
	t.Logf("%d cases: agree %d", n, counts[Agree])
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if k != Agree {
			t.Logf("  %s: %d", k, counts[k])
		}
	}
	t.Logf("%d pods (%d with the same answer on both sides): upstream evicts %d at once, %d later, leaves %d; %d nodes with a not-ready or unreachable NoExecute taint upstream",
		pods, agreePods, evictions[AtOnce], evictions[Later], evictions[Never], tainted)
	t.Logf("zone states: %v; %d nodes tainted out-of-service, %d pods on them (%d with the same answer), %d force-deleted by the pod garbage collector upstream",
		zones, outOfService, oosPods, oosAgree, forced)
	if n >= 1000 && (evictions[AtOnce] == 0 || evictions[Later] == 0 || evictions[Never] == 0 || zones[partialDisruption] == 0 || zones[fullDisruption] == 0 || forced == 0) {
		t.Errorf("a branch was never reached in %d cases: evictions %v, zone states %v, %d pods force-deleted", n, evictions, zones, forced)
	}
}
