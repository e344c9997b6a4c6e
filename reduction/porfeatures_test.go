package reduction_test

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/examples/incidents"
	"github.com/kivi-go/kivi/model"
)

// drawFeatureInput draws a tiny cluster with the features neither
// drawInput nor drawWideInput writes: 2–3 nodes in two zones, one of them
// labelled pool=fast; 1–3 workloads among Deployments (Recreate or
// maxSurge 0, an HPA with a scale-down behavior), a StatefulSet (Parallel
// or OrderedReady), a CronJob (Forbid, Replace or Allow) and a DaemonSet,
// whose pods may carry memory limits, a zone spread constraint (minDomains
// 2 or none), pod anti-affinity (required or preferred, by hostname) and
// node affinity to the fast pool (required or preferred); a
// KubeSchedulerConfiguration scoring MostAllocated; a ResourceQuota on
// pods or cpu; a KubeletConfiguration with a hard memory threshold; a
// DeschedulerPolicy with one of LowNodeUtilization, HighNodeUtilization,
// RemovePodsViolatingInterPodAntiAffinity, RemovePodsViolatingNodeAffinity,
// PodLifeTime, RemovePodsHavingTooManyRestarts and RemoveFailedPods; and up
// to two events among kubectl rollout restart and undo (after an apply),
// kubectl apply, memory and CPU changes, node failure and drain.
func drawFeatureInput(rt *rapid.T) randomInput {
	in := randomInput{applied: map[string]string{}}
	nodeNames := []string{"node-a", "node-b", "node-c"}[:rapid.IntRange(2, 3).Draw(rt, "nodes")]
	var nodes strings.Builder
	nodes.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i, n := range nodeNames {
		pool := "standard"
		if i == 0 && rapid.Bool().Draw(rt, "fast pool") {
			pool = "fast"
		}
		fmt.Fprintf(&nodes, "- apiVersion: v1\n  kind: Node\n  metadata: {name: %s, labels: {kubernetes.io/hostname: %s, topology.kubernetes.io/zone: z%d, pool: %s}}\n", n, n, i%2, pool)
		fmt.Fprintf(&nodes, "  status: {allocatable: {cpu: %q, memory: %s, pods: \"110\"}}\n",
			rapid.SampledFrom([]string{"1", "2"}).Draw(rt, "cpu "+n), rapid.SampledFrom([]string{"1Gi", "2Gi"}).Draw(rt, "memory "+n))
	}
	in.nodes = nodes.String()

	var docs, hpas, deployments []string
	daemonSet := false
	podSpec := func(b *strings.Builder, name, tag, indent string) {
		w := func(format string, args ...any) { fmt.Fprintf(b, indent+format, args...) }
		switch rapid.IntRange(0, 4).Draw(rt, "spread "+tag) {
		case 0:
			w("topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: %s}}}]\n", name)
		case 1:
			w("topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: %s}}}]\n", name)
		case 2:
			w("topologySpreadConstraints: [{maxSkew: 1, minDomains: 2, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: %s}}}]\n", name)
		}
		var affinity []string
		switch rapid.IntRange(0, 4).Draw(rt, "anti-affinity "+tag) {
		case 0:
			affinity = append(affinity, fmt.Sprintf("podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: %s}}}]}", name))
		case 1:
			affinity = append(affinity, fmt.Sprintf("podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 100, podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: %s}}}}]}", name))
		}
		switch rapid.IntRange(0, 4).Draw(rt, "node affinity "+tag) {
		case 0:
			affinity = append(affinity, "nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [fast]}]}]}}")
		case 1:
			affinity = append(affinity, "nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 50, preference: {matchExpressions: [{key: pool, operator: In, values: [fast]}]}}]}")
		}
		if len(affinity) > 0 {
			w("affinity: {%s}\n", strings.Join(affinity, ", "))
		}
		cpu := rapid.SampledFrom([]string{"250m", "500m"}).Draw(rt, "request "+tag)
		w("containers:\n")
		w("- name: %s\n", name)
		if rapid.IntRange(0, 2).Draw(rt, "memory limit "+tag) == 0 {
			w("  resources: {requests: {cpu: %s, memory: 256Mi}, limits: {memory: 512Mi}}\n", cpu)
		} else {
			w("  resources: {requests: {cpu: %s, memory: 256Mi}}\n", cpu)
		}
	}
	for i, name := range []string{"web", "db", "cron"}[:rapid.IntRange(1, 3).Draw(rt, "workloads")] {
		var b strings.Builder
		kinds := []string{"Deployment", "Deployment", "StatefulSet", "CronJob"}
		if !daemonSet && i > 0 {
			// A DaemonSet only reserves room: the first workload is one
			// the model runs.
			kinds = append(kinds, "DaemonSet")
		}
		switch kind := rapid.SampledFrom(kinds).Draw(rt, "kind "+name); kind {
		case "CronJob":
			fmt.Fprintf(&b, "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: %s}\nspec:\n  schedule: \"*/5 * * * *\"\n  concurrencyPolicy: %s\n",
				name, rapid.SampledFrom([]string{"Forbid", "Replace", "Allow"}).Draw(rt, "concurrency "+name))
			fmt.Fprintf(&b, "  jobTemplate:\n    spec:\n      backoffLimit: %d\n      template:\n        metadata: {labels: {app: %s}}\n        spec:\n          restartPolicy: Never\n",
				rapid.IntRange(0, 1).Draw(rt, "backoffLimit "+name), name)
			podSpec(&b, name, name, "          ")
		case "DaemonSet":
			daemonSet = true
			fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: %s}\nspec:\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec:\n", name, name, name)
			fmt.Fprintf(&b, "      containers:\n      - name: %s\n        resources: {requests: {cpu: 100m, memory: 128Mi}}\n", name)
		default:
			replicas := rapid.IntRange(1, 2).Draw(rt, "replicas "+name)
			if kind == "StatefulSet" {
				fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: %s}\nspec:\n  replicas: %d\n  serviceName: %s\n", name, replicas, name)
				if rapid.Bool().Draw(rt, "parallel "+name) {
					b.WriteString("  podManagementPolicy: Parallel\n")
				}
			} else {
				deployments = append(deployments, name)
				fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: %d\n", name, replicas)
				switch rapid.IntRange(0, 3).Draw(rt, "strategy "+name) {
				case 0:
					b.WriteString("  strategy: {type: Recreate}\n")
				case 1:
					b.WriteString("  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n")
				}
				if rapid.IntRange(0, 3).Draw(rt, "hpa "+name) == 0 {
					hpas = append(hpas, fmt.Sprintf("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: %s}\nspec:\n"+
						"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %s}\n  minReplicas: 1\n  maxReplicas: 3\n"+
						"  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}}]\n"+
						"  behavior: {scaleDown: {stabilizationWindowSeconds: 30, policies: [{type: Pods, value: 1, periodSeconds: 15}]}}\n", name, name))
				}
			}
			fmt.Fprintf(&b, "  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec:\n", name, name)
			podSpec(&b, name, name, "      ")
			if kind == "Deployment" {
				// The version kubectl apply rolls out: the same pod spec
				// drawn anew.
				var v2 strings.Builder
				fmt.Fprintf(&v2, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: %d\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s, version: v2}}\n    spec:\n", name, replicas, name, name)
				podSpec(&v2, name, name+" v2", "      ")
				in.applied[name+"-v2.yaml"] = v2.String()
			}
		}
		docs = append(docs, b.String())
	}
	docs = append(docs, hpas...)
	if rapid.IntRange(0, 3).Draw(rt, "scheduler configuration") == 0 {
		docs = append(docs, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n"+
			"  pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}}\n")
	}
	switch rapid.IntRange(0, 5).Draw(rt, "quota") {
	case 0:
		docs = append(docs, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pods}\nspec:\n  hard: {pods: \"3\"}\n")
	case 1:
		docs = append(docs, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: cpu}\nspec:\n  hard: {requests.cpu: \"1\"}\n")
	}
	if rapid.IntRange(0, 3).Draw(rt, "kubelet configuration") == 0 {
		docs = append(docs, "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nevictionHard: {memory.available: 200Mi}\n")
	}
	if rapid.IntRange(0, 1).Draw(rt, "descheduler") == 0 {
		plugin := rapid.SampledFrom([]string{"LowNodeUtilization", "HighNodeUtilization", "RemovePodsViolatingInterPodAntiAffinity",
			"RemovePodsViolatingNodeAffinity", "PodLifeTime", "RemovePodsHavingTooManyRestarts", "RemoveFailedPods"}).Draw(rt, "plugin")
		point, args := "deschedule", ""
		switch plugin {
		case "LowNodeUtilization":
			point, args = "balance", "{thresholds: {cpu: 30, memory: 30}, targetThresholds: {cpu: 60, memory: 60}}"
		case "HighNodeUtilization":
			point, args = "balance", "{thresholds: {cpu: 50, memory: 50}}"
		case "RemovePodsViolatingNodeAffinity":
			args = "{nodeAffinityType: [requiredDuringSchedulingIgnoredDuringExecution, preferredDuringSchedulingIgnoredDuringExecution]}"
		case "PodLifeTime":
			args = "{maxPodLifeTimeSeconds: 600}"
		case "RemovePodsHavingTooManyRestarts":
			args = "{podRestartThreshold: 1}"
		}
		var b strings.Builder
		b.WriteString("apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\nprofiles:\n- name: default\n")
		if args != "" {
			fmt.Fprintf(&b, "  pluginConfig:\n  - name: %s\n    args: %s\n", plugin, args)
		}
		fmt.Fprintf(&b, "  plugins:\n    %s:\n      enabled: [%s]\n", point, plugin)
		docs = append(docs, b.String())
	}
	in.manifests = strings.Join(docs, "---\n")

	var events []string
	took := map[string]bool{}
	applied := map[string]bool{}
	for i := range rapid.IntRange(0, 2).Draw(rt, "events") {
		n := rapid.SampledFrom(nodeNames).Draw(rt, fmt.Sprintf("event %d node", i))
		when := rapid.SampledFrom([]string{"main", "afterStable"}).Draw(rt, fmt.Sprintf("event %d when", i))
		kinds := []string{"nodeFailure", "drain", "eventMemoryChange"}
		if len(deployments) > 0 {
			kinds = append(kinds, "rolloutRestart", "applyDeployment", "rolloutUndo", "eventCpuChange")
		}
		switch kind := rapid.SampledFrom(kinds).Draw(rt, fmt.Sprintf("event %d", i)); kind {
		case "nodeFailure":
			if took[n] {
				break
			}
			took[n] = true
			events = append(events, fmt.Sprintf("- {kind: nodeFailure, node: %s, when: %s}", n, when))
		case "drain":
			if took[n] {
				break
			}
			took[n] = true
			events = append(events, fmt.Sprintf("- {kind: drain, nodes: [%s], when: afterStable}", n))
		case "eventMemoryChange":
			if len(deployments) == 0 {
				break
			}
			d := rapid.SampledFrom(deployments).Draw(rt, fmt.Sprintf("event %d deployment", i))
			events = append(events, fmt.Sprintf("- {kind: eventMemoryChange, deployment: %s, maxDelta: 1Gi}", d))
		case "eventCpuChange":
			d := rapid.SampledFrom(deployments).Draw(rt, fmt.Sprintf("event %d deployment", i))
			events = append(events, fmt.Sprintf("- {kind: eventCpuChange, deployment: %s, maxDelta: 250}", d))
		case "rolloutRestart":
			d := rapid.SampledFrom(deployments).Draw(rt, fmt.Sprintf("event %d deployment", i))
			events = append(events, fmt.Sprintf("- {kind: rolloutRestart, deployment: %s, when: %s}", d, when))
		case "applyDeployment", "rolloutUndo":
			d := rapid.SampledFrom(deployments).Draw(rt, fmt.Sprintf("event %d deployment", i))
			if !applied[d] {
				applied[d] = true
				events = append(events, fmt.Sprintf("- {kind: applyDeployment, manifest: %s-v2.yaml, when: %s}", d, when))
			}
			if kind == "rolloutUndo" {
				events = append(events, fmt.Sprintf("- {kind: rolloutUndo, deployment: %s, when: afterStable}", d))
			}
		}
	}

	var decls []string
	for _, d := range deployments {
		for _, intent := range []string{"replica_num_always_meet_min", "no_oscillation_eviction", "no_oscillation_rejection", "rollout_completes", "pod_balance_across_node"} {
			if rapid.IntRange(0, 3).Draw(rt, intent+" "+d) != 0 {
				continue
			}
			if intent == "pod_balance_across_node" {
				decls = append(decls, fmt.Sprintf("- {name: %s, params: {deployment: %s, maxSkew: 1}}", intent, d))
				continue
			}
			decls = append(decls, fmt.Sprintf("- {name: %s, params: {deployment: %s}}", intent, d))
		}
	}
	in.setIntents(decls, events)
	return in
}

