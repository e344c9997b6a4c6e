package events

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// pausedCluster is web (v1, 2 replicas) with the given events, all after
// the cluster is stable, and an applied manifest web-v2 that sets
// spec.paused to paused (nil: leaves it out).
func pausedCluster(t *testing.T, manifestPaused bool, applied *bool, events ...model.EventDecl) (*model.Universe, *model.State) {
	t.Helper()
	c := &model.Cluster{
		NodeTypes: []model.NodeType{{Name: "n", CPU: 4000, Memory: 4096}},
		Nodes:     []model.NodeGroup{{Type: "n", Count: 1}},
		Templates: []model.TemplateDecl{{Name: "v1", CPU: 100}, {Name: "v2", CPU: 200}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "v1", Replicas: 2, Paused: manifestPaused,
			RolledOut: manifestPaused}},
		DeploymentTemplates: []model.DeploymentTemplateDecl{{Name: "web-v2", Deployment: "web", Template: "v2", Paused: applied}},
		Events:              events,
	}
	u, s, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	s.Init = model.InitStable
	s.Queues[model.DeploymentQueue] = nil
	return u, s
}

func step(u *model.Universe, s *model.State, event int) []model.Line {
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	ForEvent(u, event).Step(tx, s)
	return tx.Lines
}

// TestRolloutPauseResume: kubectl rollout pause sets spec.paused and
// queues the Deployment; a second pause changes nothing and queues
// nothing (kubectl: "already paused"); resume clears it and queues it; a
// resume of a Deployment that is not paused fails ("is not paused").
func TestRolloutPauseResume(t *testing.T) {
	ev := func(kind string) model.EventDecl {
		return model.EventDecl{Kind: kind, Deployment: "web", When: "afterStable"}
	}
	u, s := pausedCluster(t, false, nil, ev("rolloutResume"), ev("rolloutPause"), ev("rolloutPause"), ev("rolloutResume"))
	for _, tc := range []struct {
		event  int
		paused bool
		queued bool
	}{{0, false, false}, {1, true, true}, {2, true, false}, {3, false, true}} {
		lines := step(u, s, tc.event)
		if got := u.IsPaused(s, 0); got != tc.paused {
			t.Errorf("event %d (%s): paused %v, want %v (%v)", tc.event, u.Events[tc.event].Kind, got, tc.paused, lines)
		}
		if got := len(s.Queues[model.DeploymentQueue]) > 0; got != tc.queued {
			t.Errorf("event %d (%s): queued %v, want %v (%v)", tc.event, u.Events[tc.event].Kind, got, tc.queued, lines)
		}
		s.Queues[model.DeploymentQueue] = nil
	}
}

// TestRolloutRefusedWhilePaused: kubectl refuses rollout restart and undo
// of a paused Deployment ("run rollout resume first"): nothing changes.
func TestRolloutRefusedWhilePaused(t *testing.T) {
	for _, kind := range []string{"rolloutRestart", "rolloutUndo"} {
		u, s := pausedCluster(t, true, nil, model.EventDecl{Kind: kind, Deployment: "web", When: "afterStable"})
		ds := &s.Deps[0]
		ds.RS[1] = model.ReplicaSetState{Template: 2} // a previous revision for the undo
		before := *ds
		lines := step(u, s, 0)
		if *ds != before || len(s.Queues[model.DeploymentQueue]) != 0 {
			t.Errorf("%s of a paused Deployment changed it: %+v, queue %v (%v)", kind, *ds, s.Queues[model.DeploymentQueue], lines)
		}
		// Not paused, the same command acts.
		u, s = pausedCluster(t, false, nil, model.EventDecl{Kind: kind, Deployment: "web", When: "afterStable"}, model.EventDecl{Kind: "rolloutPause", Deployment: "web", When: "afterStable"})
		s.Deps[0].RS[1] = model.ReplicaSetState{Template: 2}
		step(u, s, 0)
		if len(s.Queues[model.DeploymentQueue]) != 1 {
			t.Errorf("%s of a Deployment that is not paused queued nothing", kind)
		}
	}
}

// TestApplyPaused: an applied file that sets spec.paused sets it; one
// that leaves it out keeps the live value, unless the Deployment's own
// manifest set it (the field leaves the last-applied configuration).
func TestApplyPaused(t *testing.T) {
	yes, no := true, false
	apply := model.EventDecl{Kind: "applyDeployment", Template: "web-v2", When: "afterStable"}
	pause := model.EventDecl{Kind: "rolloutPause", Deployment: "web", When: "afterStable"}
	for _, tc := range []struct {
		name           string
		manifestPaused bool
		applied        *bool
		pausedBefore   bool
		want           bool
	}{
		{"file pauses", false, &yes, false, true},
		{"file resumes", true, &no, true, false},
		{"left out, paused by kubectl: kept", false, nil, true, true},
		{"left out, not paused: kept", false, nil, false, false},
		{"left out, the manifest had set it: deleted", true, nil, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := pausedCluster(t, tc.manifestPaused, tc.applied, apply, pause)
			u.SetPaused(s, 0, tc.pausedBefore)
			step(u, s, 0)
			if got := u.IsPaused(s, 0); got != tc.want {
				t.Errorf("paused %v, want %v", got, tc.want)
			}
		})
	}
}

