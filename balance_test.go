package kivi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// rollingMaintenance is three replicas on two nodes under a rolling
// maintenance: draining one node moves its pods to the other, which is
// drained in turn, so every pod ends on the node maintained first, the
// other back and empty. With a descheduler (RemoveDuplicates) the node
// that comes back gets pods again.
func rollingMaintenance(withDescheduler bool) *model.Cluster {
	c := &model.Cluster{Name: "rolling-maintenance",
		NodeTypes:   []model.NodeType{{Name: "n", CPU: 64, Memory: 64}},
		Nodes:       []model.NodeGroup{{Type: "n", Count: 2}},
		Templates:   []model.TemplateDecl{{Name: "web", Labels: map[string]string{"app": "web"}, CPU: 8, Memory: 8}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 3, Created: &notCreated}},
		Events: []model.EventDecl{
			{Kind: "createTargetDeployment", When: "first", Deployment: "web"},
			{Kind: "maintenance", When: "afterStable", Parallel: 1},
		},
		Intents: []model.IntentDecl{{Name: "pod_balance_across_node", Params: map[string]any{"did": 1}}},
	}
	if withDescheduler {
		c.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{
			Name: "default", Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
	}
	return c
}

func balanceVerdict(t *testing.T, c *model.Cluster, atPodStart bool) *kivi.IntentResult {
	t.Helper()
	opts := kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true},
		Intents: intents.Options{BalanceAtPodStart: atPodStart}}
	rep, err := kivi.Verify(context.Background(), c, opts)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Result("pod_balance_across_node")
	if r == nil {
		t.Fatal("no pod_balance_across_node result")
	}
	return r
}

// TestBalanceAfterRollingMaintenance: pod_balance_across_node holds in
// every settled state, not only when a pod starts, so the imbalance a
// rolling maintenance leaves behind is a violation; a descheduler that
// rebalances fixes it. Kivi's placement of the check (at pod starts)
// misses it.
func TestBalanceAfterRollingMaintenance(t *testing.T) {
	r := balanceVerdict(t, rollingMaintenance(false), false)
	if r.Verdict != checker.Violated {
		t.Fatalf("rolling maintenance: %v, want violated", r.Verdict)
	}
	if lines := r.Trace.Lines(); !strings.Contains(lines[len(lines)-1], "unbalanced") {
		t.Errorf("counterexample does not end with the imbalance:\n%s", strings.Join(lines, "\n"))
	}
	if got := balanceVerdict(t, rollingMaintenance(false), true); got.Verdict != checker.Holds {
		t.Errorf("Kivi's placement (at pod starts): %v, want holds (the imbalance is never checked)", got.Verdict)
	}
	if got := balanceVerdict(t, rollingMaintenance(true), false); got.Verdict != checker.Holds {
		t.Errorf("with a descheduler: %v (%s), want holds", got.Verdict, got.Explanation)
	}
}
