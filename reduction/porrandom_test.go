package reduction_test

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// randomInput is a small generated input: the files `kivi verify` reads.
type randomInput struct {
	manifests, nodes, intents string
	// applied holds the manifests applyDeployment events name.
	applied map[string]string
}

func (in randomInput) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# nodes.yaml\n%s# manifests.yaml\n%s# intents.yaml\n%s", in.nodes, in.manifests, in.intents)
	for name, m := range in.applied {
		fmt.Fprintf(&b, "# %s\n%s", name, m)
	}
	return b.String()
}

// drawInput draws a small cluster: 2–4 nodes (some tainted, in two
// zones), 1–3 Deployments (readiness probes, minReadySeconds, spread
// constraints, tolerations, HPAs, PodDisruptionBudgets; one in six
// paused), up to two events among node failure, CPU change, kubectl scale
// and apply, drain, maintenance, kernel panic, kubectl delete node
// (drained first or not) and kubectl rollout pause and resume, and
// intents among the replica monitors,
// the eviction-loop and balance intents, rollout_completes and
// no_kernel_panic (pod_always_schedulable, model_assertion and
// valid_end_state are always checked).
func drawInput(rt *rapid.T) randomInput {
	in := randomInput{applied: map[string]string{}}
	nodeNames := []string{"node-a", "node-b", "node-c", "node-d"}[:rapid.IntRange(2, 4).Draw(rt, "nodes")]
	var nodes strings.Builder
	nodes.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	tainted := false
	for i, n := range nodeNames {
		fmt.Fprintf(&nodes, "- apiVersion: v1\n  kind: Node\n  metadata: {name: %s, labels: {kubernetes.io/hostname: %s, topology.kubernetes.io/zone: z%d}}\n", n, n, i%2)
		if rapid.IntRange(0, 3).Draw(rt, "taint "+n) == 0 {
			tainted = true
			effect := rapid.SampledFrom([]string{"NoSchedule", "PreferNoSchedule"}).Draw(rt, "effect "+n)
			fmt.Fprintf(&nodes, "  spec: {taints: [{key: dedicated, value: batch, effect: %s}]}\n", effect)
		}
		fmt.Fprintf(&nodes, "  status: {allocatable: {cpu: %q, memory: 2Gi, pods: \"110\"}}\n", rapid.SampledFrom([]string{"1", "2"}).Draw(rt, "cpu "+n))
	}
	in.nodes = nodes.String()

	deps := []string{"web", "api", "db"}[:rapid.IntRange(1, 3).Draw(rt, "deployments")]
	hasHPA := map[string]bool{}
	var docs []string
	deployment := func(d string, replicas int, cpu string, probe bool, minReady int, spread string, tolerate, paused bool) string {
		var b strings.Builder
		fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: %d\n", d, replicas)
		if paused {
			b.WriteString("  paused: true\n")
		}
		if minReady > 0 {
			fmt.Fprintf(&b, "  minReadySeconds: %d\n", minReady)
		}
		fmt.Fprintf(&b, "  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec:\n", d, d)
		if tolerate {
			b.WriteString("      tolerations: [{key: dedicated, operator: Equal, value: batch, effect: NoSchedule}]\n")
		}
		if spread != "" {
			fmt.Fprintf(&b, "      topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: %s, labelSelector: {matchLabels: {app: %s}}}]\n", spread, d)
		}
		fmt.Fprintf(&b, "      containers:\n      - name: %s\n        resources: {requests: {cpu: %s, memory: 256Mi}}\n", d, cpu)
		if probe {
			b.WriteString("        readinessProbe: {httpGet: {path: /healthz, port: 8080}}\n")
		}
		return b.String()
	}
	for _, d := range deps {
		replicas := rapid.IntRange(1, 2).Draw(rt, "replicas "+d)
		cpu := rapid.SampledFrom([]string{"250m", "500m", "1"}).Draw(rt, "request "+d)
		probe := rapid.Bool().Draw(rt, "probe "+d)
		minReady := rapid.SampledFrom([]int{0, 0, 5}).Draw(rt, "minReadySeconds "+d)
		spread := rapid.SampledFrom([]string{"", "", "DoNotSchedule", "ScheduleAnyway"}).Draw(rt, "spread "+d)
		tolerate := tainted && rapid.Bool().Draw(rt, "tolerate "+d)
		paused := rapid.IntRange(0, 5).Draw(rt, "paused "+d) == 0
		docs = append(docs, deployment(d, replicas, cpu, probe, minReady, spread, tolerate, paused))
		if rapid.IntRange(0, 2).Draw(rt, "hpa "+d) == 0 {
			hasHPA[d] = true
			docs = append(docs, fmt.Sprintf("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: %s}\nspec:\n"+
				"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %s}\n  minReplicas: 1\n  maxReplicas: %d\n"+
				"  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]\n", d, d, replicas+1))
		}
		if rapid.IntRange(0, 3).Draw(rt, "pdb "+d) == 0 {
			docs = append(docs, fmt.Sprintf("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: %s}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: %s}}\n", d, d))
		}
		// The version an applyDeployment event rolls out: another request,
		// a probe or not.
		in.applied[d+"-v2.yaml"] = deployment(d, replicas, rapid.SampledFrom([]string{"250m", "500m"}).Draw(rt, "v2 request "+d),
			rapid.Bool().Draw(rt, "v2 probe "+d), minReady, spread, tolerate, false)
	}
	in.manifests = strings.Join(docs, "---\n")

	var events []string
	kernelPanic := false
	// deleted are the nodes a deleteNode deletes, took the nodes other
	// events name or take down: a deleteNode goes with neither of its
	// node's (the model refuses what would bring a deleted node back).
	deleted, took := map[string]bool{}, map[string]bool{}
	for i := range rapid.IntRange(0, 2).Draw(rt, "events") {
		d := rapid.SampledFrom(deps).Draw(rt, fmt.Sprintf("event %d deployment", i))
		n := rapid.SampledFrom(nodeNames).Draw(rt, fmt.Sprintf("event %d node", i))
		when := rapid.SampledFrom([]string{"main", "afterStable"}).Draw(rt, fmt.Sprintf("event %d when", i))
		switch kind := rapid.SampledFrom([]string{"nodeFailure", "eventCpuChange", "scaleDeployment", "applyDeployment", "drain", "maintenance", "kernelPanic", "deleteNode", "rolloutPause", "rolloutResume"}).Draw(rt, fmt.Sprintf("event %d", i)); kind {
		case "rolloutPause", "rolloutResume":
			events = append(events, fmt.Sprintf("- {kind: %s, deployment: %s, when: %s}", kind, d, when))
		case "nodeFailure":
			if deleted[n] {
				// A node lost for good may be deleted.
				events = append(events, fmt.Sprintf("- {kind: nodeFailure, node: %s, recovers: false, when: %s}", n, when))
				break
			}
			took[n] = true
			events = append(events, fmt.Sprintf("- {kind: nodeFailure, node: %s, when: %s}", n, when))
		case "deleteNode":
			if deleted[n] || took[n] || kernelPanic || took["*"] {
				break
			}
			deleted[n] = true
			events = append(events, fmt.Sprintf("- {kind: deleteNode, node: %s, drain: %v, when: %s}", n, rapid.Bool().Draw(rt, fmt.Sprintf("event %d drain", i)), when))
		case "eventCpuChange":
			events = append(events, fmt.Sprintf("- {kind: eventCpuChange, deployment: %s, maxDelta: 200}", d))
		case "scaleDeployment":
			events = append(events, fmt.Sprintf("- {kind: scaleDeployment, deployment: %s, maxDelta: 1, when: %s}", d, when))
		case "applyDeployment":
			events = append(events, fmt.Sprintf("- {kind: applyDeployment, manifest: %s-v2.yaml, when: %s, selfHeal: %v}", d, when, rapid.Bool().Draw(rt, fmt.Sprintf("event %d selfHeal", i))))
		case "drain":
			if deleted[n] {
				break
			}
			took[n] = true
			events = append(events, fmt.Sprintf("- {kind: drain, nodes: [%s], when: afterStable}", n))
		case "maintenance":
			if len(deleted) > 0 {
				break
			}
			took["*"] = true
			order := rapid.SampledFrom([]string{"written", "any"}).Draw(rt, fmt.Sprintf("event %d order", i))
			parallel := rapid.IntRange(1, 2).Draw(rt, fmt.Sprintf("event %d parallel", i))
			events = append(events, fmt.Sprintf("- {kind: maintenance, order: %s, parallel: %d}", order, parallel))
		case "kernelPanic":
			if !kernelPanic && len(deleted) == 0 {
				kernelPanic = true
				events = append(events, "- {kind: kernelPanic}")
			}
		}
	}
	var decls []string
	for _, d := range deps {
		for _, intent := range []string{"replica_num_always_meet_min", "replica_num_always_meet_exp", "no_oscillation_eviction", "pod_balance_across_node", "rollout_completes", "no_oscillation_replica_num", "no_scaling_loop"} {
			if intent == "no_oscillation_replica_num" && !hasHPA[d] {
				continue
			}
			if rapid.IntRange(0, 5).Draw(rt, intent+" "+d) != 0 {
				continue
			}
			switch intent {
			case "replica_num_always_meet_exp":
				decls = append(decls, fmt.Sprintf("- {name: %s, params: {deployment: %s, expReplicas: spec-1}}", intent, d))
			case "pod_balance_across_node":
				decls = append(decls, fmt.Sprintf("- {name: %s, params: {deployment: %s, maxSkew: 1}}", intent, d))
			default:
				decls = append(decls, fmt.Sprintf("- {name: %s, params: {deployment: %s}}", intent, d))
			}
		}
	}
	if kernelPanic && rapid.Bool().Draw(rt, "no_kernel_panic") {
		decls = append(decls, "- {name: no_kernel_panic}")
	}
	in.setIntents(decls, events)
	return in
}