// TestApplyPausedAfterApply: kubectl apply's merge deletes spec.paused
// when the configuration applied last set it (true or false) and the new
// file leaves it out, and keeps the live value when neither sets it. Once
// a file is applied it is the configuration applied last; kubectl create
// saves none; kubectl rollout pause changes the live value only.
func TestApplyPausedAfterApply(t *testing.T) {
	yes, no := true, false
	apply := func(tmpl string) model.EventDecl {
		return model.EventDecl{Kind: "applyDeployment", Template: tmpl, When: "afterStable"}
	}
	pause := model.EventDecl{Kind: "rolloutPause", Deployment: "web", When: "afterStable"}
	for _, tc := range []struct {
		name string
		web  model.DeploymentDecl
		// events and web's spec.paused after each.
		events []model.EventDecl
		paused []bool
	}{
		{"the manifest set it: deleted, then kept", model.DeploymentDecl{Paused: true, RolledOut: true},
			[]model.EventDecl{apply("web-v2"), pause, apply("web-v2")}, []bool{false, true, true}},
		{"the manifest set it false: deleted", model.DeploymentDecl{PausedSet: true},
			[]model.EventDecl{pause, apply("web-v2")}, []bool{true, false}},
		{"the manifest left it out: kept", model.DeploymentDecl{},
			[]model.EventDecl{pause, apply("web-v2")}, []bool{true, true}},
		{"a file set it: deleted", model.DeploymentDecl{},
			[]model.EventDecl{apply("web-pause"), apply("web-v2")}, []bool{true, false}},
		{"a file set it false: deleted", model.DeploymentDecl{},
			[]model.EventDecl{apply("web-resume"), pause, apply("web-v2")}, []bool{false, true, false}},
		{"kubectl create saved none: kept", model.DeploymentDecl{Created: &no},
			[]model.EventDecl{{Kind: "createDeployment", Template: "web-pause", When: "afterStable"}, apply("web-v2")}, []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			web := tc.web
			web.Name, web.Template, web.Replicas = "web", "v1", 2
			c := &model.Cluster{
				NodeTypes:   []model.NodeType{{Name: "n", CPU: 4000, Memory: 4096}},
				Nodes:       []model.NodeGroup{{Type: "n", Count: 1}},
				Templates:   []model.TemplateDecl{{Name: "v1", CPU: 100}, {Name: "v2", CPU: 200}},
				Deployments: []model.DeploymentDecl{web},
				DeploymentTemplates: []model.DeploymentTemplateDecl{
					{Name: "web-v2", Deployment: "web", Template: "v2"},
					{Name: "web-pause", Deployment: "web", Template: "v2", Paused: &yes},
					{Name: "web-resume", Deployment: "web", Template: "v2", Paused: &no},
				},
				Events: tc.events,
			}
			u, s, err := c.Build()
			if err != nil {
				t.Fatal(err)
			}
			s.Init = model.InitStable
			for i, want := range tc.paused {
				step(u, s, i)
				if got := u.IsPaused(s, 0); got != want {
					t.Fatalf("after %s (event %d): paused %v, want %v", u.Events[i].Kind, i, got, want)
				}
			}
		})
	}
}

// TestRolledOutTemplateDecl: a paused Deployment rolled out with another
// template (a dump's, whose template changed while it was paused) starts
// with a ReplicaSet of that template; the fields are refused where they
// mean nothing, naming the field and what is accepted.
func TestRolledOutTemplateDecl(t *testing.T) {
	for _, tc := range []struct {
		name string
		web  model.DeploymentDecl
		err  string
	}{
		{"rolled out with v1", model.DeploymentDecl{Paused: true, RolledOut: true, RolledOutTemplate: "v1"}, ""},
		{"no such template", model.DeploymentDecl{Paused: true, RolledOut: true, RolledOutTemplate: "v0"}, `rolledOutTemplate "v0": no such template (accepted: v1, v2)`},
		{"not rolled out", model.DeploymentDecl{Paused: true, RolledOutTemplate: "v1"}, "rolledOutTemplate: \"v1\" set for a Deployment that was not rolled out (accepted: only with paused: true and rolledOut: true)"},
		{"not paused", model.DeploymentDecl{RolledOut: true}, "rolledOut: set for a Deployment that is not paused (accepted: only with paused: true)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			web := tc.web
			web.Name, web.Template, web.Replicas = "web", "v2", 2
			c := &model.Cluster{
				NodeTypes:   []model.NodeType{{Name: "n", CPU: 4000, Memory: 4096}},
				Nodes:       []model.NodeGroup{{Type: "n", Count: 1, Pods: []model.InitialPod{{Deployment: "web", Count: 2}}}},
				Templates:   []model.TemplateDecl{{Name: "v1", CPU: 100}, {Name: "v2", CPU: 200}},
				Deployments: []model.DeploymentDecl{web},
			}
			u, s, err := c.Build()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rs := s.Deps[0].RS[0]; rs.Template != 1 || rs.Replicas != 2 {
				t.Errorf("ReplicaSet %+v, want v1's (template 1) of 2", rs)
			}
			for i, p := range s.Pods[:2] {
				if p.Template != 0 || u.Configs[s.Deps[0].Config].PodTemplate != 1 {
					t.Errorf("pod %d: template %d, config's %d; want v1's (0) under v2's config", i, p.Template, u.Configs[s.Deps[0].Config].PodTemplate)
				}
			}
		})
	}
}
