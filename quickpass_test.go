package kivi_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/report"
)

// TestQuickPassCreatesInFileOrder: the quick pass creates the manifests'
// Deployments in file order (model.Options.FirstInOrder), the exhaustive
// search in every order. Five Deployments have 5! = 120 creation orders:
// the quick pass stores fewer states than that, the exhaustive search
// more.
func TestQuickPassCreatesInFileOrder(t *testing.T) {
	m := oneReplicaDeployments(5)
	const node = `apiVersion: v1
kind: Node
metadata: {name: a}
status: {allocatable: {cpu: "4", memory: 8Gi}}
`
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "m.yaml", Data: []byte(m)}}, &kivi.InputFile{Name: "nodes.yaml", Data: []byte(node)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Without the probe, which would settle this small search alone.
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{ProbeStates: -1, Checker: checker.Options{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict() != checker.Holds || len(rep.Phases) != 2 {
		t.Fatalf("verdict %v, %d phases; want holds after both phases", rep.Verdict(), len(rep.Phases))
	}
	quick, full := rep.Phases[0].Stats.States, rep.Phases[1].Stats.States
	if quick >= 120 || full <= 120 {
		t.Errorf("quick pass %d states, exhaustive search %d: want fewer than 120 and more", quick, full)
	}
}

// TestHintsOnABudget: a run a budget ends says why its state space is
// large (report.Report.Hints): here the creation orders of five
// Deployments and an event that may come at any step. A run that
// finishes gives none.
func TestHintsOnABudget(t *testing.T) {
	m := oneReplicaDeployments(4)
	const intents = "intents: [{name: pod_always_schedulable}]\nevents: [{kind: nodeFailure, node: a}]\n"
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "m.yaml", Data: []byte(m)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(twoNodes("4"))}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		t.Fatal(err)
	}
	for _, timeout := range []time.Duration{time.Nanosecond, 0} {
		rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, Timeout: timeout}})
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		rep.WriteFailures(&text)
		if timeout == 0 {
			if len(rep.Hints) != 0 || strings.Contains(text.String(), "Why the search is large") {
				t.Errorf("a finished run has hints: %q", rep.Hints)
			}
			continue
		}
		for _, want := range []string{"the 4 Deployments are created before the controllers start in every order (24 orders)", "1 event(s) (nodeFailure) may happen at any step"} {
			if !strings.Contains(text.String(), "Why the search is large: "+want) {
				t.Errorf("no hint %q in:\n%s", want, text.String())
			}
		}
	}
	// A state budget the quick pass stays within: it completes without a
	// violation, and the exhaustive search, which the budget ends, says
	// that its ties are what it adds.
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, MaxStates: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	rep.WriteFailures(&text)
	if q := rep.Phases[0]; !q.Complete || q.Violations != 0 || rep.Phases[1].Complete {
		t.Fatalf("want a complete quick pass and a budget-ended exhaustive search: %+v", rep.Phases)
	}
	if want := "Why the search is large: the scheduler may bind a pod to any node with the top score"; !strings.Contains(text.String(), want) {
		t.Errorf("no hint %q in:\n%s", want, text.String())
	}
}

// oneReplicaDeployments is n Deployments d0..d(n-1) of one 100m replica.
func oneReplicaDeployments(n int) string {
	var m strings.Builder
	for i := range n {
		fmt.Fprintf(&m, `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d%d}
spec:
  replicas: 1
  selector: {matchLabels: {app: d%d}}
  template:
    metadata: {labels: {app: d%d}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}
`, i, i, i)
	}
	return m.String()
}

// TestSizeHint: a run a budget ends with none of the particular causes
// (one workload, no event, no readiness, and a quick pass the budget
// stops too) still says why the search is large, naming what it follows
// and the budgets that would let it finish.
func TestSizeHint(t *testing.T) {
	c, err := cases.Get("c1", 3, true)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, MaxStates: 20}})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	rep.WriteFailures(&text)
	for _, want := range []string{"Why the search is large: no single cause stands out", "over 3 nodes, 1 workload and", "--max-states"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("no %q in:\n%s", want, text.String())
		}
	}
}

// TestProbeSettlesSmallSearches: on nodes alike (three of fifteen
// cordoned), with pods that become Ready in any order (a readiness
// probe), the exhaustive search, reduced by symmetry, is far smaller
// than the quick pass, whose tie-break keeps nodes in place and so tells
// every subset of Ready pods apart, so the quick pass's first glance does
// not finish; the probe
// (compose.DefaultProbeStates) then settles the input alone, with the
// verdict of the exhaustive search without a quick pass. With a probe
// bound below the search's size the quick pass and the exhaustive search
// run as without a probe.
func TestProbeSettlesSmallSearches(t *testing.T) {
	var nodes strings.Builder
	nodes.WriteString("apiVersion: v1\nkind: NodeList\nitems:\n")
	for i := range 15 {
		fmt.Fprintf(&nodes, "- {apiVersion: v1, kind: Node, metadata: {name: n%d, labels: {kubernetes.io/hostname: n%d}}, spec: {unschedulable: %v}, status: {allocatable: {cpu: \"2\", memory: 4Gi}}}\n", i, i, i%5 == 4)
	}
	const m = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 15
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 200m}}, readinessProbe: {httpGet: {path: /, port: 80}}}]
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, nodeTaintsPolicy: Honor}
`
	const intents = "intents: [{name: pod_always_schedulable}]\n"
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "m.yaml", Data: []byte(m)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes.String())}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		t.Fatal(err)
	}
	verify := func(o kivi.Options) *kivi.Report {
		o.Checker.Workers = 1
		rep, err := kivi.Verify(context.Background(), c, o)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	full := verify(kivi.Options{NoQuickPass: true})
	probed := verify(kivi.Options{})
	if len(probed.Phases) != 1 || probed.Phases[0].Name != report.PhaseExhaustive || !probed.Complete {
		t.Fatalf("phases %+v: want the probe's exhaustive search alone, complete", probed.Phases)
	}
	if probed.Verdict() != full.Verdict() || probed.Stats.States != full.Stats.States {
		t.Errorf("probe: %v with %d states; exhaustive search alone: %v with %d", probed.Verdict(), probed.Stats.States, full.Verdict(), full.Stats.States)
	}
	both := verify(kivi.Options{ProbeStates: int(full.Stats.States / 2)})
	if len(both.Phases) != 2 || both.Phases[0].Name != report.PhaseQuick || both.Verdict() != full.Verdict() {
		t.Fatalf("probe bound below the search: phases %+v, verdict %v; want the quick pass and the exhaustive search, %v", both.Phases, both.Verdict(), full.Verdict())
	}
	if q := both.Phases[0].Stats.States; q <= full.Stats.States {
		t.Errorf("quick pass %d states, exhaustive search %d: the input no longer shows what the probe is for", q, full.Stats.States)
	}
}
