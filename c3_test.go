package kivi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// c3 is Kivi's case C3 at scale 3, written by
// hand: zone 1 has nodes 1 and 2, zone 2 node 3; five pods, two per node
// but one on the middle node; hard spread by hostname and zone; an HPA at
// 91 % with min 5 and max 6; one CPU increase once the cluster is stable.
func c3(bothConstraints bool) *model.Cluster {
	spread := []model.SpreadDecl{{MaxSkew: 1, TopologyKey: "hostname"}}
	if bothConstraints {
		spread = append(spread, model.SpreadDecl{MaxSkew: 1, TopologyKey: "zone"})
	}
	app := func(n int) []model.InitialPod { return []model.InitialPod{{Deployment: "app", Count: n}} }
	return &model.Cluster{
		Name: "c3",
		NodeTypes: []model.NodeType{
			{Name: "zone-1", CPU: 64, Memory: 64, Labels: map[string]string{"zone": "1"}},
			{Name: "zone-2", CPU: 64, Memory: 64, Labels: map[string]string{"zone": "2"}},
		},
		Nodes:     []model.NodeGroup{{Type: "zone-1", Pods: app(2)}, {Type: "zone-1", Pods: app(1)}, {Type: "zone-2", Pods: app(2)}},
		Templates: []model.TemplateDecl{{Name: "app", Labels: map[string]string{"name": "app"}, CPU: 8, Memory: 8, Spread: spread}},
		Deployments: []model.DeploymentDecl{{Name: "app", Template: "app", Replicas: 5,
			HPA: &model.HPADecl{Min: 5, Max: 6, Metrics: []model.MetricDecl{{Resource: "cpu", Target: 91}}}}},
		Events:   []model.EventDecl{{Kind: "eventCpuChange", When: "afterStable", Deployment: "app"}},
		PodSlots: 6,
		// Kivi's case: its nodes have the `hostname` label the spread uses.
		KiviHostnameAlias: true,
	}
}

// TestC3FindsNoFeasibleNode is the acceptance check of the model issue:
// the shortest counterexample is Kivi's README trace, CPU change → HPA
// 5→6 → the deployment adds pod 6 → no feasible node.
func TestC3FindsNoFeasibleNode(t *testing.T) {
	// One worker: every shortest counterexample has this shape, and a
	// sequential search picks the same one every time.
	rep, err := kivi.Verify(context.Background(), c3(true), kivi.Options{Checker: checker.Options{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Result("pod_always_schedulable")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("pod_always_schedulable: %+v", r)
	}
	lines := r.Trace.Lines()
	text := strings.Join(lines, "\n")
	want := []string{"[0][workload] CPU usage of pod app-3 changed by +1 to 9; node 2 has 55 CPU left",
		"[1][horizontal-pod-autoscaler] Scaling deployment app from 5 to 6 replicas",
		"[2][replicaset-controller] Deployment app has too few replicas: creating 1", "[3][replicaset-controller] Created pod app-6",
		"[4][kube-scheduler] Pod app-6 cannot be scheduled: 0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints"}
	if strings.Join(want, "\n") != text {
		t.Fatalf("counterexample:\n%s\nwant:\n%s", text, strings.Join(want, "\n"))
	}
	// With any number of workers the counterexample is as short, and only
	// the CPU change (which pod, by how much) may differ.
	rep2, err := kivi.Verify(context.Background(), c3(true), kivi.Options{Checker: checker.Options{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	lines2 := rep2.Result("pod_always_schedulable").Trace.Lines()
	if len(lines2) != len(want) || strings.Join(lines2[1:], "\n") != strings.Join(want[1:], "\n") || !strings.HasPrefix(lines2[0], "[0][workload] CPU usage of pod app-") {
		t.Fatalf("2 workers:\n%s", strings.Join(lines2, "\n"))
	}
	t.Logf("counterexample:\n%s\nstats: %+v", text, rep.Stats)
}

// TestC3OnlyHostnameHolds is C3's non-violation variant: with the hostname
// constraint alone the sixth pod always fits.
func TestC3OnlyHostnameHolds(t *testing.T) {
	rep, err := kivi.Verify(context.Background(), c3(false), kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Verdict != checker.Holds {
			t.Errorf("%s: %v (%v) %s", r.Name, r.Verdict, r.Reason, r.Explanation)
			if r.Trace != nil {
				t.Log(strings.Join(r.Trace.Lines(), "\n"))
			}
		}
	}
	t.Logf("stats: %+v", rep.Stats)
}