// TestReductionsSoundOnFeatureClusters is TestReductionsSoundOnWideClusters
// over drawFeatureInput's clusters: the same verdicts with symmetry,
// partial-order reduction, both, and both depth-first as with neither,
// reduced counterexamples that replay, and footprints and stubborn sets
// that pass on the first reachable states.
func TestReductionsSoundOnFeatureClusters(t *testing.T) {
	var n reductionCounts
	rapid.Check(t, func(rt *rapid.T) { reductionsAgree(rt, drawFeatureInput(rt), &n) })
	t.Logf("%d verdicts compared (%d of seeded depth-first searches); symmetry stored fewer states on %d inputs, partial-order reduction on %d", n.compared, n.dfsCompared, n.symReduced, n.porReduced)
	if n.compared == 0 || n.symReduced == 0 {
		t.Errorf("compared %d verdicts, symmetry reduced %d inputs: the test compared nothing", n.compared, n.symReduced)
	}
}

// TestSymmetryStepsLikeStatesOnRandomClusters: on the random clusters of
// drawInput, drawWideInput and drawFeatureInput, every reachable state
// (breadth-first, up to 1 500 orbits) and its canonical form step to the
// same orbits (stepsApart). The search merges a state with every state of
// its orbit and explores one of them, which is sound only when they step
// alike; a step that decides between pods of different contents by pod
// slot, which the reduction permutes, breaks it. This found two: the
// kubelet handed a node's pods of one owner in slot order when the node
// came back (model.NodePodsInOwnerOrder now orders them by content), and a
// pod leaving the kubelet queue let the next owner move ahead only where
// it was its owner's first item (model.State.ForgetPod keeps the owners'
// order). Verdicts alone (TestReductionsSoundOnWideClusters) rarely show
// such a difference.
func TestSymmetryStepsLikeStatesOnRandomClusters(t *testing.T) {
	for _, g := range []struct {
		name string
		draw func(*rapid.T) randomInput
	}{{"drawInput", drawInput}, {"drawWideInput", drawWideInput}, {"drawFeatureInput", drawFeatureInput}} {
		t.Run(g.name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				// Five inputs a case: each is small, and the slot reads
				// this looks for need a rare state (one in a few hundred
				// inputs each).
				for range 5 {
					in := g.draw(rt)
					p := inputProblem(rt, in, compose.Options{})
					sys := p.System
					if sys.Symmetry == nil || sys.Symmetry.Trivial() {
						continue
					}
					if s, a, b := stepsApart(sys, 1500); s != nil {
						rt.Fatalf("a state and its canonical form step to %d and %d orbits\nstate:\n%s\ncanonical form:\n%s\n%s",
							a, b, model.Describe(sys.U, s), model.Describe(sys.U, sys.Symmetry.Canonical(s)), in)
					}
				}
			})
		})
	}
}

