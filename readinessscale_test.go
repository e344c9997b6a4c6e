package kivi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
)

// readinessScaleInput is a small input shaped like the generated
// realistic ones: three zones of two nodes, three Deployments whose
// templates all have a readinessProbe (one spread over the zones, one
// under a PodDisruptionBudget), the replica intent on the first, and a
// drain once the cluster is stable. probe false leaves the probes out.
func readinessScaleInput(probe bool) input {
	var nodes strings.Builder
	nodes.WriteString("apiVersion: v1\nkind: NodeList\nitems:\n")
	for i := range 6 {
		fmt.Fprintf(&nodes, "- {apiVersion: v1, kind: Node, metadata: {name: n%d, labels: {topology.kubernetes.io/zone: z%d}}, status: {allocatable: {cpu: %q, memory: 16Gi, pods: \"110\"}}}\n", i, i%3, []string{"4", "8"}[i/3])
	}
	dep := func(name string, replicas int, extra string) string {
		p := ""
		if probe {
			p = "        readinessProbe: {httpGet: {path: /, port: 80}}\n"
		}
		return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[1]s}
spec:
  replicas: %[2]d
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
%[3]s      containers:
      - name: c
        image: x
        resources: {requests: {cpu: 500m, memory: 1Gi}}
%[4]s---
`, name, replicas, extra, p)
	}
	spread := `      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: app1}}}
`
	manifests := dep("app0", 3, "") + dep("app1", 3, spread) + dep("app2", 2, "") + `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: app2}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: app2}}
`
	intents := `intents:
- name: pod_always_schedulable
- name: replica_num_always_meet_min
  params: {deployment: app0}
events:
- {kind: drain, when: afterStable, nodes: [n0]}
`
	return input{manifests: manifests, nodes: nodes.String(), intents: intents}
}

// TestReadinessScale pins the size of the exact search of a small input
// whose templates all have readiness probes. The pods of different
// Deployments become Ready in every order, and partial-order reduction
// explores one Deployment's readiness steps at a time where nothing else
// can act (docs/reductions.md, "Readiness steps"); without it the orders
// multiply (the "por off" figure). Every run goes on past violations (the
// drain takes app0 below its minimum) and all three agree on the verdict.
// A change that makes the probes
// explode again fails here: the pinned figures are exact counts, so a
// change that merely moves them must update them knowingly.
func TestReadinessScale(t *testing.T) {
	run := func(probe, noPOR bool) *kivi.Report {
		in := readinessScaleInput(probe)
		in.opts.Checker.NoPOR = noPOR
		in.opts.Checker.CollectAll = true
		return verifyInput(t, in)
	}
	plain, probes, probesNoPOR := run(false, false), run(true, false), run(true, true)
	for _, r := range []*kivi.Report{plain, probes, probesNoPOR} {
		if !r.Complete || r.Verdict() != plain.Verdict() {
			t.Fatalf("verdicts: %v (complete %v), without probes %v", r.Verdict(), r.Complete, plain.Verdict())
		}
	}
	t.Logf("states: %d without probes, %d with, %d with probes and no partial-order reduction", plain.Stats.States, probes.Stats.States, probesNoPOR.Stats.States)
	if narrowFootprint {
		return
	}
	const want = 549
	if probes.Stats.States != want {
		t.Errorf("with probes: %d states, pinned %d (without probes %d, without partial-order reduction %d)", probes.Stats.States, want, plain.Stats.States, probesNoPOR.Stats.States)
	}
	if probes.Stats.States*2 > probesNoPOR.Stats.States {
		t.Errorf("partial-order reduction leaves %d of %d states", probes.Stats.States, probesNoPOR.Stats.States)
	}
}
