package events

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestSelfHeal: an applyDeployment with selfHeal runs once when its slot
// allows, then again only while the cluster is quiet and the live
// Deployment drifts from the file: a changed spec.replicas or pod
// template. A file without replicas never drifts on them (kubectl's
// three-way merge keeps the live count). Without selfHeal the apply runs
// once.
func TestSelfHeal(t *testing.T) {
	three := 3
	c := &model.Cluster{
		NodeTypes: []model.NodeType{{Name: "n", CPU: 4000, Memory: 4096}},
		Nodes:     []model.NodeGroup{{Type: "n", Count: 1}},
		Templates: []model.TemplateDecl{{Name: "v1", CPU: 100}, {Name: "v2", CPU: 200}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "v1", Replicas: 3},
			{Name: "api", Template: "v1", Replicas: 2, ReplicasUnset: true}},
		DeploymentTemplates: []model.DeploymentTemplateDecl{
			{Name: "web-file", Deployment: "web", Template: "v1", Replicas: &three},
			{Name: "api-file", Deployment: "api", Template: "v1"},
			{Name: "web-v2", Deployment: "web", Template: "v2", Replicas: &three}},
		Events: []model.EventDecl{
			{Kind: "applyDeployment", Template: "web-file", When: "afterStable", SelfHeal: true},
			{Kind: "applyDeployment", Template: "api-file", When: "afterStable", SelfHeal: true},
			{Kind: "applyDeployment", Template: "web-file", When: "afterStable"}},
	}
	u, s, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	const web, api, once = 0, 1, 2
	s.Init = model.InitStable
	for d := range s.Deps {
		s.Deps[d].Active = true
	}
	s.Queues[model.DeploymentQueue] = nil
	step := func(e int) {
		t.Helper()
		if !ForEvent(u, e).Enabled(u, s) {
			t.Fatalf("event %d not enabled", e)
		}
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		ForEvent(u, e).Step(tx, s)
		s.Queues[model.DeploymentQueue] = nil
	}
	enabled := func(e int) bool { return ForEvent(u, e).Enabled(u, s) }
	for _, e := range []int{web, api, once} {
		step(e)
		if enabled(e) {
			t.Errorf("event %d enabled again with nothing drifted", e)
		}
	}
	// An HPA (or kubectl scale) sets web's and api's counts.
	s.Deps[0].Replicas, s.Deps[1].Replicas = 5, 7
	if !enabled(web) || enabled(api) || enabled(once) {
		t.Errorf("after a scale: web %v api %v once %v, want only web's self-heal (api's file has no replicas)", enabled(web), enabled(api), enabled(once))
	}
	s.Queues[model.DeploymentQueue] = []uint16{1}
	if enabled(web) {
		t.Errorf("web's self-heal enabled while the deployment controller is busy")
	}
	s.Queues[model.DeploymentQueue] = nil
	step(web)
	if s.Deps[0].Replicas != 3 || s.Deps[1].Replicas != 7 {
		t.Errorf("after the self-heal: web %d api %d, want 3 and 7", s.Deps[0].Replicas, s.Deps[1].Replicas)
	}
	// Another template on web (someone applied web-v2 by hand): the
	// file's is applied again.
	s.Deps[0].Config = uint8(u.DeploymentTemplates[2].Config)
	if !enabled(web) {
		t.Errorf("a changed template is no drift")
	}
}
