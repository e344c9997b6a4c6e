package reduction_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
)

// wideOwner is one workload drawWideInput writes.
type wideOwner struct {
	name, kind string
	replicas   int
}

// drawWideInput draws a tiny cluster with the features users write that
// touch the reductions and drawInput leaves out: 2–3 nodes (node-a the
// smallest; NoSchedule and NoExecute taints); 1–3 owners among
// Deployments, StatefulSets and Jobs whose pod templates may be pinned by
// spec.nodeName (often several to node-a, so that the kubelet rejects
// some at admission), run at priority system-node-critical,
// system-cluster-critical or a user class (the kubelet's critical-pod
// preemption, the scheduler's), ask for hostPort 80, carry readiness
// probes and NoExecute tolerations with tolerationSeconds; PDBs; a
// DeschedulerPolicy with eviction limits; and up to two events among node
// failure (recovering or not, tainted out-of-service or not), kubectl
// delete node, drain, maintenance (in written or any order) and kubectl
// scale.
func drawWideInput(rt *rapid.T) randomInput {
	in := randomInput{applied: map[string]string{}}
	nodeNames := []string{"node-a", "node-b", "node-c"}[:rapid.IntRange(2, 3).Draw(rt, "nodes")]
	var nodes strings.Builder
	nodes.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	taints := map[string]bool{}
	for i, n := range nodeNames {
		fmt.Fprintf(&nodes, "- apiVersion: v1\n  kind: Node\n  metadata: {name: %s, labels: {kubernetes.io/hostname: %s, topology.kubernetes.io/zone: z%d}}\n", n, n, i%2)
		if rapid.IntRange(0, 3).Draw(rt, "taint "+n) == 0 {
			effect := rapid.SampledFrom([]string{"NoSchedule", "NoExecute"}).Draw(rt, "effect "+n)
			taints[effect] = true
			fmt.Fprintf(&nodes, "  spec: {taints: [{key: dedicated, value: batch, effect: %s}]}\n", effect)
		}
		cpu := "1"
		if i > 0 {
			cpu = rapid.SampledFrom([]string{"1", "2"}).Draw(rt, "cpu "+n)
		}
		fmt.Fprintf(&nodes, "  status: {allocatable: {cpu: %q, memory: 2Gi, pods: %q}}\n", cpu, rapid.SampledFrom([]string{"110", "110", "2"}).Draw(rt, "pods "+n))
	}
	in.nodes = nodes.String()

	var owners []wideOwner
	var docs []string
	userClass := false
	// pinned are the nodes a template names in nodeName, which no
	// deleteNode may delete.
	pinned := map[string]bool{}
	for i, name := range []string{"web", "db", "batch"}[:rapid.IntRange(1, 3).Draw(rt, "owners")] {
		kind := rapid.SampledFrom([]string{"Deployment", "Deployment", "StatefulSet", "Job"}).Draw(rt, "kind "+name)
		o := wideOwner{name: name, kind: kind, replicas: rapid.IntRange(1, 2).Draw(rt, "replicas "+name)}
		owners = append(owners, o)
		var b strings.Builder
		switch kind {
		case "Job":
			fmt.Fprintf(&b, "apiVersion: batch/v1\nkind: Job\nmetadata: {name: %s}\nspec:\n  completions: %d\n  parallelism: %d\n", name, o.replicas, o.replicas)
		case "StatefulSet":
			fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: %s}\nspec:\n  replicas: %d\n  serviceName: %s\n", name, o.replicas, name)
		default:
			fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: %d\n", name, o.replicas)
		}
		if kind != "Job" {
			fmt.Fprintf(&b, "  selector: {matchLabels: {app: %s}}\n", name)
		}
		fmt.Fprintf(&b, "  template:\n    metadata: {labels: {app: %s}}\n    spec:\n", name)
		if kind == "Job" {
			b.WriteString("      restartPolicy: Never\n")
		}
		// Pinned templates go mostly to node-a, the small node, so that
		// two owners pinned there compete at the kubelet's admission.
		if pin := rapid.SampledFrom([]string{"", "", "node-a", "node-a", "node-b"}).Draw(rt, "nodeName "+name); pin != "" {
			pinned[pin] = true
			fmt.Fprintf(&b, "      nodeName: %s\n", pin)
		}
		switch class := rapid.SampledFrom([]string{"", "", "system-node-critical", "system-cluster-critical", "high"}).Draw(rt, "priority "+name); class {
		case "":
		case "high":
			userClass = true
			fallthrough
		default:
			fmt.Fprintf(&b, "      priorityClassName: %s\n", class)
		}
		if (taints["NoExecute"] || taints["NoSchedule"]) && rapid.Bool().Draw(rt, "tolerate "+name) {
			if taints["NoExecute"] && rapid.Bool().Draw(rt, "tolerationSeconds "+name) {
				b.WriteString("      tolerations: [{key: dedicated, operator: Exists, effect: NoExecute, tolerationSeconds: 10}]\n")
			} else {
				b.WriteString("      tolerations: [{key: dedicated, operator: Exists}]\n")
			}
		}
		cpu := rapid.SampledFrom([]string{"250m", "500m", "1"}).Draw(rt, "request "+name)
		fmt.Fprintf(&b, "      containers:\n      - name: %s\n        resources: {requests: {cpu: %s, memory: 256Mi}}\n", name, cpu)
		if rapid.IntRange(0, 2).Draw(rt, "hostPort "+name) == 0 {
			b.WriteString("        ports: [{containerPort: 8080, hostPort: 80}]\n")
		}
		if kind != "Job" && rapid.IntRange(0, 2).Draw(rt, "probe "+name) == 0 {
			b.WriteString("        readinessProbe: {httpGet: {path: /healthz, port: 8080}}\n")
		}
		docs = append(docs, b.String())
		if rapid.IntRange(0, 3).Draw(rt, "pdb "+name) == 0 {
			docs = append(docs, fmt.Sprintf("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: %s}\nspec:\n  %s: 1\n  selector: {matchLabels: {app: %s}}\n",
				name, rapid.SampledFrom([]string{"minAvailable", "maxUnavailable"}).Draw(rt, fmt.Sprintf("pdb kind %d", i)), name))
		}
	}
	if userClass {
		docs = append(docs, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n")
	}
	if rapid.IntRange(0, 2).Draw(rt, "descheduler") == 0 {
		var b strings.Builder
		b.WriteString("apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\n")
		for _, limit := range []string{"maxNoOfPodsToEvictPerNode", "maxNoOfPodsToEvictTotal"} {
			if rapid.Bool().Draw(rt, limit) {
				fmt.Fprintf(&b, "%s: 1\n", limit)
			}
		}
		plugin := rapid.SampledFrom([]string{"RemoveDuplicates", "RemovePodsViolatingNodeTaints", "RemovePodsViolatingTopologySpreadConstraint"}).Draw(rt, "plugin")
		point := "balance"
		if plugin == "RemovePodsViolatingNodeTaints" {
			point = "deschedule"
		}
		fmt.Fprintf(&b, "profiles:\n- name: default\n  plugins:\n    %s:\n      enabled: [%s]\n", point, plugin)
		docs = append(docs, b.String())
	}
	in.manifests = strings.Join(docs, "---\n")

	var deployments []string
	for _, o := range owners {
		if o.kind == "Deployment" {
			deployments = append(deployments, o.name)
		}
	}
	var events []string
	// deleted are the nodes a deleteNode deletes, took the nodes other
	// events name or take down (the model refuses what would bring a
	// deleted node back).
	deleted, took := map[string]bool{}, map[string]bool{}
	for i := range rapid.IntRange(0, 2).Draw(rt, "events") {
		n := rapid.SampledFrom(nodeNames).Draw(rt, fmt.Sprintf("event %d node", i))
		when := rapid.SampledFrom([]string{"main", "afterStable"}).Draw(rt, fmt.Sprintf("event %d when", i))
		switch kind := rapid.SampledFrom([]string{"nodeFailure", "nodeLoss", "deleteNode", "drain", "maintenance", "scaleDeployment"}).Draw(rt, fmt.Sprintf("event %d", i)); kind {
		case "nodeFailure":
			if deleted[n] || took[n] {
				break
			}
			took[n] = true
			events = append(events, fmt.Sprintf("- {kind: nodeFailure, node: %s, when: %s}", n, when))
		case "nodeLoss":
			// A node lost for good goes with no maintenance, which would
			// bring it back.
			if took[n] || took["*"] {
				break
			}
			took[n] = true
			events = append(events, fmt.Sprintf("- {kind: nodeFailure, node: %s, recovers: false, outOfService: %v, when: %s}", n,
				rapid.Bool().Draw(rt, fmt.Sprintf("event %d outOfService", i)), when))
			took["lost"] = true
		case "deleteNode":
			if deleted[n] || took[n] || took["*"] || pinned[n] {
				break
			}
			deleted[n] = true
			events = append(events, fmt.Sprintf("- {kind: deleteNode, node: %s, drain: %v, when: %s}", n, rapid.Bool().Draw(rt, fmt.Sprintf("event %d drain", i)), when))
		case "drain":
			if deleted[n] || took[n] {
				break
			}
			took[n] = true
			events = append(events, fmt.Sprintf("- {kind: drain, nodes: [%s], when: afterStable}", n))
		case "maintenance":
			if len(deleted) > 0 || took["*"] || took["lost"] {
				break
			}
			took["*"] = true
			events = append(events, fmt.Sprintf("- {kind: maintenance, order: %s}", rapid.SampledFrom([]string{"written", "any"}).Draw(rt, fmt.Sprintf("event %d order", i))))
		case "scaleDeployment":
			if len(deployments) == 0 {
				break
			}
			d := rapid.SampledFrom(deployments).Draw(rt, fmt.Sprintf("event %d deployment", i))
			events = append(events, fmt.Sprintf("- {kind: scaleDeployment, deployment: %s, maxDelta: 1, when: %s}", d, when))
		}
	}

	var decls []string
	for _, o := range owners {
		var choices []string
		switch o.kind {
		case "Job":
			choices = []string{"job_completes", "no_oscillation_rejection"}
		default:
			choices = []string{"replica_num_always_meet_min", "no_oscillation_eviction", "no_oscillation_rejection", "rollout_completes", "pod_balance_across_node"}
		}
		for _, intent := range choices {
			if rapid.IntRange(0, 3).Draw(rt, intent+" "+o.name) != 0 {
				continue
			}
			if intent == "pod_balance_across_node" {
				decls = append(decls, fmt.Sprintf("- {name: %s, params: {deployment: %s, maxSkew: 1}}", intent, o.name))
				continue
			}
			decls = append(decls, fmt.Sprintf("- {name: %s, params: {deployment: %s}}", intent, o.name))
		}
	}
	in.setIntents(decls, events)
	return in
}

