package kivi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// verifyEveryReduction verifies c with symmetry and partial-order
// reduction on and off, settling every intent, and fails unless the four
// runs give every intent the same verdict. It returns the run with both.
func verifyEveryReduction(t *testing.T, c *model.Cluster) *kivi.Report {
	t.Helper()
	var first *kivi.Report
	for _, o := range []struct{ noSym, noPOR bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true, NoSymmetry: o.noSym, NoPOR: o.noPOR}})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = rep
			continue
		}
		for _, want := range first.Results {
			got := rep.Result(want.Name)
			if got == nil || got.Verdict != want.Verdict {
				t.Errorf("symmetry off %v, partial-order reduction off %v: %s %+v, want %v", o.noSym, o.noPOR, want.Name, got, want.Verdict)
			}
		}
	}
	return first
}

// lostThenDeleted is nodeLoss's cluster (a workload of kind with a pod on
// each of nodes a and b, c spare, node a lost for good) with the operator
// deleting node a, `kubectl delete node a`, once the cluster is first
// quiet, or at any time (anyTime).
func lostThenDeleted(kind string, anyTime bool) *model.Cluster {
	lost := false
	c := nodeLoss(kind, &lost, false)
	when := "afterStable"
	if anyTime {
		when = ""
	}
	c.Events = append(c.Events, model.EventDecl{Kind: "deleteNode", Node: "a", When: when})
	return c
}

// TestDeleteLostNode: deleting a node lost for good is the operator's
// other remedy for a StatefulSet whose ordinal the lost node holds
// (TestNodeLostForGood: violated without it): the pod garbage collector
// deletes db-0, and the StatefulSet creates it again on c. Whether the
// deletion comes before the failure, while the node is down, or once its
// pods are evicted, rollout_completes holds, and the deleted node never
// comes back.
func TestDeleteLostNode(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kind    string
		anyTime bool
	}{
		{"StatefulSet, deleted once quiet", "StatefulSet", false},
		{"StatefulSet, deleted at any time", "StatefulSet", true},
		{"Deployment, deleted at any time", "Deployment", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := verifyEveryReduction(t, lostThenDeleted(tc.kind, tc.anyTime))
			for _, name := range []string{"rollout_completes", "valid_end_state"} {
				if r := rep.Result(name); r == nil || r.Verdict != checker.Holds {
					t.Errorf("%s %+v, want holds", name, r)
				}
			}
		})
	}
}

// TestDeleteNodeTrace: deleting node a of three nodes that hold one pod
// each has the pod garbage collector delete a's pod, and its
// replacement finds no node: pod_always_schedulable is violated, and the
// counterexample shows the deletion and the collection.
func TestDeleteNodeTrace(t *testing.T) {
	c := &model.Cluster{Name: "delete-full-node",
		NodeTypes: []model.NodeType{{Name: "std", CPU: 8, Memory: 64}},
		Nodes: []model.NodeGroup{
			{Type: "std", Names: []string{"a"}, Pods: []model.InitialPod{{Deployment: "web"}}},
			{Type: "std", Names: []string{"b"}, Pods: []model.InitialPod{{Deployment: "web"}}},
			{Type: "std", Names: []string{"c"}, Pods: []model.InitialPod{{Deployment: "web"}}}},
		Templates:   []model.TemplateDecl{{Name: "web", CPU: 8, Memory: 8}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 3}},
		Events:      []model.EventDecl{{Kind: "deleteNode", Node: "a"}},
		Intents:     []model.IntentDecl{{Name: "pod_always_schedulable"}},
	}
	rep := verifyEveryReduction(t, c)
	r := rep.Result("pod_always_schedulable")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("pod_always_schedulable %+v, want violated: a's pod has nowhere to go", r)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	for _, want := range []string{"kubectl delete node a", "Forced deletion of orphaned Pod", "node a no longer exists", "0/2 nodes are available"} {
		if !strings.Contains(text, want) {
			t.Errorf("the counterexample lacks %q:\n%s", want, text)
		}
	}
}