// TestSymmetryStepsLikeStatesOnIncidents: the check of
// TestSymmetryStepsLikeStatesOnRandomClusters on every incident of
// examples/incidents and its fixed twin, every reachable state up to 3 000
// orbits: the configurations users reported, as written.
func TestSymmetryStepsLikeStatesOnIncidents(t *testing.T) {
	checked := 0
	for _, inc := range incidents.List() {
		for _, fixed := range []bool{false, true} {
			c, _, err := incidents.Load(inc.Name, fixed)
			if err != nil {
				t.Fatalf("%s: %v", inc.Name, err)
			}
			p, err := compose.NewProblem(c, compose.Options{})
			if err != nil {
				t.Fatalf("%s: %v", inc.Name, err)
			}
			sys := p.System
			if sys.Symmetry == nil || sys.Symmetry.Trivial() {
				continue
			}
			checked++
			if s, a, b := stepsApart(sys, 3000); s != nil {
				t.Errorf("%s (fixed: %v): a state and its canonical form step to %d and %d orbits\nstate:\n%s\ncanonical form:\n%s",
					inc.Name, fixed, a, b, model.Describe(sys.U, s), model.Describe(sys.U, sys.Symmetry.Canonical(s)))
			}
		}
	}
	if checked == 0 {
		t.Error("no incident has a symmetry: the test checked nothing")
	}
}