// setIntents writes the intents file: the intents declared (or
// pod_always_schedulable alone, which is always checked), then the events.
func (in *randomInput) setIntents(decls, events []string) {
	if len(decls) == 0 {
		decls = append(decls, "- {name: pod_always_schedulable}")
	}
	in.intents = "intents:\n" + strings.Join(decls, "\n") + "\n"
	if len(events) > 0 {
		in.intents += "events:\n" + strings.Join(events, "\n") + "\n"
	}
}

// checkRandom runs the engine on p as the random tests compare it: every
// property collected, one worker, at most randomMaxStates states; with dfs,
// a depth-first search from seed as the depth-first phase runs them
// (compose/deep.go: its cycle proviso is the depth-first one).
func checkRandom(rt *rapid.T, p *compose.Problem, in randomInput, noSym, noPOR, dfs bool, seed uint64) checker.Result[*model.State] {
	opts := checker.Options{CollectAll: true, NoSymmetry: noSym, NoPOR: noPOR, Workers: 1, MaxStates: randomMaxStates}
	if dfs {
		opts.Strategy, opts.Seed = checker.DFS, seed
	}
	res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties, opts)
	if err != nil {
		rt.Fatalf("%v\n%s", err, in)
	}
	return res
}

// load reads the input as `kivi verify` does.
func (in randomInput) load() (*model.Cluster, error) {
	opts := manifest.Options{
		KnownIntent: func(name string) bool { _, ok := intents.UserName(name); return ok },
		IntentNames: intents.Names(),
		CheckIntent: intents.Check,
		ReadFile: func(name string) ([]byte, error) {
			if m, ok := in.applied[filepath.Base(name)]; ok {
				return []byte(m), nil
			}
			return nil, fs.ErrNotExist
		},
	}
	r, err := manifest.LoadStream([]manifest.File{{Name: "manifests.yaml", Data: []byte(in.manifests)}},
		&manifest.File{Name: "nodes.yaml", Data: []byte(in.nodes)}, &manifest.File{Name: "intents.yaml", Data: []byte(in.intents)}, opts)
	if err != nil {
		return nil, err
	}
	return r.Cluster, nil
}