// zoneSpread is a Deployment of two pods under a hard zone spread
// constraint (maxSkew 1) on zone z1's only node a and zone z2's node b,
// node c spare in z2, with node a lost for good (when: the events' slot)
// and, when deleted, deleted in the same slot.
func zoneSpread(when string, deleted bool) *model.Cluster {
	lost := false
	zone := func(z string) map[string]string { return map[string]string{"topology.kubernetes.io/zone": z} }
	c := &model.Cluster{Name: "zone-spread-lost-node",
		NodeTypes: []model.NodeType{
			{Name: "z1", CPU: 64, Memory: 64, Labels: zone("z1")},
			{Name: "z2", CPU: 64, Memory: 64, Labels: zone("z2")}},
		Nodes: []model.NodeGroup{
			{Type: "z1", Names: []string{"a"}, Pods: []model.InitialPod{{Deployment: "web"}}},
			{Type: "z2", Names: []string{"b"}, Pods: []model.InitialPod{{Deployment: "web"}}},
			{Type: "z2", Names: []string{"c"}}},
		Templates: []model.TemplateDecl{{Name: "web", CPU: 8, Memory: 8, Labels: map[string]string{"app": "web"},
			Spread: []model.SpreadDecl{{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: "DoNotSchedule"}}}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 2}},
		Events:      []model.EventDecl{{Kind: "nodeFailure", Node: "a", Recovers: &lost, When: when}},
		Intents:     []model.IntentDecl{{Name: "pod_always_schedulable"}},
	}
	if deleted {
		c.Events = append(c.Events, model.EventDecl{Kind: "deleteNode", Node: "a", When: when})
	}
	return c
}

// TestDeleteNodeUnblocksZoneSpread: zone z1's only node lost for good
// keeps z1 a domain of the hard spread constraint with no pod (its Node
// object stays), so the replacement of its pod may not go to z2
// (pod_always_schedulable is violated); deleted before the controllers
// start (in whatever order with the failure), z1 is in no node list and
// the replacement goes to z2. Deleted at any time, the replacement may
// meet the lost node first: violated, whatever the reductions.
func TestDeleteNodeUnblocksZoneSpread(t *testing.T) {
	r := verify(t, zoneSpread("first", false)).Result("pod_always_schedulable")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("node a lost and kept: pod_always_schedulable %+v, want violated", r)
	}
	if text := strings.Join(r.Trace.Lines(), "\n"); !strings.Contains(text, "didn't match pod topology spread constraints") {
		t.Errorf("the counterexample is not the spread constraint's:\n%s", text)
	}
	if r := verifyEveryReduction(t, zoneSpread("first", true)).Result("pod_always_schedulable"); r == nil || r.Verdict != checker.Holds {
		t.Fatalf("node a lost and deleted first: pod_always_schedulable %+v, want holds", r)
	}
	if r := verifyEveryReduction(t, zoneSpread("", true)).Result("pod_always_schedulable"); r == nil || r.Verdict != checker.Violated {
		t.Fatalf("node a lost and deleted at any time: pod_always_schedulable %+v, want violated", r)
	}
}

// drainThenDelete is a Deployment of two pods on node a, nodes b and c
// spare, a PodDisruptionBudget of minAvailable, and `kubectl drain a`
// then `kubectl delete node a` (deleteNode with drain: true).
func drainThenDelete(minAvailable int) *model.Cluster {
	return &model.Cluster{Name: "drain-then-delete",
		NodeTypes: []model.NodeType{{Name: "std", CPU: 64, Memory: 64}},
		Nodes: []model.NodeGroup{
			{Type: "std", Names: []string{"a"}, Pods: []model.InitialPod{{Deployment: "web"}, {Deployment: "web"}}},
			{Type: "std", Count: 2, Names: []string{"b", "c"}}},
		Templates:   []model.TemplateDecl{{Name: "web", CPU: 8, Memory: 8, Labels: map[string]string{"app": "web"}}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 2}},
		PodDisruptionBudgets: []model.PodDisruptionBudgetDecl{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
			MinAvailable: fmt.Sprint(minAvailable)}},
		Events:  []model.EventDecl{{Kind: "deleteNode", Node: "a", Drain: true}},
		Intents: []model.IntentDecl{{Name: "rollout_completes", Params: map[string]any{"did": 1}}},
	}
}

// TestDrainThenDeleteNode: with drain: true the node is drained first,
// through the Eviction API: a budget that allows one disruption lets the
// drain evict the pods one at a time, and the node is deleted once
// empty; a budget that allows none keeps the drain waiting for ever, the
// node is never deleted, and valid_end_state says why.
func TestDrainThenDeleteNode(t *testing.T) {
	rep := verifyEveryReduction(t, drainThenDelete(1))
	for _, name := range []string{"rollout_completes", "valid_end_state"} {
		if r := rep.Result(name); r == nil || r.Verdict != checker.Holds {
			t.Errorf("budget of one disruption: %s %+v, want holds", name, r)
		}
	}
	rep = verifyEveryReduction(t, drainThenDelete(2))
	r := rep.Result("valid_end_state")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("budget of no disruption: valid_end_state %+v, want violated", r)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	if !strings.Contains(text, "kubectl drain a: node/a cordoned") || strings.Contains(text, "kubectl delete node") {
		t.Errorf("the counterexample should cordon a and never delete it:\n%s", text)
	}
}

