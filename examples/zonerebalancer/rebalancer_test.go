package zonerebalancer_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/examples/zonerebalancer"
	"github.com/kivi-go/kivi/kivitest"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

// cluster is two zones of two nodes; the web deployment prefers zone a
// (weight 100). fixed adds a hard zone spread constraint.
func cluster(fixed bool) *model.Cluster {
	web := model.TemplateDecl{Name: "web", Labels: map[string]string{"app": "web"}, CPU: 8, Memory: 8,
		Preferred: []model.PreferredTerm{{Weight: 100, Term: model.Selector{MatchLabels: map[string]string{"zone": "a"}}}}}
	if fixed {
		web.Spread = []model.SpreadDecl{{MaxSkew: 1, TopologyKey: "zone"}}
	}
	created := false
	return &model.Cluster{
		Name: "zone-rebalancer",
		NodeTypes: []model.NodeType{
			{Name: "a", CPU: 64, Memory: 64, Labels: map[string]string{"zone": "a"}},
			{Name: "b", CPU: 64, Memory: 64, Labels: map[string]string{"zone": "b"}},
		},
		Nodes:       []model.NodeGroup{{Type: "a", Count: 2}, {Type: "b", Count: 2}},
		Templates:   []model.TemplateDecl{web},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 4, Created: &created}},
		Events:      []model.EventDecl{{Kind: "createTargetDeployment", Deployment: "web"}},
		Intents:     []model.IntentDecl{{Name: "no_oscillation_eviction", Params: map[string]any{"did": 1}}},
	}
}

func TestZoneRebalancer(t *testing.T) {
	rebalancer := kivitest.Controllers(zonerebalancer.Rebalancer{Deployment: 0, ZoneKey: "zone"})

	t.Run("preferred affinity loops", func(t *testing.T) {
		res := kivitest.Check(t, kivitest.Cluster(cluster(false)), kivitest.Original(), rebalancer, kivitest.Workers(1))
		if len(res.Violated) != 1 || res.Violated[0] != "no_oscillation_eviction" {
			t.Fatalf("violated %v, want no_oscillation_eviction\n%s", res.Violated, res.Text)
		}
		// The counterexample is a lasso whose loop is the rebalancer
		// evicting and the scheduler putting the pod back in zone a.
		loop := res.Text[strings.Index(res.Text, report.CycleMarker):]
		for _, want := range []string{"[zone-rebalancer] Evicting pod web-", "[kubelet] Deleted pod web-", "[kube-scheduler] Scheduled pod web-", "[kubelet] Started pod web-"} {
			if !strings.Contains(loop, want) {
				t.Errorf("loop lacks %q:\n%s", want, res.Text)
			}
		}
	})

	t.Run("hard zone spread holds", func(t *testing.T) {
		kivitest.Verify(t, kivitest.Cluster(cluster(true)), kivitest.Original(), rebalancer)
	})
}

// TestLoopOfAnotherWorkload: a cycle intent answers for its own workload
// only, however many workloads the cluster has. Eight idle deployments
// come first, web is the tenth; the rebalancer's loop evicts and starts
// web's pods, so no_oscillation_eviction is violated for web and holds
// for the ninth deployment, which never has a pod.
func TestLoopOfAnotherWorkload(t *testing.T) {
	base := cluster(false)
	idle := model.TemplateDecl{Name: "idle", Labels: map[string]string{"app": "idle"}, CPU: 1, Memory: 1}
	base.Templates = append(base.Templates, idle)
	var deps []model.DeploymentDecl
	for i := range 9 {
		deps = append(deps, model.DeploymentDecl{Name: "idle-" + string(rune('a'+i)), Template: "idle"})
	}
	base.Deployments = append(deps, base.Deployments...)
	rebalancer := kivitest.Controllers(zonerebalancer.Rebalancer{Deployment: 9, ZoneKey: "zone"})
	for _, tc := range []struct {
		did       int
		violation bool
	}{{9, false}, {10, true}} {
		c := *base
		c.Intents = []model.IntentDecl{{Name: "no_oscillation_eviction", Params: map[string]any{"did": tc.did}}}
		res := kivitest.Check(t, kivitest.Cluster(&c), kivitest.Original(), rebalancer, kivitest.Workers(1))
		if got := len(res.Violated) > 0; got != tc.violation {
			t.Errorf("did %d: violated %v, want a violation %v\n%s", tc.did, res.Violated, tc.violation, res.Text)
		}
	}
}
