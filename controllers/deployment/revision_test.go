package deployment

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestNewReplicaSet: FindNewReplicaSet (deployment/util@v1.36.3) finds a
// set by template, so a rollback reuses the old set; a third template
// with both slots in use reaches the model's bound of two ReplicaSets,
// or under Options.MergeOldRevisions merges the two older revisions
// (docs/divergences.md ("ReplicaSet and Deployment controllers")); an
// older set with no replicas and no active pod merges either way.
func TestNewReplicaSet(t *testing.T) {
	// setup: template b's set current in slot 1 with pod 3, template a's
	// in slot 0 with pods 1 and 2 and olderReplicas replicas, and the
	// deployment's template c.
	setup := func(merge bool, olderReplicas int16, older model.Phase) (*model.Universe, *model.State, int, [3]int) {
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
		b.U.Options.MergeOldRevisions = merge
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
		ds.RS[0].Replicas = olderReplicas
		s.Pods[2] = model.PodState{Phase: model.Running, Node: 1, Owner: 1, RS: 1, Template: uint8(tmpl[1])}
		for i := range 2 {
			s.Pods[i].Phase = older
		}

		// Back to template a: the old set is found (rollback).
		ds.Config = 0
		if got := findNewReplicaSet(u, ds); got != 0 {
			t.Fatalf("rollback found slot %d, want 0", got)
		}
		ds.Config = 2
		return u, s, d, tmpl
	}
	merged := func(t *testing.T, s *model.State, d, got int, tmpl [3]int, replicas int16) {
		t.Helper()
		ds := &s.Deps[d]
		if s.Failed != model.NoFailure || got != 0 || ds.RS[0] != (model.ReplicaSetState{Template: uint8(tmpl[2] + 1)}) ||
			ds.RS[1] != (model.ReplicaSetState{Template: uint8(tmpl[1] + 1), Replicas: replicas}) {
			t.Fatalf("merge: slot %d, %+v, failed %v", got, ds.RS, s.Failed)
		}
		for i := range 3 {
			if s.Pods[i].RS != 1 {
				t.Errorf("pod %d in slot %d after merge, want 1", i+1, s.Pods[i].RS)
			}
		}
	}

	t.Run("bound", func(t *testing.T) {
		u, s, d, _ := setup(false, 2, model.Running)
		if got := createNewReplicaSet(u, s, d); got != -1 || s.Failed != model.FailBound || model.Bound(s.FailedArg) != model.BoundReplicaSetRevisions {
			t.Fatalf("slot %d, failed %v (%d), want the bound of ReplicaSet revisions", got, s.Failed, s.FailedArg)
		}
	})
	t.Run("MergeOldRevisions", func(t *testing.T) {
		u, s, d, tmpl := setup(true, 2, model.Running)
		merged(t, s, d, createNewReplicaSet(u, s, d), tmpl, 3)
	})
	// Pods of the older set still Running under 0 replicas are active: the
	// ReplicaSet controller is about to delete them all, which the merged
	// set (1 replica, 3 pods) would not.
	t.Run("active pods, no replicas", func(t *testing.T) {
		u, s, d, _ := setup(false, 0, model.Running)
		if got := createNewReplicaSet(u, s, d); got != -1 || s.Failed != model.FailBound {
			t.Fatalf("slot %d, failed %v, want the bound", got, s.Failed)
		}
	})
	for _, ph := range []model.Phase{model.Terminating, model.Failed} {
		t.Run("only "+ph.String()+" pods", func(t *testing.T) {
			u, s, d, tmpl := setup(false, 0, ph)
			merged(t, s, d, createNewReplicaSet(u, s, d), tmpl, 1)
		})
	}
	// The descheduler's minReplicas counts every pod of a ReplicaSet.
	t.Run("descheduler minReplicas", func(t *testing.T) {
		u, s, d, _ := setup(false, 0, model.Terminating)
		u.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Evictor: model.EvictorConstraints{MinReplicas: 2}}}}
		if got := createNewReplicaSet(u, s, d); got != -1 || s.Failed != model.FailBound {
			t.Fatalf("slot %d, failed %v, want the bound", got, s.Failed)
		}
	})
}
