package bench

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// A Shape is a realistic configuration as a platform engineer writes it:
// Deployments (some with an HPA, spread over zones and hosts), labelled
// Nodes, a DeschedulerPolicy where one is used, and an intents file with
// events. The shapes are generated as manifests and read by the same
// reader as `kivi verify -f`, so that a benchmark measures what a user
// runs.
type Shape struct {
	Name string
	// Nodes are NodeSpecs in order; Deployments the workloads.
	Nodes       []NodeSpec
	Deployments []DeploymentSpec
	// Descheduler, when set, is a DeschedulerPolicy document.
	Descheduler string
	// Intents is the intents file (YAML).
	Intents string
	// Expect is the verdict the shape must give: "violated" with the
	// intent named by ExpectIntent, "holds" or "unknown".
	Expect, ExpectIntent string
}

// NodeSpec is one node.
type NodeSpec struct {
	Name   string
	CPU    string
	Labels map[string]string
}

// DeploymentSpec is one Deployment, with an HPA when HPAMax > 0.
type DeploymentSpec struct {
	Name     string
	Replicas int
	CPU      string
	// Spread are topology spread constraints of maxSkew 1, each
	// "topologyKey:hard" (DoNotSchedule) or "topologyKey:soft"
	// (ScheduleAnyway).
	Spread []string
	// Preferred is preferred node affinity: label=value:weight entries.
	Preferred []string
	HPAMax    int
	// Budget, when set, is the spec of a PodDisruptionBudget selecting
	// the deployment's pods, e.g. "maxUnavailable: 2".
	Budget string
}

func whenOf(s string) string {
	if s == "hard" {
		return "DoNotSchedule"
	}
	return "ScheduleAnyway"
}

const (
	zoneKey = "topology.kubernetes.io/zone"
	hostKey = "kubernetes.io/hostname"
)

// Manifests renders the shape as the three files `kivi verify -f
// manifests.yaml --nodes nodes.yaml --intents intents.yaml` reads.
func (sh Shape) Manifests() (manifests, nodes, intentsFile string) {
	var nb strings.Builder
	for i, n := range sh.Nodes {
		if i > 0 {
			nb.WriteString("---\n")
		}
		fmt.Fprintf(&nb, "apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels:\n    kubernetes.io/hostname: %s\n", n.Name, n.Name)
		for _, k := range sortedKeys(n.Labels) {
			fmt.Fprintf(&nb, "    %s: %s\n", k, n.Labels[k])
		}
		fmt.Fprintf(&nb, "status:\n  allocatable: {cpu: %q, memory: 64Gi, pods: \"110\"}\n", n.CPU)
	}
	var mb strings.Builder
	for i, d := range sh.Deployments {
		if i > 0 {
			mb.WriteString("---\n")
		}
		fmt.Fprintf(&mb, `apiVersion: apps/v1
kind: Deployment
metadata: {name: %[1]s}
spec:
  replicas: %[2]d
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
`, d.Name, d.Replicas)
		if len(d.Spread) > 0 {
			mb.WriteString("      topologySpreadConstraints:\n")
			for _, c := range d.Spread {
				key, how, _ := strings.Cut(c, ":")
				fmt.Fprintf(&mb, "      - {maxSkew: 1, topologyKey: %s, whenUnsatisfiable: %s, labelSelector: {matchLabels: {app: %s}}}\n",
					key, whenOf(how), d.Name)
			}
		}
		if len(d.Preferred) > 0 {
			mb.WriteString("      affinity:\n        nodeAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n")
			for _, p := range d.Preferred {
				kv, weight, _ := strings.Cut(p, ":")
				k, v, _ := strings.Cut(kv, "=")
				fmt.Fprintf(&mb, "          - weight: %s\n            preference: {matchExpressions: [{key: %s, operator: In, values: [%s]}]}\n", weight, k, v)
			}
		}
		fmt.Fprintf(&mb, "      containers:\n      - {name: main, image: app, resources: {requests: {cpu: %q, memory: 1Gi}}}\n", d.CPU)
		if d.Budget != "" {
			fmt.Fprintf(&mb, "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: %[1]s}\nspec:\n  %[2]s\n  selector: {matchLabels: {app: %[1]s}}\n",
				d.Name, d.Budget)
		}
		if d.HPAMax > 0 {
			fmt.Fprintf(&mb, `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: %[1]s}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %[1]s}
  minReplicas: %[2]d
  maxReplicas: %[3]d
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
`, d.Name, d.Replicas, d.HPAMax)
		}
	}
	if sh.Descheduler != "" {
		mb.WriteString("---\n" + sh.Descheduler)
	}
	return mb.String(), nb.String(), sh.Intents
}

