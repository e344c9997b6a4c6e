package intents

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestUpstreamDeploymentComplete: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go TestDeploymentComplete,
// judged by rollout_completes at rest (rolloutWatch.Stuck, which reads the
// pods as `kubectl rollout status` reads DeploymentStatus). Each row is
// (spec.replicas, status.replicas, updatedReplicas, availableReplicas):
// updated pods run in the current ReplicaSet, the others in the old one,
// and the first ones of them are available (Ready for minReadySeconds),
// the rest Ready but not yet available. maxUnavailable and maxSurge do
// not enter DeploymentComplete.
func TestUpstreamDeploymentComplete(t *testing.T) {
	for _, tc := range []struct {
		name                                 string
		desired, current, updated, available int
		want                                 bool
	}{
		{"not complete: min but not all pods become available", 5, 5, 5, 4, false},
		{"not complete: min availability is not honored", 5, 5, 5, 3, false},
		{"complete", 5, 5, 5, 5, true},
		{"not complete: all pods are available but not updated", 5, 5, 4, 5, false},
		{"not complete: still running old pods", 1, 2, 1, 1, false},
		{"not complete: one replica deployment never comes up", 1, 1, 1, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node())
			tmpl := b.AddTemplate(build.Template("web").Requests(1, 1))
			d := b.AddDeployment("web", tmpl, tc.desired)
			for range tc.current {
				b.RunPod(d, 0)
			}
			u, s := b.MustBuild()
			ds := &s.Deps[d]
			ds.RS[1] = model.ReplicaSetState{Template: ds.RS[0].Template, Replicas: int16(tc.current - tc.updated)}
			n := 0
			for i := range s.Pods {
				p := &s.Pods[i]
				if p.Phase != model.Running {
					continue
				}
				if n >= tc.updated {
					p.RS = 1
				}
				if n >= tc.available {
					p.Readiness = model.PodReadyNotAvailable
				}
				n++
			}
			got := rolloutWatch{d}.Stuck(u, s, nil) == ""
			if got != tc.want {
				t.Errorf("complete %t, want %t (%q)", got, tc.want, rolloutWatch{d}.Stuck(u, s, nil))
			}
		})
	}
}