// randomDepth is checkStubborn's depth on the random inputs.
var randomDepth = flag.Int("porsound.depth", stubbornDepth, "steps outside the stubborn set TestPORSoundOnRandomClusters follows")

// randomStates is how many reachable states of each random input the
// state checks (checkStubborn, checkFootprints) visit; randomMaxStates
// bounds each of the four runs.
const (
	randomStates    = 300
	randomMaxStates = 20_000
)

// checkFirstStates runs checkFootprints and, where the reduction may
// reduce, checkStubborn on the first reachable states of sys, the
// problem of in, and returns on how many a stubborn set was picked.
func checkFirstStates(rt *rapid.T, sys *compose.System, in randomInput) (sets int) {
	r := sys.Reduction
	if r == nil {
		return 0
	}
	forStates(sys, randomStates, func(s *model.State) {
		if msg := checkFootprints(sys, r, s); msg != "" {
			rt.Fatalf("%s\n%s\n%s", msg, model.Describe(sys.U, s), in)
		}
		if !r.MayReduce(s) {
			return
		}
		msg, picked := checkStubborn(sys, r, s, *randomDepth)
		if msg != "" {
			rt.Fatalf("%s\n%s\n%s", msg, model.Describe(sys.U, s), in)
		}
		if picked {
			sets++
		}
	})
	return sets
}