// Cluster reads the shape's manifests as `kivi verify -f` does.
func (sh Shape) Cluster() (*model.Cluster, error) {
	m, n, in := sh.Manifests()
	nodes := manifest.File{Name: "nodes.yaml", Data: []byte(n)}
	ints := manifest.File{Name: "intents.yaml", Data: []byte(in)}
	r, err := manifest.LoadStream([]manifest.File{{Name: "manifests.yaml", Data: []byte(m)}}, &nodes, &ints, manifest.Options{
		KnownIntent: func(name string) bool { _, ok := intents.UserName(name); return ok },
		IntentNames: intents.Names(),
	})
	if err != nil {
		return nil, err
	}
	r.Cluster.Name = sh.Name
	return r.Cluster, nil
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

// zonedNodes returns perZone nodes in each of zones zones (zone-a, …),
// named node-<zone letter><i>.
func zonedNodes(zones, perZone int, cpu string) []NodeSpec {
	var out []NodeSpec
	for z := range zones {
		letter := string(rune('a' + z))
		for i := range perZone {
			out = append(out, NodeSpec{Name: fmt.Sprintf("node-%s%d", letter, i), CPU: cpu,
				Labels: map[string]string{"topology.kubernetes.io/zone": "zone-" + letter}})
		}
	}
	return out
}

// Shapes are the realistic configurations of the benchmarks and their
// tests. Each one breaks an intent the way incidents do: in seconds a
// user gets the counterexample.
func Shapes() []Shape {
	// Lifecycle-labelled nodes for the descheduler loop: on-demand first.
	var spotNodes []NodeSpec
	for i := range 30 {
		lc := "spot"
		if i < 6 {
			lc = "on-demand"
		}
		spotNodes = append(spotNodes, NodeSpec{Name: fmt.Sprintf("node-%02d", i), CPU: "64",
			Labels: map[string]string{"lifecycle": lc, "topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%3)}})
	}
	return []Shape{{
		// Three zones of four small nodes; three Deployments spread hard
		// by zone and softly by host; web scales out under a CPU rise
		// while a node fails: a pod has no feasible node.
		Name:  "zones-hpa-node-failure",
		Nodes: zonedNodes(3, 4, "2"),
		Deployments: []DeploymentSpec{
			{Name: "web", Replicas: 6, CPU: "1", Spread: []string{zoneKey + ":hard", hostKey + ":soft"}, HPAMax: 12},
			{Name: "api", Replicas: 4, CPU: "2", Spread: []string{zoneKey + ":hard", hostKey + ":soft"}},
			{Name: "worker", Replicas: 3, CPU: "1", Spread: []string{zoneKey + ":hard", hostKey + ":soft"}},
		},
		Intents: `intents:
- name: pod_always_schedulable
events:
- name: eventCpuChange
  para: {targetDeployment: web}
  after_stable: true
- name: nodeFailure
  para: {node: node-b1}
  after_stable: true
`,
		Expect: "violated", ExpectIntent: "pod_always_schedulable",
	}, {
		// Twenty nodes in four zones under a rolling maintenance, one node
		// at a time: a drained web pod lands on the node drained next,
		// and web loses two replicas at once.
		Name:  "rolling-maintenance",
		Nodes: zonedNodes(4, 5, "4"),
		Deployments: []DeploymentSpec{
			{Name: "web", Replicas: 20, CPU: "1", Spread: []string{zoneKey + ":hard", hostKey + ":soft"}},
			{Name: "api", Replicas: 6, CPU: "2", Spread: []string{zoneKey + ":hard", hostKey + ":soft"}},
			{Name: "worker", Replicas: 4, CPU: "1", Spread: []string{zoneKey + ":hard", hostKey + ":soft"}},
		},
		Intents: `intents:
- name: replica_num_always_meet_exp
  para: {did: 1, expReplicas: "d[did].specReplicas-1"}
events:
- name: maintenance
  para: {p: 1}
  after_stable: true
`,
		Expect: "violated", ExpectIntent: "replica_num_always_meet_exp",
	}, {
		// Thirty nodes, six on-demand and 24 spot; the app prefers
		// on-demand (5) over spot (4) and spreads softly by host and by
		// lifecycle; four other Deployments share the nodes; the
		// descheduler also enforces soft constraints: it evicts what the
		// scheduler puts back (descheduler issue #921 at cluster size).
		Name:  "descheduler-soft-spread-loop",
		Nodes: spotNodes,
		Deployments: []DeploymentSpec{
			{Name: "app", Replicas: 60, CPU: "8", Spread: []string{hostKey + ":soft", "lifecycle:soft"}, Preferred: []string{"lifecycle=spot:4", "lifecycle=on-demand:5"}},
			{Name: "web", Replicas: 4, CPU: "500m"},
			{Name: "api", Replicas: 3, CPU: "500m"},
			{Name: "cache", Replicas: 2, CPU: "500m"},
			{Name: "worker", Replicas: 2, CPU: "500m"},
		},
		Descheduler: `apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: spread
  pluginConfig:
  - name: RemovePodsViolatingTopologySpreadConstraint
    args: {constraints: [DoNotSchedule, ScheduleAnyway]}
  plugins:
    balance: {enabled: [RemovePodsViolatingTopologySpreadConstraint]}
`,
		Intents: `intents:
- name: no_oscillation_eviction
  para: {did: 1}
`,
		Expect: "violated", ExpectIntent: "no_oscillation_eviction",
	}, {
		// Twenty nodes in four zones; web prefers zone-a and piles up
		// there, guarded by a PodDisruptionBudget (maxUnavailable 2);
		// RemoveDuplicates spreads it while an operator drains a zone-a
		// node: the budget keeps web within two replicas of its spec.
		// The budget lets through only some of the descheduler's and
		// the drain's evictions, whichever come first, and the model
		// branches over that order without telling nodes or pods apart.
		Name:  "budget-descheduler-drain",
		Nodes: zonedNodes(4, 5, "8"),
		Deployments: []DeploymentSpec{
			{Name: "web", Replicas: 30, CPU: "1", Preferred: []string{zoneKey + "=zone-a:100"}, Budget: "maxUnavailable: 2"},
			{Name: "api", Replicas: 20, CPU: "1"},
		},
		Descheduler: `apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: default
  plugins:
    balance: {enabled: [RemoveDuplicates]}
`,
		Intents: `intents:
- name: replica_num_always_meet_exp
  para: {did: 1, expReplicas: "d[did].specReplicas-2"}
events:
- kind: drain
  nodes: [node-a0]
  when: afterStable
`,
		Expect: "holds",
	}}
}

// errorsIsBound reports whether err says the topology is too large for
// the model.
func errorsIsBound(err error) bool { return errors.Is(err, kivi.ErrModelBound) }