// TestReductionsSoundOnWideClusters: on tiny random clusters with the
// features of drawWideInput, every property has the same verdict with
// node/pod-slot symmetry alone, partial-order reduction alone, and both,
// as with neither, where both runs decide it; the reduced counterexamples
// replay; and on the first reachable states the footprints and stubborn
// sets pass checkFootprints and checkStubborn (TestPORSoundOnRandomClusters
// over drawInput's features).
//
// -rapid.checks=N runs more inputs (100 by default); -rapid.seed
// reproduces a run.
func TestReductionsSoundOnWideClusters(t *testing.T) {
	var n reductionCounts
	rapid.Check(t, func(rt *rapid.T) { reductionsAgree(rt, drawWideInput(rt), &n) })
	t.Logf("%d verdicts compared (%d of seeded depth-first searches); symmetry stored fewer states on %d inputs, partial-order reduction on %d", n.compared, n.dfsCompared, n.symReduced, n.porReduced)
}

// reductionCounts are what reductionsAgree compared.
type reductionCounts struct{ compared, dfsCompared, symReduced, porReduced int }

// reductionsAgree checks in as TestReductionsSoundOnWideClusters says and
// adds to n what it compared.
func reductionsAgree(rt *rapid.T, in randomInput, n *reductionCounts) {
	p := inputProblem(rt, in, compose.Options{})
	sys := p.System
	checkFirstStates(rt, sys, in)
	seed := rapid.Uint64Range(1, 1<<20).Draw(rt, "seed")
	run := func(noSym, noPOR, dfs bool) checker.Result[*model.State] {
		return checkRandom(rt, p, in, noSym, noPOR, dfs, seed)
	}
	full := run(true, true, false)
	for _, mode := range []struct {
		name         string
		noSym, noPOR bool
		dfs          bool
	}{
		{"symmetry", false, true, false}, {"partial-order reduction", true, false, false}, {"both reductions", false, false, false},
		{"both reductions, depth-first", false, false, true},
	} {
		reduced := run(mode.noSym, mode.noPOR, mode.dfs)
		if reduced.Stats.States < full.Stats.States && !mode.dfs {
			if mode.noPOR {
				n.symReduced++
			} else if mode.noSym {
				n.porReduced++
			}
		}
		for i, a := range full.Properties {
			b := reduced.Properties[i]
			if a.Verdict == checker.Unknown || b.Verdict == checker.Unknown {
				continue
			}
			n.compared++
			if mode.dfs {
				n.dfsCompared++
			}
			if a.Verdict != b.Verdict {
				rt.Fatalf("%s: %v without reductions, %v with %s\n%s", a.Name, a.Verdict, b.Verdict, mode.name, in)
			}
			if b.Trace != nil {
				replayTrace(rt, sys, b.Trace)
			}
		}
	}
}

