package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// nodeLoss is a workload of kind (StatefulSet or Deployment) with one pod
// on each of nodes a and b, node c spare, and a nodeFailure of node a:
// recovers nil is the default (the node comes back), oos the operator's
// out-of-service taint.
func nodeLoss(kind string, recovers *bool, oos bool) *model.Cluster {
	return &model.Cluster{Name: "node-loss",
		NodeTypes: []model.NodeType{{Name: "std", CPU: 64, Memory: 64}},
		Nodes: []model.NodeGroup{
			{Type: "std", Names: []string{"a"}, Pods: []model.InitialPod{{Deployment: "db"}}},
			{Type: "std", Names: []string{"b"}, Pods: []model.InitialPod{{Deployment: "db"}}},
			{Type: "std", Names: []string{"c"}}},
		Templates:   []model.TemplateDecl{{Name: "db", CPU: 8, Memory: 8, Labels: map[string]string{"app": "db"}}},
		Deployments: []model.DeploymentDecl{{Name: "db", Kind: kind, Template: "db", Replicas: 2}},
		Events:      []model.EventDecl{{Kind: "nodeFailure", Node: "a", Recovers: recovers, OutOfService: oos}},
		Intents:     []model.IntentDecl{{Name: "rollout_completes", Params: map[string]any{"did": 1}}},
	}
}

// TestNodeLostForGood: a StatefulSet whose node a is lost for good
// (recovers: false) never runs its two replicas again: db-0 stays
// Terminating on a, holding its ordinal, and rollout_completes is
// violated where the cluster comes to rest, while valid_end_state holds
// (the event has ended). A node that comes back, or the operator's
// out-of-service taint, lets db-0 go: rollout_completes holds. A
// Deployment's pod is replaced on c whatever becomes of a.
func TestNodeLostForGood(t *testing.T) {
	lost, back := false, true
	for _, tc := range []struct {
		name     string
		kind     string
		recovers *bool
		oos      bool
		want     checker.Verdict
	}{
		{"StatefulSet, node back", "StatefulSet", &back, false, checker.Holds},
		{"StatefulSet, node lost", "StatefulSet", &lost, false, checker.Violated},
		{"StatefulSet, node lost, out-of-service", "StatefulSet", &lost, true, checker.Holds},
		{"Deployment, node lost", "Deployment", &lost, false, checker.Holds},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := verify(t, nodeLoss(tc.kind, tc.recovers, tc.oos))
			r := rep.Result("rollout_completes")
			if r == nil || r.Verdict != tc.want {
				t.Fatalf("rollout_completes %+v, want %v", r, tc.want)
			}
			if v := rep.Result("valid_end_state"); v == nil || v.Verdict != checker.Holds {
				t.Errorf("valid_end_state %+v, want holds: a lost node's event has ended", v)
			}
			if tc.want != checker.Violated {
				return
			}
			text := strings.Join(r.Trace.Lines(), "\n")
			for _, want := range []string{"Node a failed for good", "stays Terminating: node a is not Ready"} {
				if !strings.Contains(text, want) {
					t.Errorf("the counterexample lacks %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, "Node a recovered") {
				t.Errorf("node a comes back in the counterexample:\n%s", text)
			}
		})
	}
}

// TestOneZoneLostForGood: a one-node cluster loses its node for good.
// Its zone is fully disrupted, so the node lifecycle controller taints
// nothing and evicts nothing: web's pods stay bound to the lost node,
// marked not Ready (their probe), and nothing replaces them:
// rollout_completes is violated. The out-of-service taint evicts them;
// their replacements then find no Ready node (pod_always_schedulable).
func TestOneZoneLostForGood(t *testing.T) {
	lost := false
	c := func(oos bool) *model.Cluster {
		return &model.Cluster{Name: "one-zone-loss",
			NodeTypes:   []model.NodeType{{Name: "std", CPU: 64, Memory: 64}},
			Nodes:       []model.NodeGroup{{Type: "std", Names: []string{"a"}, Pods: []model.InitialPod{{Deployment: "web"}, {Deployment: "web"}}}},
			Templates:   []model.TemplateDecl{{Name: "web", CPU: 8, Memory: 8, ReadinessProbe: true}},
			Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 2}},
			Events:      []model.EventDecl{{Kind: "nodeFailure", Node: "a", Recovers: &lost, OutOfService: oos}},
			Intents:     []model.IntentDecl{{Name: "rollout_completes", Params: map[string]any{"did": 1}}},
		}
	}
	rep := verify(t, c(false))
	r := rep.Result("rollout_completes")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("rollout_completes %+v, want violated", r)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	if !strings.Contains(text, "every zone is in FullDisruption") {
		t.Errorf("the counterexample does not hold the taint back:\n%s", text)
	}
	for _, bad := range []string{"Evicting", "Created pod"} {
		if strings.Contains(text, bad) {
			t.Errorf("the counterexample has %q: a fully disrupted zone evicts and replaces nothing:\n%s", bad, text)
		}
	}
	if p := rep.Result("pod_always_schedulable"); p == nil || p.Verdict != checker.Holds {
		t.Errorf("pod_always_schedulable %+v, want holds: no replacement is ever created", p)
	}
	rep = verify(t, c(true))
	p := rep.Result("pod_always_schedulable")
	if p == nil || p.Verdict != checker.Violated {
		t.Fatalf("with the out-of-service taint: pod_always_schedulable %+v, want violated", p)
	}
	if text := strings.Join(p.Trace.Lines(), "\n"); !strings.Contains(text, "does not tolerate the taint node.kubernetes.io/out-of-service") {
		t.Errorf("the counterexample does not evict through the out-of-service taint:\n%s", text)
	}
}
