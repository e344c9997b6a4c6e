package events

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestApplyAfterRolloutRestart: kubectl apply of the file a rollout
// restart started from keeps the restartedAt annotation the restart put
// on the live template (the configuration applied last does not name
// it), so the restarted template stays and nothing rolls back; a file
// with another template is rolled out as usual.
func TestApplyAfterRolloutRestart(t *testing.T) {
	c := &model.Cluster{
		NodeTypes: []model.NodeType{{Name: "n", CPU: 4000, Memory: 4096}},
		Nodes:     []model.NodeGroup{{Type: "n", Count: 1}},
		Templates: []model.TemplateDecl{{Name: "v1", CPU: 100}, {Name: "v2", CPU: 200}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "v1", Replicas: 2,
			MaxSurge: "1", MaxUnavailable: "0"}},
		DeploymentTemplates: []model.DeploymentTemplateDecl{
			{Name: "web-same", Deployment: "web", Template: "v1", MaxSurge: "1", MaxUnavailable: "0"},
			{Name: "web-v2", Deployment: "web", Template: "v2", MaxSurge: "1", MaxUnavailable: "0"}},
		Events: []model.EventDecl{{Kind: "rolloutRestart", Deployment: "web", When: "afterStable"},
			{Kind: "applyDeployment", Template: "web-same", When: "afterStable"},
			{Kind: "applyDeployment", Template: "web-v2", When: "afterStable"}},
	}
	u, s, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	const restart, applySame, applyV2 = 0, 1, 2
	s.Init = model.InitStable
	ds := &s.Deps[0]
	ds.Active = true
	s.Queues[model.DeploymentQueue] = nil
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	ForEvent(u, restart).Step(tx, s)
	restarted := s.Deps[0].Config
	if restarted == 0 {
		t.Fatalf("the restart left the configuration alone")
	}

	same := s.Clone()
	tx.Begin(nil, true)
	ForEvent(u, applySame).Step(tx, same)
	if same.Deps[0].Config != restarted {
		t.Errorf("re-applying the file the restart started from: configuration %d, want the restarted one %d (template %s)",
			same.Deps[0].Config, restarted, u.Templates[u.Configs[same.Deps[0].Config].PodTemplate].Name)
	}

	v2 := s.Clone()
	tx.Begin(nil, true)
	ForEvent(u, applyV2).Step(tx, v2)
	if got := u.Templates[u.Configs[v2.Deps[0].Config].PodTemplate].Name; got != "v2" {
		t.Errorf("applying another template after the restart: template %s, want v2", got)
	}
}