// TestSymmetryOnWideClusters: on random reachable states of drawWideInput's
// clusters, a random permutation within the movable blocks keeps the
// canonical form, the invariants and end conditions, and is an
// automorphism of the transition relation one step deep (equivariant), as
// TestSymmetryCanonicalInvariant and TestSymmetryCommutesWithSteps check
// on the fixed clusters.
func TestSymmetryOnWideClusters(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in := drawWideInput(rt)
		p := inputProblem(rt, in, compose.Options{})
		sys := p.System
		sym := sys.Symmetry
		if sym == nil {
			return
		}
		s := walk(rt, sys)
		want := encode(sys.U, sym.Canonical(s))
		perm := randomPermutation(rt, sym, s)
		permuted := perm.Apply(sys.U, s)
		if got := encode(sys.U, sym.Canonical(permuted)); string(got) != string(want) {
			rt.Fatalf("permutation %v changes the canonical form\nstate:\n%s\npermuted:\n%s\n%s", perm,
				model.Describe(sys.U, s), model.Describe(sys.U, permuted), in)
		}
		for _, other := range []*model.State{sym.Canonical(s), permuted} {
			for _, inv := range p.Properties.Invariants {
				if inv.Holds(s) != inv.Holds(other) {
					rt.Fatalf("invariant %s differs between a state and its permutation\n%s", inv.Name, in)
				}
			}
			for _, end := range p.Properties.EndConditions {
				if end.Holds(s) != end.Holds(other) {
					rt.Fatalf("end condition %s differs between a state and its permutation\n%s", end.Name, in)
				}
			}
		}
		if ok, detail := equivariant(sys, s, perm); !ok && !sameCanonicalSuccessors(sys, s, permuted) {
			rt.Fatalf("permutation %v is not an automorphism here\nstate:\n%s\n%s\n%s", perm, model.Describe(sys.U, s), detail, in)
		}
	})
}

// sameCanonicalSuccessors reports whether s and its permutation have the
// same successors up to symmetry. The exact check (equivariant) fails
// where one step frees a pod slot and fills one, as the StatefulSet
// controller replacing a pod the kubelet rejected: it fills the lowest
// free slot, which the permutation may have moved below the freed one,
// and the two successors differ by a permutation of pod slots alone.
func sameCanonicalSuccessors(sys *compose.System, s, permuted *model.State) bool {
	keys := func(x *model.State) []string {
		var out []string
		for _, t := range successors(sys, x) {
			out = append(out, string(encode(sys.U, sys.Symmetry.Canonical(t))))
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(keys(s), keys(permuted))
}
