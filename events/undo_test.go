package events

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestRolloutUndo: `kubectl rollout undo` gives the deployment its
// previous revision's pod template (the other ReplicaSet slot's) under
// its current strategy, and queues it for the controller; without a
// previous revision nothing changes.
func TestRolloutUndo(t *testing.T) {
	c := &model.Cluster{
		NodeTypes: []model.NodeType{{Name: "n", CPU: 4000, Memory: 4096}},
		Nodes:     []model.NodeGroup{{Type: "n", Count: 1}},
		Templates: []model.TemplateDecl{{Name: "v1", CPU: 100}, {Name: "v2", CPU: 200}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "v1", Replicas: 2,
			MaxSurge: "1", MaxUnavailable: "0"}},
		DeploymentTemplates: []model.DeploymentTemplateDecl{{Name: "web-v2", Deployment: "web", Template: "v2",
			MaxSurge: "0", MaxUnavailable: "1"}},
		Events: []model.EventDecl{{Kind: "applyDeployment", Template: "web-v2", When: "afterStable"},
			{Kind: "rolloutUndo", Deployment: "web", When: "afterStable"}},
	}
	u, s, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	undo := 1
	v2 := u.DeploymentTemplates[0].Config
	s.Init = model.InitStable
	ds := &s.Deps[0]
	ds.Active, ds.Config = true, uint8(v2)
	ds.RS[ds.Cur] = model.ReplicaSetState{Template: uint8(u.Configs[v2].PodTemplate + 1), Replicas: 2}
	s.Queues[model.DeploymentQueue] = nil

	noHistory := s.Clone()
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	ForEvent(u, undo).Step(tx, noHistory)
	if noHistory.Deps[0].Config != uint8(v2) || len(noHistory.Queues[model.DeploymentQueue]) != 0 {
		t.Errorf("without a previous revision the undo changed the deployment: config %d, queue %v", noHistory.Deps[0].Config, noHistory.Queues[model.DeploymentQueue])
	}

	ds.RS[1-ds.Cur] = model.ReplicaSetState{Template: 1} // v1, scaled to 0
	tx.Begin(nil, true)
	ForEvent(u, undo).Step(tx, s)
	got := u.Configs[s.Deps[0].Config]
	if u.Templates[got.PodTemplate].Name != "v1" || got.MaxSurge != u.Configs[v2].MaxSurge || got.MaxUnavailable != u.Configs[v2].MaxUnavailable {
		t.Errorf("after the undo: template %s, maxSurge %+v, maxUnavailable %+v; want v1 under web-v2's strategy", u.Templates[got.PodTemplate].Name, got.MaxSurge, got.MaxUnavailable)
	}
	if q := s.Queues[model.DeploymentQueue]; len(q) != 1 || q[0] != 0 {
		t.Errorf("the deployment is not queued: %v", q)
	}
}