// deleteA deletes node a once the cluster is stable: the pod garbage
// collector marks a Job pod running there Failed with the DisruptionTarget
// condition and force-deletes it; its replacement runs on b.
const deleteA = `intents:
- name: job_completes
  params: {deployment: batch}
events:
- {kind: deleteNode, node: a, when: afterStable}
`

// TestPodFailurePolicyDeleteNode: the pod garbage collector's deletion of
// a deleted node's Job pod (gcOrphaned) counts against backoffLimit 0
// unless the podFailurePolicy ignores the DisruptionTarget condition it
// sets; a FailJob rule on exit code 137 does not fire, the pod having no
// terminated container (the kubelet of a deleted node killed nothing),
// where a drain's eviction does (TestPodFailurePolicyDrain).
func TestPodFailurePolicyDeleteNode(t *testing.T) {
	for _, c := range []struct {
		name, backoffLimit, policy string
		want                       checker.Verdict
	}{
		{"no policy", "0", "", checker.Violated},
		{"Ignore DisruptionTarget", "0", ignoreDisruption, checker.Holds},
		{"FailJob on exit code 137", "6", failJobOn137, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, podFailurePolicyJob(c.backoffLimit, c.policy), twoFourCPUNodes, deleteA, true)
			r := rep.Result("job_completes")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("job_completes: %+v, want %v", r, c.want)
			}
			if c.want != checker.Violated {
				return
			}
			text := strings.Join(r.Trace.Lines(), "\n") + "\n" + r.Explanation
			for _, want := range []string{"kubectl delete node a", "Forced deletion of orphaned Pod batch-1", "failed: BackoffLimitExceeded"} {
				if !strings.Contains(text, want) {
					t.Errorf("trace lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// orphanWindow is web, three pods, one on each of nodes a, b and c, a
// PodDisruptionBudget of minAvailable 2, node a deleted before the
// controllers start (`kubectl delete node a`: its machine is gone) and
// `kubectl drain b` afterwards.
func orphanWindow() *model.Cluster {
	web := []model.InitialPod{{Deployment: "web"}}
	return &model.Cluster{Name: "drain-in-orphan-window",
		NodeTypes: []model.NodeType{{Name: "std", CPU: 64, Memory: 64}},
		Nodes: []model.NodeGroup{
			{Type: "std", Names: []string{"a"}, Pods: web},
			{Type: "std", Names: []string{"b"}, Pods: web},
			{Type: "std", Names: []string{"c"}, Pods: web}},
		Templates:   []model.TemplateDecl{{Name: "web", CPU: 8, Memory: 8, Labels: map[string]string{"app": "web"}}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 3}},
		PodDisruptionBudgets: []model.PodDisruptionBudgetDecl{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
			MinAvailable: "2"}},
		Events: []model.EventDecl{{Kind: "deleteNode", Node: "a", When: "first"}, {Kind: "drain", Nodes: []string{"b"}}},
		Intents: []model.IntentDecl{{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-1"}},
			{Name: "rollout_completes", Params: map[string]any{"did": 1}}},
	}
}

// TestDrainInOrphanWindow: a violation that lives only in the pod
// garbage collector's window. Node a's Node object is gone but its pod
// is not collected yet: the disruption controller still counts it
// healthy (Ready, no deletion timestamp), so the budget allows one
// disruption, and kubectl drain b evicts b's pod while only c's serves:
// web is down to one replica, below spec-1. Collected at once, the
// ReplicaSet's replacement would be counted unready and the drain would
// wait for it. The cluster ends whole (rollout_completes holds).
func TestDrainInOrphanWindow(t *testing.T) {
	rep := verifyEveryReduction(t, orphanWindow())
	if r := rep.Result("rollout_completes"); r == nil || r.Verdict != checker.Holds {
		t.Errorf("rollout_completes %+v, want holds", r)
	}
	r := rep.Result("replica_num_always_meet_exp")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("replica_num_always_meet_exp %+v, want violated: the budget counts a's orphaned pod", r)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	del, evict := strings.Index(text, "kubectl delete node a"), strings.Index(text, "evicting pod")
	if del < 0 || evict < del || strings.Contains(text, "Forced deletion of orphaned Pod") {
		t.Errorf("the counterexample should delete a, then evict from b before the pod garbage collector's step:\n%s", text)
	}
}
