package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// RandomShape draws a realistic configuration of the given number of
// nodes from seed: one to four zones of alike nodes (sometimes a second
// node size), one to four Deployments whose replicas grow with the
// cluster, with zone and host spread, preferred zones, HPAs and
// PodDisruptionBudgets as platform teams write them, sometimes a
// DeschedulerPolicy, one intent and one or two environment events. The
// sweep (TestRealisticSweep) verifies many of them at growing sizes: a
// verdict must come in seconds, or an Unknown with its reason.
func RandomShape(seed uint64, nodes int) Shape {
	r := rand.New(rand.NewPCG(seed, uint64(nodes)))
	sh := Shape{Name: fmt.Sprintf("random-%d-nodes=%d", seed, nodes)}
	zones := 1 + r.IntN(min(4, nodes))
	cpus := []string{"4", "8", "16"}
	big := cpus[r.IntN(len(cpus))]
	small := big
	if r.IntN(3) == 0 {
		small = cpus[r.IntN(len(cpus))]
	}
	for i := range nodes {
		cpu := big
		if i%4 == 3 {
			cpu = small
		}
		z := i % zones
		sh.Nodes = append(sh.Nodes, NodeSpec{Name: fmt.Sprintf("node-%c%02d", 'a'+z, i/zones), CPU: cpu,
			Labels: map[string]string{zoneKey: fmt.Sprintf("zone-%c", 'a'+z)}})
	}
	names := []string{"web", "api", "worker", "cache"}
	deps := 1 + r.IntN(len(names))
	for d := range deps {
		spec := DeploymentSpec{Name: names[d], CPU: []string{"500m", "1", "2"}[r.IntN(3)]}
		spec.Replicas = max(1, nodes*(1+r.IntN(3))/(2*deps))
		if zones > 1 && r.IntN(2) == 0 {
			spec.Spread = append(spec.Spread, zoneKey+":"+[]string{"hard", "soft"}[r.IntN(2)])
		}
		if r.IntN(2) == 0 {
			spec.Spread = append(spec.Spread, hostKey+":soft")
		}
		if zones > 1 && r.IntN(4) == 0 {
			spec.Preferred = append(spec.Preferred, zoneKey+"=zone-a:50")
		}
		if r.IntN(3) == 0 {
			spec.HPAMax = spec.Replicas + 1 + r.IntN(spec.Replicas+1)
		}
		if r.IntN(3) == 0 {
			spec.Budget = []string{"maxUnavailable: 1", "minAvailable: 50%"}[r.IntN(2)]
		}
		sh.Deployments = append(sh.Deployments, spec)
	}
	switch r.IntN(4) {
	case 0:
		sh.Descheduler = deschedulerPolicy("RemoveDuplicates")
	case 1:
		sh.Descheduler = deschedulerPolicy("RemovePodsViolatingTopologySpreadConstraint")
	}
	target := sh.Deployments[r.IntN(deps)].Name
	var in strings.Builder
	in.WriteString("intents:\n")
	switch r.IntN(3) {
	case 0:
		in.WriteString("- name: pod_always_schedulable\n")
	case 1:
		fmt.Fprintf(&in, "- name: replica_num_always_meet_min\n  params: {deployment: %s}\n", target)
	default:
		fmt.Fprintf(&in, "- name: no_oscillation_eviction\n  params: {deployment: %s}\n", target)
	}
	in.WriteString("events:\n")
	// Two events go to two nodes and never pair a deleted node with a
	// maintenance, which the reader refuses (a deleted node never comes
	// back).
	kinds := r.Perm(numSweepEvents)[:1+r.IntN(2)]
	if slices.Contains(kinds, sweepMaintenance) && slices.Contains(kinds, sweepDeleteNode) {
		kinds = kinds[:1]
	}
	first := r.IntN(nodes)
	for i, k := range kinds {
		node := sh.Nodes[(first+i*(1+r.IntN(max(1, nodes-1))))%nodes].Name
		switch k {
		case sweepCPUChange:
			fmt.Fprintf(&in, "- kind: eventCpuChange\n  deployment: %s\n  when: afterStable\n", target)
		case sweepNodeFailure:
			fmt.Fprintf(&in, "- kind: nodeFailure\n  node: %s\n", node)
		case sweepDrain:
			fmt.Fprintf(&in, "- kind: drain\n  nodes: [%s]\n  when: afterStable\n", node)
		case sweepMaintenance:
			in.WriteString("- kind: maintenance\n  order: any\n  when: afterStable\n")
		default:
			fmt.Fprintf(&in, "- kind: deleteNode\n  node: %s\n  drain: true\n  when: afterStable\n", node)
		}
	}
	sh.Intents = in.String()
	return sh
}

// The events a random shape draws from.
const (
	sweepCPUChange = iota
	sweepNodeFailure
	sweepDrain
	sweepMaintenance
	sweepDeleteNode
	numSweepEvents
)

// deschedulerPolicy is a DeschedulerPolicy running one balance plugin.
func deschedulerPolicy(plugin string) string {
	return fmt.Sprintf(`apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: default
  plugins:
    balance: {enabled: [%s]}
`, plugin)
}