// TestSymmetryNeverMergesDistinctOrbitsOnRandomClusters is
// TestSymmetryNeverMergesDistinctOrbits on the small random clusters of the
// three generators (at most three nodes and six pod slots, where the
// brute-force orbit is cheap): among the first 250 reachable states, two
// have the same canonical encoding exactly when one is in the other's
// orbit (domain swaps included), and a state's canonical form is in its
// orbit.
func TestSymmetryNeverMergesDistinctOrbitsOnRandomClusters(t *testing.T) {
	generators := []func(*rapid.T) randomInput{drawInput, drawWideInput, drawFeatureInput}
	var small, merged int
	rapid.Check(t, func(rt *rapid.T) {
		in := generators[rapid.IntRange(0, len(generators)-1).Draw(rt, "generator")](rt)
		p := inputProblem(rt, in, compose.Options{})
		sys := p.System
		c := sys.Symmetry
		if c == nil || c.Trivial() || len(sys.U.Nodes) > 3 || sys.U.PodSlots > 6 {
			return
		}
		small++
		var states []*model.State
		forStates(sys, 250, func(s *model.State) { states = append(states, s) })
		keys := make([]string, len(states))
		first := map[string]int{}
		for i, s := range states {
			keys[i] = string(c.AppendCanonical(nil, s))
			if _, ok := first[keys[i]]; !ok {
				first[keys[i]] = i
			}
		}
		for k, i := range first {
			s := states[i]
			inOrbit := orbitOf(sys, s)
			if !inOrbit(c.Canonical(s)) {
				rt.Fatalf("the canonical form is not in the state's orbit\nstate:\n%s\n%s", model.Describe(sys.U, s), in)
			}
			for j, other := range states {
				if j == i || (keys[j] != k && j > 60) {
					continue
				}
				if same, orbit := keys[j] == k, inOrbit(other); same != orbit {
					rt.Fatalf("canonical forms equal=%v but in one orbit=%v\nstate:\n%s\nother:\n%s\n%s", same, orbit,
						model.Describe(sys.U, s), model.Describe(sys.U, other), in)
				} else if same {
					merged++
				}
			}
		}
	})
	t.Logf("%d small inputs, %d merged pairs checked", small, merged)
	if small == 0 || merged == 0 {
		t.Errorf("%d small inputs, %d merged pairs: the test checked nothing", small, merged)
	}
}
