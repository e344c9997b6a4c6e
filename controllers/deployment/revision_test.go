package deployment

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestNewReplicaSet: FindNewReplicaSet (deployment/util@v1.36.3) finds a
// set by template, so a rollback reuses the old set; a third template
// with both slots in use merges the two older revisions (the model's
// two-slot limit, docs/divergences.md ("ReplicaSet and Deployment controllers")).
func TestNewReplicaSet(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node())
	var tmpl [3]int
	for i := range tmpl {
		tmpl[i] = b.AddTemplate(build.Template(string(rune('a'+i))).Requests(1, 1))
	}
	d := b.AddDeployment("web", tmpl[0], 2)
	for i := 1; i < 3; i++ {
		b.U.Configs = append(b.U.Configs, model.DeploymentConfig{PodTemplate: tmpl[i]})
	}
	b.RunPod(d, 0).RunPod(d, 0)
	u, s := b.MustBuild()
	ds := &s.Deps[d]

	// Template b: a new set in slot 1.
	ds.Config = 1
	if got := findNewReplicaSet(u, ds); got != -1 {
		t.Fatalf("found %d for a new template", got)
	}
	if got := createNewReplicaSet(u, s, d); got != 1 || ds.RS[1] != (model.ReplicaSetState{Template: uint8(tmpl[1] + 1)}) {
		t.Fatalf("new set in slot %d: %+v", got, ds.RS)
	}
	ds.Cur = 1
	ds.RS[1].Replicas = 1
	s.Pods[2] = model.PodState{Phase: model.Running, Node: 1, Owner: 1, RS: 1, Template: uint8(tmpl[1])}

	// Back to template a: the old set is found (rollback).
	ds.Config = 0
	if got := findNewReplicaSet(u, ds); got != 0 {
		t.Fatalf("rollback found slot %d, want 0", got)
	}

	// Template c while both slots hold pods: slot 0 merges into slot 1.
	ds.Config = 2
	got := createNewReplicaSet(u, s, d)
	if got != 0 || ds.RS[0] != (model.ReplicaSetState{Template: uint8(tmpl[2] + 1)}) ||
		ds.RS[1] != (model.ReplicaSetState{Template: uint8(tmpl[1] + 1), Replicas: 3}) {
		t.Fatalf("merge: slot %d, %+v", got, ds.RS)
	}
	for i := range 3 {
		if s.Pods[i].RS != 1 {
			t.Errorf("pod %d in slot %d after merge, want 1", i+1, s.Pods[i].RS)
		}
	}
}