// TestPORSoundOnRandomClusters: on random small clusters (drawInput),
// partial-order reduction is sound where it is used:
//   - on the first reachable states, every stubborn set the reduction
//     picks passes checkStubborn and every actor's footprints pass
//     checkFootprints;
//   - every property has the same verdict with symmetry alone as with
//     neither reduction, where both runs decide it;
//   - with symmetry off and on, every property (the intents,
//     pod_always_schedulable, model_assertion, valid_end_state, the cycle
//     intents) has the same verdict with and without the reduction where
//     both runs decide it, a violation is found with it iff without, and
//     the reduced counterexamples replay.
//
// -rapid.checks=N runs more inputs (100 by default, 20 with -short);
// -rapid.seed reproduces a run.
func TestPORSoundOnRandomClusters(t *testing.T) {
	var sets, ample, reducing int
	rapid.Check(t, func(rt *rapid.T) {
		in := drawInput(rt)
		p := inputProblem(rt, in, compose.Options{})
		sys := p.System
		sets += checkFirstStates(rt, sys, in)
		// unreduced is the run with neither reduction, against which the
		// run with symmetry alone is compared too.
		var unreduced checker.Result[*model.State]
		seed := rapid.Uint64Range(1, 1<<20).Draw(rt, "seed")
		for _, noSym := range []bool{true, false} {
			run := func(noPOR, dfs bool) checker.Result[*model.State] {
				return checkRandom(rt, p, in, noSym, noPOR, dfs, seed)
			}
			full, reduced, deep := run(true, false), run(false, false), run(false, true)
			for i, a := range full.Properties {
				b := deep.Properties[i]
				if a.Verdict != checker.Unknown && b.Verdict != checker.Unknown && a.Verdict != b.Verdict {
					rt.Fatalf("symmetry %v: %s: %v without partial-order reduction, %v with it depth-first (seed %d)\n%s", !noSym, a.Name, a.Verdict, b.Verdict, seed, in)
				}
				if b.Trace != nil {
					replayTrace(rt, sys, b.Trace)
				}
			}
			if noSym {
				unreduced = full
			} else {
				for i, a := range unreduced.Properties {
					b := full.Properties[i]
					if a.Verdict != checker.Unknown && b.Verdict != checker.Unknown && a.Verdict != b.Verdict {
						rt.Fatalf("%s: %v without reductions, %v with symmetry\n%s", a.Name, a.Verdict, b.Verdict, in)
					}
				}
			}
			ample += int(reduced.Stats.AmpleExpansions)
			if reduced.Stats.AmpleExpansions > 0 {
				reducing++
			}
			for i, a := range full.Properties {
				b := reduced.Properties[i]
				if a.Verdict == checker.Unknown || b.Verdict == checker.Unknown {
					continue
				}
				if a.Verdict != b.Verdict {
					rt.Fatalf("symmetry %v: %s: %v without partial-order reduction, %v with\n%s", !noSym, a.Name, a.Verdict, b.Verdict, in)
				}
				if b.Trace != nil {
					replayTrace(rt, sys, b.Trace)
				}
			}
		}
	})
	t.Logf("%d stubborn sets checked on states; %d runs used ample sets (%d ample expansions)", sets, reducing, ample)
}
