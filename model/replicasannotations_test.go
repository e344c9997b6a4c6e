package model_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// TestReplicasAnnotationsRoundTrip: what SetAnnotations stores,
// Annotations reads back (the shared desired-replicas while a set is
// active, each active set's max-replicas), also after ApplyConfig changes
// the maxSurge; stored values are 0 exactly when implied, so a deployment
// that is not rolling out stores nothing.
func TestReplicasAnnotationsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := &model.Universe{}
		for range 2 {
			cfg := model.DeploymentConfig{MaxSurge: model.IntOrPercent{Value: rapid.IntRange(0, 100).Draw(t, "surge"), Percent: rapid.Bool().Draw(t, "percent")}}
			if rapid.Bool().Draw(t, "recreate") {
				cfg.Strategy = model.Recreate
			}
			u.Configs = append(u.Configs, cfg)
		}
		ds := &model.DeploymentState{Cur: uint8(rapid.IntRange(0, 1).Draw(t, "cur"))}
		active := false
		for k := range ds.RS {
			ds.RS[k] = model.ReplicaSetState{Template: 1, Replicas: int16(rapid.IntRange(0, 10).Draw(t, "replicas"))}
			active = active || ds.RS[k].Replicas > 0
		}
		a := model.ReplicasAnnotations{Desired: rapid.IntRange(0, 10).Draw(t, "desired")}
		implied := a.Desired + model.MaxSurge(&u.Configs[0], a.Desired)
		for k := range a.Max {
			a.Max[k] = implied
			if rapid.Bool().Draw(t, "stale") {
				a.Max[k] = a.Desired + rapid.IntRange(0, 5).Draw(t, "otherSurge")
			}
		}
		ds.SetAnnotations(u, a)
		check := func(when string) {
			got := ds.Annotations(u)
			if !active {
				if ds.DesiredReplicas != 0 || ds.MaxReplicas != [2]int16{} {
					t.Fatalf("%s: no active set, stored %d %v", when, ds.DesiredReplicas, ds.MaxReplicas)
				}
				return
			}
			if got.Desired != a.Desired {
				t.Fatalf("%s: desired %d, want %d", when, got.Desired, a.Desired)
			}
			for k := range a.Max {
				if ds.RS[k].Replicas > 0 && got.Max[k] != a.Max[k] {
					t.Fatalf("%s: max-replicas of slot %d %d, want %d", when, k, got.Max[k], a.Max[k])
				}
			}
		}
		check("stored")
		if active && (ds.DesiredReplicas == 0) != (a.Desired == int(ds.RS[ds.Cur].Replicas)) {
			t.Fatalf("desired-replicas %d stored as %d with the current set at %d", a.Desired, ds.DesiredReplicas, ds.RS[ds.Cur].Replicas)
		}
		ds.ApplyConfig(u, 1)
		check("after ApplyConfig")
	})
}
